// The Windows build has no libpq: --db-connector=library is refused before
// a connection opens (ResolveDbConnector), so no session is ever made.

#include "db/pgsql/pgsql_internal.h"

namespace loadcell::pgsql_internal {

std::unique_ptr<PgLibrarySession> NewLibpqSession(PgConnection&) { return nullptr; }

Status LoadLibpq() { return Status::Unavailable("pgsql: libpq is not in the Windows build"); }

}  // namespace loadcell::pgsql_internal
