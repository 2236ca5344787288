#include "core/build_info.h"

#include <array>

#include "core/build_features.h"

namespace loadcell {
namespace {

constexpr std::array<OptionalPart, 6> kParts = {{
    {"io_uring", "LOADCELL_WITH_IO_URING", LOADCELL_WITH_IO_URING == 1},
    {"libaio", "LOADCELL_WITH_LIBAIO", LOADCELL_WITH_LIBAIO == 1},
    {"pgsql", "LOADCELL_WITH_PGSQL", LOADCELL_WITH_PGSQL == 1},
    {"mysql", "LOADCELL_WITH_MYSQL", LOADCELL_WITH_MYSQL == 1},
    {"lua", "LOADCELL_WITH_LUA", LOADCELL_WITH_LUA == 1},
    {"mpi", "LOADCELL_WITH_MPI", LOADCELL_WITH_MPI == 1},
}};

const OptionalPart* Find(std::string_view name) {
  for (const OptionalPart& p : kParts) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::string JoinNames(bool built) {
  std::string out;
  for (const OptionalPart& p : kParts) {
    if (p.built != built) continue;
    if (!out.empty()) out += ", ";
    out += p.name;
  }
  return out;
}

}  // namespace

std::span<const OptionalPart> OptionalParts() { return kParts; }

bool IsLeftOut(std::string_view name) {
  const OptionalPart* p = Find(name);
  return p != nullptr && !p->built;
}

std::string OptionalPartsLine() {
  const std::string built = JoinNames(true);
  const std::string left_out = JoinNames(false);
  std::string out = "optional parts: " + (built.empty() ? std::string("none") : built);
  if (!left_out.empty()) out += "; not in this build: " + left_out;
  return out;
}

Status NotInThisBuild(std::string_view asked, std::string_view part) {
  const OptionalPart* p = Find(part);
  const std::string option = p != nullptr ? std::string(p->cmake_option) : std::string("?");
  return Status::InvalidArgument(std::string(asked) + ": " + std::string(part) +
                                 " is not in this build (built with -D" + option + "=OFF)");
}

}  // namespace loadcell
