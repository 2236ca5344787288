#pragma once
// What the files of the pgsql driver share (db/pgsql only): its settings,
// connection and prepared statement. The driver's entry point is
// NewPgsqlDriver (db/drivers.h).
//
// The pgsql driver opens a connection in one of two ways (--db-connector):
// libpq connects and authenticates (kLibrary: TLS, Unix sockets, GSSAPI,
// service and password files; Linux only), or loadcell's own client does
// (kNative: TCP, trust/password/md5/SCRAM-SHA-256, no TLS; pg_startup.h).
// Either way the statements of a run (prepared statements with text
// parameters, whose types the server infers, BEGIN/COMMIT, text SQL) and
// COPY then go over the socket through PgWire, which needs fewer system
// calls and no allocation per statement (the lean path). Connections
// encrypted by libpq (SSL, GSSAPI) keep libpq for everything
// (PgLibrarySession).
//
// pgsql_connection.cpp: opening (either way), text statements,
//   transactions, the lean path's exchanges (db/pgsql/pg_wire.h), errors.
// pgsql_statement.cpp: prepared statements.
// pgsql_bulk_load.cpp: COPY FROM STDIN, binary where the columns allow.
// pgsql_driver.cpp: the driver and its options.
// pgsql_libpq_posix.cpp: PgLibrarySession on libpq (loaded with dlopen;
//   pq_api_posix.cpp); the Windows build has no libpq
//   (pgsql_libpq_win32.cpp).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "db/pgsql/pg_wire.h"
#include "os/tcp.h"

namespace loadcell::pgsql_internal {

struct PgSettings {
  std::string host;
  int64_t port = 5432;
  std::string user;
  std::string password;         // --*-password as given
  std::string password_in_use;  // that, or the environment's (after Validate)
  std::string db;
  std::string sslmode;
  std::vector<std::string> ignore_errors;
  DbIgnoreList ignore;
  DbTimeouts timeouts;   // the driver's, copied by Validate
  DbReplyLimits limits;  // the same
  DbConnector connector = DbConnector::kLibrary;
  // --pgsql-scram-max-iterations: the most PBKDF2 rounds the native
  // connection computes for SCRAM-SHA-256.
  int64_t max_scram_iterations = 100'000;
};

class PgConnection;

// What goes through libpq on a --db-connector=library connection: the
// connect, and on an encrypted one every request (each wait bounded by
// --db-read-timeout and --db-write-timeout; libpq's own PQexec and
// PQgetResult wait without a limit, so the connection is in libpq's
// non-blocking mode). After a timeout the session closes itself (a frozen
// server cannot take a goodbye either) and returns TimedOut's error.
class PgLibrarySession {
 public:
  virtual ~PgLibrarySession() = default;
  // Connects; the Status names host, port, user and db.
  virtual Status Connect(const PgSettings& s) = 0;
  virtual bool open() const = 0;
  virtual SocketHandle Socket() const = 0;
  virtual bool Encrypted() const = 0;  // SSL or GSSAPI: requests stay with libpq
  virtual std::string Parameter(const char* name) const = 0;
  // The socket blocks (PgWire's exchanges) or not (libpq's own requests).
  virtual void SetBlocking(bool on) = 0;
  virtual bool Idle() const = 0;  // no transaction open
  virtual DbError Query(std::string_view sql, DbExecResult& result, DbRows* rows) = 0;
  virtual DbError Prepare(const std::string& name, const std::string& sql, int nparams) = 0;
  virtual DbError ExecutePrepared(const std::string& name, int n, const char* const* values,
                                  const int* lengths, DbExecResult& result, DbRows* rows) = 0;
  // COPY ... FROM STDIN: its start, data and end (with its outcome).
  virtual DbError StartCopy(const std::string& sql) = 0;
  virtual DbError PutCopy(const char* data, int size) = 0;
  virtual DbError EndCopy(const char* error_or_null) = 0;
  virtual void Finish() = 0;  // closes
};

// libpq's session for `owner` (its errors classified by it); null in the
// Windows build, which has no libpq (ResolveDbConnector refuses library).
std::unique_ptr<PgLibrarySession> NewLibpqSession(PgConnection& owner);
// Loads libpq (db/pgsql/pq_api.h): kUnavailable naming the package when it
// is missing, and in the Windows build.
Status LoadLibpq();

class PgStatement final : public DbStatement {
 public:
  PgStatement(PgConnection* conn, std::string name, int nparams, uint64_t generation)
      : conn_(conn),
        name_(std::move(name)),
        generation_(generation),
        params_(static_cast<size_t>(nparams)),
        values_(static_cast<size_t>(nparams), nullptr),
        lengths_(static_cast<size_t>(nparams), 0) {}

