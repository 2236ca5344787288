// Loading a shared library on first use with dlopen instead of linking it
// (the database client libraries, libcrypto for the own clients, libmpi), so
// that runs that use none of them (cpu, memory, fileio, sqlite...) do not map
// it and its dependencies (TLS, Kerberos, LDAP...), which would add megabytes
// of resident memory to every run. The real headers still provide the types;
// each user keeps one table of function pointers, one per function it calls
// (db/pgsql/pq_api.h, db/mysql/mariadb_api.h, cluster/mpi_api.h,
// os/crypto_posix.cpp). POSIX only (dynamic_lib_posix.cpp).

#ifndef LOADCELL_OS_DYNAMIC_LIB_H_
#define LOADCELL_OS_DYNAMIC_LIB_H_

#include <string>

#include "core/status.h"

namespace loadcell {

// A library's function table and how loading it went.
template <typename Api>
struct LoadedLibrary {
  Status status;
  Api api;
};

// Opens `soname` (never closed: the drivers may be used until exit). On
// failure returns nullptr and sets `status` to kUnavailable with a one-line
// message naming the library, `package` (which provides it) and the reason.
void* OpenLibrary(const char* soname, const char* package, Status& status);

// The symbol `name` of `handle`, or nullptr with `status` set (kUnavailable)
// unless it already holds an error (the first failure wins).
void* FindSymbol(void* handle, const char* soname, const char* name, Status& status);

// Sets `fn` to the symbol `name` of `handle` as FindSymbol says.
template <typename Fn>
void Bind(void* handle, const char* soname, const char* name, Fn& fn, Status& status) {
  if (!status.ok()) return;
  if (void* sym = FindSymbol(handle, soname, name, status)) fn = reinterpret_cast<Fn>(sym);
}

// Opens `soname` and binds every function of `Api` with `bind_all(handle,
// soname, api, status)`; the first failure is the status.
template <typename Api, typename BindAll>
LoadedLibrary<Api> LoadLibrary(const char* soname, const char* package, BindAll bind_all) {
  LoadedLibrary<Api> l;
  if (void* h = OpenLibrary(soname, package, l.status)) bind_all(h, soname, l.api, l.status);
  return l;
}

}  // namespace loadcell

// Binds one function of an X-macro list (see LOADCELL_DEFINE_DYNAMIC_LIBRARY).
#define LOADCELL_BIND_FUNCTION_(name) ::loadcell::Bind(h, soname, #name, api.name, status);

// Defines `Status LoadFn()` (loads `soname`, from `package`, once per
// process; later calls return the first outcome; safe from any thread) and
// `const Api& GetFn()` (the table LoadFn() filled; call only after it
// returned Ok) for a table `Api` with one pointer per function FUNCTIONS(X)
// lists. Use once, at namespace loadcell scope, in the driver's .cpp.
#define LOADCELL_DEFINE_DYNAMIC_LIBRARY(Api, FUNCTIONS, soname_text, package, LoadFn, GetFn) \
  namespace {                                                                                \
  const LoadedLibrary<Api>& Loaded##Api() {                                                  \
    static const LoadedLibrary<Api> loaded = LoadLibrary<Api>(                               \
        soname_text, package, [](void* h, const char* soname, auto& api, Status& status) {   \
          FUNCTIONS(LOADCELL_BIND_FUNCTION_)                                                 \
        });                                                                                  \
    return loaded;                                                                           \
  }                                                                                          \
  }                                                                                          \
  Status LoadFn() { return Loaded##Api().status; }                                           \
  const Api& GetFn() { return Loaded##Api().api; }

#endif  // LOADCELL_OS_DYNAMIC_LIB_H_
