#include "db/mysql/mariadb_api.h"

#include "db/dynamic_lib.h"

namespace loadcell {
namespace {

constexpr const char* kMariadbSoname = "libmariadb.so.3";

const LoadedLibrary<MariadbApi>& MariadbLoaded() {
  static const LoadedLibrary<MariadbApi> loaded = [] {
    LoadedLibrary<MariadbApi> l;
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

Status LoadMariadb() { return MariadbLoaded().status; }
const MariadbApi& Mariadb() { return MariadbLoaded().api; }

}  // namespace loadcell
