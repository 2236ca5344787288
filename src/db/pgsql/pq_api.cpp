#include "db/pgsql/pq_api.h"

#include "db/dynamic_lib.h"

namespace loadcell {
namespace {

constexpr const char* kPqSoname = "libpq.so.5";

const LoadedLibrary<PqApi>& PqLoaded() {
  static const LoadedLibrary<PqApi> loaded = [] {
    LoadedLibrary<PqApi> l;
    void* h = OpenLibrary(kPqSoname, "libpq5", l.status);
    if (h == nullptr) return l;
#define LOADCELL_BIND_(name) Bind(h, kPqSoname, #name, l.api.name, l.status);
    LOADCELL_PQ_FUNCTIONS(LOADCELL_BIND_)
#undef LOADCELL_BIND_
    return l;
  }();
  return loaded;
}

}  // namespace

Status LoadPq() { return PqLoaded().status; }
const PqApi& Pq() { return PqLoaded().api; }

}  // namespace loadcell
