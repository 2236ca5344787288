#include "cluster/mpi_api.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include "db/dynamic_lib.h"

namespace loadcell {
namespace {

constexpr const char* kMpiSoname = "libmpi.so.40";
constexpr const char* kMpiPackage = "libopenmpi3";

// RTLD_GLOBAL, unlike the database libraries: Open MPI loads its own
// components (mca_*.so) with dlopen, and they resolve libmpi's and
// libopen-pal's symbols from the global scope.
void* OpenMpiLibrary(Status& status) {
  void* handle = dlopen(kMpiSoname, RTLD_NOW | RTLD_GLOBAL);
  if (handle == nullptr) {
    const char* e = dlerror();
    status = Status(StatusCode::kUnavailable,
                    fmt::format("cannot load {} (install the {} package, Open MPI): {}", kMpiSoname,
                                kMpiPackage, e != nullptr ? e : "unknown error"));
  }
  return handle;
}

// Sets `handle` to the address of libmpi's predefined object `name`.
template <typename Handle>
void BindHandle(void* lib, const char* name, Handle& handle, Status& status) {
  if (void* sym = FindSymbol(lib, kMpiSoname, name, status)) handle = static_cast<Handle>(sym);
}

const LoadedLibrary<MpiApi>& MpiLoaded() {
  static const LoadedLibrary<MpiApi> loaded = [] {
    LoadedLibrary<MpiApi> l;
    void* h = OpenMpiLibrary(l.status);
    if (h == nullptr) return l;
#define LOADCELL_BIND_(name) Bind(h, kMpiSoname, #name, l.api.name, l.status);
    LOADCELL_MPI_FUNCTIONS(LOADCELL_BIND_)
#undef LOADCELL_BIND_
    BindHandle(h, "ompi_mpi_comm_world", l.api.comm_world, l.status);
    BindHandle(h, "ompi_mpi_byte", l.api.byte, l.status);
    BindHandle(h, "ompi_mpi_int", l.api.int_type, l.status);
    BindHandle(h, "ompi_mpi_op_min", l.api.op_min, l.status);
    return l;
  }();
  return loaded;
}

}  // namespace

Status LoadMpi() { return MpiLoaded().status; }
const MpiApi& Mpi() { return MpiLoaded().api; }

}  // namespace loadcell
