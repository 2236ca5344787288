#pragma once
// The parts of the mysql driver's own path (statements of a run sent as our
// own COM_STMT_EXECUTE / COM_QUERY on the socket libmariadb opened, and
// their replies read back) that tests reach without a server, and the hooks
// by which tests against a server see which path a connection took.

#include <cstdint>
#include <string>

#include "db/db_driver.h"

namespace loadcell {

// Capability flags of the client/server protocol that the connector's headers
// may not define (Connector/C 3.3 never asks for them).
inline constexpr uint64_t kMyClientDeprecateEof = 1ULL << 24;

// Why the own path cannot run the statements of a connection whose handshake
// left `client_flags` (what the client asked for, as libmariadb keeps them)
// and `server_capabilities` (what the server offered); nullptr when it can.
// A flag is in effect only when both sides have it. The own path reads the
// plain socket and parses the 4.1 protocol with EOF packets, so it needs:
//   - no TLS (`tls`: the session encrypts the socket),
//   - no compression (zlib or zstd: packets are wrapped),
//   - CLIENT_PROTOCOL_41 (OK/EOF packets carry status flags, ERR a SQLSTATE),
//   - no CLIENT_DEPRECATE_EOF (an EOF packet ends column definitions and rows).
const char* MyOwnPathObstacle(uint64_t client_flags, uint64_t server_capabilities, bool tls);

// Tests: why `conn`, a connection of the mysql driver, runs every statement
// through libmariadb; "" when its own path runs those it can.
std::string MysqlOwnPathObstacle(const DbConnection& conn);

// Tests: flags added to what every later mysql connection negotiated, as the
// own path's check sees them (the session itself is unchanged), so that a
// test can make the check fail on a real connection. 0 turns it off.
void MysqlAddNegotiatedFlagsForTesting(uint64_t flags);

}  // namespace loadcell