  void BindInt(int index, int64_t v) override;
  void BindDouble(int index, double v) override;
  void BindString(int index, std::string_view v) override;
  void BindNull(int index) override;

  using DbStatement::Execute;
  DbError Execute(DbExecResult& result, DbRows* rows) override;

 private:
  struct Param {
    char num[32];
    std::string text;
  };
  Param* At(int index) {
    if (index < 0 || static_cast<size_t>(index) >= params_.size()) return nullptr;
    return &params_[static_cast<size_t>(index)];
  }

  PgConnection* conn_;
  std::string name_;
  uint64_t generation_;
  std::vector<Param> params_;
  std::vector<const char*> values_;
  std::vector<int> lengths_;
};

class PgConnection final : public DbConnection {
 public:
  explicit PgConnection(const PgSettings* settings) : settings_(settings) {}
  ~PgConnection() override { Close(); }

  // Connect failures are returned as a Status naming host, port, user and db.
  Status Open();

  DbError Execute(std::string_view sql, DbExecResult& result, DbRows* rows) override;

  // On the lean path BEGIN waits for the next request and travels with it
  // (one round trip less per transaction); its outcome is reported there.
  DbError Begin() override;
  DbError Commit() override { return Simple("COMMIT"); }
  DbError Rollback() override;

  DbError Reconnect() override;

  std::string ServerVersion() override;

  DbError BeginBulkInsert(std::string_view table, const std::vector<std::string>& columns,
                          std::unique_ptr<DbBulkInsert>& out) override;

  // An error with the server's SQLSTATE (may be empty) and primary message;
  // `broken`: the connection is gone.
  DbError Classify(std::string_view sqlstate, std::string_view primary, bool broken);
  // Fatal: the server did not answer ("read") or take data ("write") within
  // its --db-*-timeout.
  DbError TimedOut(const char* which) const;

  bool open() const { return native_ != kNoSocket || (lib_ != nullptr && lib_->open()); }
  uint64_t generation() const { return generation_; }
  DbError Lost() {
    return {DbErrorClass::kReconnect, 0, "08003", "pgsql: the connection is closed"};
  }

  // True when statements go through wire() (see the top of this file).
  bool lean() const { return lean_; }

  std::string StatementPath() const override;
  bool broken() const { return broken_; }
  PgWire& wire() { return wire_; }
  // REQUIRES: !lean() and open().
  PgLibrarySession& library() { return *lib_; }

  // Before the requests of a lean exchange: the socket blocks (one recv()
  // waits for the reply) and a deferred BEGIN goes first. Returns the
  // number of ReadyForQuery messages the BEGIN adds.
  int StartRequest() {
    if (!blocking_) {
      lib_->SetBlocking(true);
      blocking_ = true;
    }
    if (!pending_begin_) return 0;
    pending_begin_ = false;
    wire_.Query("BEGIN");
    return 1;
  }

  // Sends what StartRequest and the caller appended and reads the replies.
  DbError Finish(int ready, DbExecResult& result, DbRows* rows) {
    wire_.Exchange(ready, reply_, rows);
    return Outcome(result);
  }

  // COPY ... FROM STDIN through the lean path or libpq: its start, a chunk
  // of data, its end (`error_or_null`: CopyFail's reason) and outcome.
  DbError StartCopy(const std::string& sql);
  DbError PutCopy(const char* data, size_t size);
  DbError EndCopy(const char* error_or_null);

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override;

 private:
  Status OpenNative();
  Status OpenLibrary();
  // The connect failure of either way, naming the server.
  Status CannotConnect(std::string_view why) const;
  // The outcome of the exchange just read into reply_.
  DbError Outcome(DbExecResult& result);
  DbError Simple(const char* sql);
  void Close();

  const PgSettings* settings_;
  std::unique_ptr<PgLibrarySession> lib_;  // --db-connector=library
  SocketHandle native_ = kNoSocket;        // --db-connector=native: the socket, owned
  std::string server_version_;
  uint64_t generation_ = 0;
  uint64_t statements_ = 0;
  // The lean path (PgWire): its state is what libpq would otherwise track.
  bool lean_ = false;
  bool blocking_ = false;       // the socket blocks (lean exchanges)
  bool broken_ = false;         // a lean exchange lost the connection
  bool pending_begin_ = false;  // BEGIN deferred to the next request
  char txn_status_ = 'I';       // of the last ReadyForQuery: I, T or E
  PgWire wire_;
  PgReply reply_;  // reused by every exchange
};

// Collapses a (libpq or server) message into one line without severity
// prefixes; removes `password` should a server ever echo it.
std::string OneLine(std::string_view text, const std::string& password);

}  // namespace loadcell::pgsql_internal
