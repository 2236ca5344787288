// Loading a database client library on first use with dlopen instead of
// linking it, so that runs that use no such driver (cpu, memory, fileio,
// sqlite...) do not map it and its dependencies (TLS, Kerberos, LDAP...),
// which would add megabytes of resident memory to every run. The real headers
// still provide the types; each driver keeps one table of function pointers,
// one per client function it calls (pgsql/pq_api.h, mysql/mariadb_api.h).

#ifndef LOADCELL_DB_DYNAMIC_LIB_H_
#define LOADCELL_DB_DYNAMIC_LIB_H_

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

}  // namespace loadcell

#endif  // LOADCELL_DB_DYNAMIC_LIB_H_
