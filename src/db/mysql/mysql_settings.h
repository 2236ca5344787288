#pragma once
// What the two connectors of the mysql driver share (db/mysql only), free of
// any client library header: the settings, the error numbers and their
// classification, the connection base with the bulk load, and the two ways
// to open a connection. The driver's entry point is NewMysqlDriver
// (db/drivers.h).
//
// The connectors (--db-connector):
//   library: libmariadb connects and authenticates (TLS, Unix sockets,
//     every auth plugin); our own protocol client then runs the statements
//     of a run on its socket (mysql_internal.h, mysql_connection.cpp).
//     Linux only.
//   native: our own client does everything over TCP through os/tcp.h
//     (mysql_native.h): the handshake, mysql_native_password and
//     caching_sha2_password, the statements, LOAD DATA LOCAL. Linux and
//     Windows; no TLS, no Unix sockets.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "db/mysql/mysql_wire.h"

namespace loadcell::mysql_internal {

// Client and server error numbers (errmsg.h / mysqld_error.h).
constexpr int kLockWaitTimeout = 1205;
constexpr int kDeadlock = 1213;
constexpr int kServerShutdown = 1053;
constexpr int kConnectionKilled = 1927;          // MariaDB
constexpr int kClientInteractionTimeout = 4031;  // MySQL 8
constexpr int kConnError = 2002;
constexpr int kConnHostError = 2003;
constexpr int kServerGone = 2006;
constexpr int kServerLost = 2013;
constexpr int kMalformedPacket = 2027;
constexpr int kServerLostExtended = 2055;

struct MySettings {
  std::vector<std::string> hosts;
  std::vector<std::string> port_texts;
  std::vector<int> ports;
  std::vector<std::string> sockets;
  std::string user;
  std::string password;         // --*-password as given
  std::string password_in_use;  // that, or the environment's (after Validate)
  std::string db;
  std::string ssl;
  std::string ssl_cipher;    // --mysql-ssl-cipher (with --mysql-ssl)
  bool dry_run = false;      // --mysql-dry-run: no server, every statement succeeds
  bool compression = false;  // --mysql-compression: the protocol's compression
  bool native = false;       // --db-connector resolved: our own connector
  std::vector<std::string> ignore_errors;
  DbIgnoreList ignore;
  DbTimeouts timeouts;   // the driver's, copied by Validate
  DbReplyLimits limits;  // the same
  // caching_sha2_password's full authentication over plaintext (native
  // connector): --mysql-get-server-public-key, and the PEM key read from
  // --mysql-server-public-key by Validate.
  bool get_server_public_key = false;
  std::string server_public_key_file;
  std::string server_public_key_pem;
};

// The error of `code` (with its SQLSTATE and message; either may be null),
// classified: a lost connection, a retryable deadlock or lock wait, one of
// --mysql-ignore-errors, else fatal. The message is one line without the
// password.
DbError Classify(int code, const char* sqlstate, const char* text, const MySettings& s);

// `s` on one line (tabs and line ends as spaces), `password` (when it has 4
// characters or more) replaced by ***.
std::string Scrub(std::string s, const std::string& password);

// The failed connect of either connector, as the user reads it: where, as
// whom, to which database, the server's or the client's words and code, and
// a hint when nothing listens there. kUnavailable (exit 1).
Status ConnectFailure(const MySettings& s, const std::string& where, std::string_view why,
                      int code);

// The errors of a request on our own socket (either connector): the
// connection lost or past a --db-*-timeout (`io` says which), a packet that
// made no sense, the server's ERR packet `p`. The caller closes the
// connection after the first two.
DbError MyLostError(const MyRawIo& io, const MySettings& s, const std::string& where);
DbError MyMalformedError();
DbError MyServerErrorOf(std::string_view p, const MySettings& s);

// Connection `index`'s host and port, chosen round-robin from the lists.
struct MyEndpoint {
  std::string host;
  int port = 0;
  const char* socket = nullptr;  // nullptr: none
};
MyEndpoint EndpointOf(const MySettings& s, int index);

// What both connectors' connections share: the bulk load (LOAD DATA LOCAL
// INFILE from memory, else multi-row INSERT; mysql_bulk_load.cpp) written
// against the few calls each connector implements.
class MyConnectionBase : public DbConnection {
 public:
  explicit MyConnectionBase(const MySettings* settings) : settings_(settings) {}

  DbError Begin() override { return Simple("BEGIN"); }
  DbError Commit() override { return Simple("COMMIT"); }
  DbError Rollback() override { return Simple("ROLLBACK"); }
  // BEGIN, COMMIT, ROLLBACK: a COM_QUERY whose reply is an OK or an ERR.
  virtual DbError Simple(std::string_view sql) = 0;

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  // Runs a LOAD DATA LOCAL INFILE statement whose file is `data`; sets
  // `warnings` to the number of conditions it raised.
  virtual DbError LoadFromMemory(const std::string& sql, const std::string& data,
                                 DbExecResult& result, unsigned& warnings) = 0;
  // The connection's character set ("utf8mb4").
  virtual std::string CharacterSetName() const = 0;
  virtual bool connected() const = 0;

  // The first condition of level Warning or Error of the last statement,
  // which raised `count` conditions, as an error with its code and SQLSTATE
  // (LOAD DATA LOCAL reports row errors as warnings); ok when all are Notes.
  // The server keeps only the first max_error_count conditions: when those
  // are all Notes and more were raised, a Warning may be among the lost ones,
  // so that fails too rather than pass unseen.
  DbError FirstWarning(unsigned count);

  const MySettings& settings() const { return *settings_; }
  DbError Lost() const {
    return {DbErrorClass::kReconnect, kServerGone, "08S01", "mysql: the connection is closed"};
  }

 protected:
  const MySettings* settings_;
};

// The connection `index` of the library connector (libmariadb); on Windows
// an error: the build has no client library.
Result<std::unique_ptr<DbConnection>> OpenLibraryConnection(const MySettings* s, int index);
// Loads libmariadb (Validate of the library connector).
Status LoadLibraryConnector();
// Whether this build has the library connector (Linux: yes).
bool LibraryConnectorBuilt();
// The connection `index` of our own connector (mysql_native_connection.cpp).
Result<std::unique_ptr<DbConnection>> OpenNativeConnection(const MySettings* s, int index);

}  // namespace loadcell::mysql_internal
