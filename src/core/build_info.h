#pragma once
// The optional parts of this build (CMake's LOADCELL_WITH_* options): what
// --version names, and the one-line error when a run asks for a part that
// was left out.

#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace loadcell {

struct OptionalPart {
  std::string_view name;          // as the command line spells it: "io_uring", "pgsql", "lua"
  std::string_view cmake_option;  // "LOADCELL_WITH_IO_URING"
  bool built = false;
};

// Every optional part, in the order --version lists them.
std::span<const OptionalPart> OptionalParts();

// True when `name` is an optional part that this build left out (false for
// a part built in and for a name that is no optional part).
bool IsLeftOut(std::string_view name);

// For --version: "optional parts: io_uring, libaio, pgsql, mysql, lua, mpi", with
// "; not in this build: ..." naming the parts left out.
std::string OptionalPartsLine();

// InvalidArgument, one line: "<asked>: <part> is not in this build (built
// with -D<option>=OFF)". REQUIRES: IsLeftOut(part).
Status NotInThisBuild(std::string_view asked, std::string_view part);

}  // namespace loadcell
