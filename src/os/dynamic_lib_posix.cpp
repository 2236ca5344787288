#include <dlfcn.h>
#include <fmt/format.h>

#include "os/dynamic_lib.h"

namespace loadcell {
namespace {

std::string LastDlError() {
  const char* e = dlerror();
  return e != nullptr ? e : "unknown error";
}

}  // namespace

void* OpenLibrary(const char* soname, const char* package, Status& status) {
  void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    status = Status::Unavailable(
        fmt::format("cannot load {} (install the {} package): {}", soname, package, LastDlError()));
  }
  return handle;
}

void* FindSymbol(void* handle, const char* soname, const char* name, Status& status) {
  if (!status.ok()) return nullptr;
  dlerror();
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    status = Status::Unavailable(
        fmt::format("cannot load {}: it lacks {}: {}", soname, name, LastDlError()));
  }
  return sym;
}

}  // namespace loadcell
