#include "db/mysql_wire.h"

#include <mysql.h>

namespace loadcell {

const char* MyOwnPathObstacle(uint64_t client_flags, uint64_t server_capabilities, bool tls) {
  const uint64_t agreed = client_flags & server_capabilities;
  if (tls || (agreed & CLIENT_SSL) != 0) return "the connection uses TLS";
  if ((agreed & (CLIENT_COMPRESS | CLIENT_ZSTD_COMPRESSION)) != 0) {
    return "the connection is compressed";
  }
  if ((agreed & CLIENT_PROTOCOL_41) == 0) return "the server speaks a protocol older than 4.1";
  if ((agreed & kMyClientDeprecateEof) != 0) {
    return "the session ends results without EOF packets (CLIENT_DEPRECATE_EOF)";
  }
  return nullptr;
}

}  // namespace loadcell
