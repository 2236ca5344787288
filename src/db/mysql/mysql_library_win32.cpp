// The Windows build has no MySQL client library: every connection of the
// mysql driver is the native connector's (--db-connector=auto or native).

#include "db/mysql/mysql_settings.h"

namespace loadcell::mysql_internal {

bool LibraryConnectorBuilt() { return false; }

Status LoadLibraryConnector() {
  return Status::InvalidArgument(
      "--db-connector=library: the Windows build has no MySQL client library");
}

Result<std::unique_ptr<DbConnection>> OpenLibraryConnection(const MySettings* /*s*/,
                                                            int /*index*/) {
  return LoadLibraryConnector();
}

}  // namespace loadcell::mysql_internal
