#include "db/dynamic_lib.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <string>

namespace loadcell {
namespace {

template <typename Api>
struct Loaded {
  Status status;
  Api api;
};

std::string LastDlError() {
  const char* e = dlerror();
  return e != nullptr ? e : "unknown error";
}

// Opens `soname` (never closed: the drivers may be used until exit).
void* OpenLibrary(const char* soname, const char* package, Status& status) {
  void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    status = Status(
        StatusCode::kUnavailable,
        fmt::format("cannot load {} (install the {} package): {}", soname, package, LastDlError()));
  }
  return handle;
}

// Sets `fn` to the symbol `name` of `handle`; on failure records it in
// `status` (the first failure wins).
template <typename Fn>
void Bind(void* handle, const char* soname, const char* name, Fn& fn, Status& status) {
  if (!status.ok()) return;
  dlerror();
  void* sym = dlsym(handle, name);
  if (sym == nullptr) {
    status = Status(StatusCode::kUnavailable,
                    fmt::format("cannot load {}: it lacks {}: {}", soname, name, LastDlError()));
    return;
  }
  fn = reinterpret_cast<Fn>(sym);
}

constexpr const char* kPqSoname = "libpq.so.5";
constexpr const char* kMariadbSoname = "libmariadb.so.3";

const Loaded<PqApi>& PqLoaded() {
  static const Loaded<PqApi> loaded = [] {
    Loaded<PqApi> l;
    void* h = OpenLibrary(kPqSoname, "libpq5", l.status);
    if (h == nullptr) return l;
#define LOADCELL_BIND_(name) Bind(h, kPqSoname, #name, l.api.name, l.status);
    LOADCELL_PQ_FUNCTIONS(LOADCELL_BIND_)
#undef LOADCELL_BIND_
    return l;
  }();
  return loaded;
}

const Loaded<MariadbApi>& MariadbLoaded() {
  static const Loaded<MariadbApi> loaded = [] {
    Loaded<MariadbApi> l;
    void* h = OpenLibrary(kMariadbSoname, "libmariadb3", l.status);
    if (h == nullptr) return l;
#define LOADCELL_BIND_(name) Bind(h, kMariadbSoname, #name, l.api.name, l.status);
    LOADCELL_MARIADB_FUNCTIONS(LOADCELL_BIND_)
#undef LOADCELL_BIND_
    return l;
  }();
  return loaded;
}

}  // namespace

Status LoadPq() { return PqLoaded().status; }
const PqApi& Pq() { return PqLoaded().api; }

Status LoadMariadb() { return MariadbLoaded().status; }
const MariadbApi& Mariadb() { return MariadbLoaded().api; }

}  // namespace loadcell
