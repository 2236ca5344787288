#pragma once
// What the files of the pgsql driver share (db/pgsql only): its settings,
// connection and prepared statement. The driver's entry point is
// NewPgsqlDriver (db/drivers.h).
//
// The pgsql driver: libpq connects and authenticates and loads tables with
// COPY; the statements of a run (prepared statements with text parameters,
// whose types the server infers, BEGIN/COMMIT, text SQL) then go over the same
// socket through PgWire, which needs fewer system calls and no allocation per
// statement (the lean path). Connections encrypted by libpq (SSL, GSSAPI)
// keep libpq for everything.
//
// pgsql_connection.cpp: connecting (libpq), text statements, transactions,
//   the lean path's exchanges (db/pgsql/pg_wire.h), errors.
// pgsql_statement.cpp: prepared statements.
// pgsql_bulk_load.cpp: COPY FROM STDIN, binary where the columns allow.
// pgsql_driver.cpp: the driver and its options.

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "db/pgsql/pg_wire.h"
#include "db/pgsql/pq_api.h"

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
  DbTimeouts timeouts;  // the driver's, copied by Validate
};

class PgConnection;

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

  // The result of a command: rows counted (and kept when asked), errors classified.
  // Takes ownership of `res`.
  DbError Consume(PGresult* res, DbExecResult& result, DbRows* rows);

  // Classifies a failed result (or a missing one: the connection broke).
  DbError ErrorFrom(const PGresult* res);

  // An error with the server's SQLSTATE (may be empty) and primary message;
  // `broken`: the connection is gone.
  DbError Classify(std::string_view sqlstate, std::string_view primary, bool broken);
  // Fatal: the server did not answer ("read") or take data ("write") within
  // its --db-*-timeout.
  DbError TimedOut(const char* which) const;

  PGconn* conn() const { return conn_; }
  uint64_t generation() const { return generation_; }
  DbError Lost() {
    return {DbErrorClass::kReconnect, 0, "08003", "pgsql: the connection is closed"};
  }

  // True when statements go through wire() (see the top of this file).
  bool lean() const { return lean_; }

  std::string StatementPath() const override;
  bool broken() const { return broken_; }
  PgWire& wire() { return wire_; }

  // Before the requests of a lean exchange: the socket blocks (one recv()
  // waits for the reply) and a deferred BEGIN goes first. Returns the
  // number of ReadyForQuery messages the BEGIN adds.
  int StartRequest() {
    if (!blocking_) SetBlocking(true);
    if (!pending_begin_) return 0;
    pending_begin_ = false;
    wire_.Query("BEGIN");
    return 1;
  }

  // Sends what StartRequest and the caller appended and reads the replies.
  DbError Finish(int ready, DbExecResult& result, DbRows* rows) {
    wire_.Exchange(ready, reply_, rows);
    if (reply_.broken) {
      broken_ = true;
      result = {};
      if (reply_.timed_out != nullptr) return TimedOut(reply_.timed_out);
      return Classify(reply_.sqlstate, reply_.error ? reply_.message : reply_.io_error, true);
    }
    txn_status_ = reply_.txn_status;
    // A COPY we refused ends in the server's 57014 (our CopyFail): that is
    // not the error to report, nor one a --pgsql-ignore-errors list may hide.
    if (reply_.copy_refused) {
      result = {};
      return {DbErrorClass::kFatal, 0, "", "pgsql: COPY is only available through bulk insert"};
    }
    if (reply_.error) {
      result = {};
      return Classify(reply_.sqlstate, reply_.message, false);
    }
    result.rows_returned = reply_.rows_returned;
    result.rows_affected = reply_.rows_affected;
    return {};
  }

  // Before libpq uses the socket: non-blocking again, a deferred BEGIN sent.
  DbError ToLibpq();

  // libpq's requests, each wait bounded by --db-read-timeout and
  // --db-write-timeout (libpq's own PQexec and PQgetResult wait without a
  // limit; the connection is in libpq's non-blocking mode). After a timeout
  // the connection is closed (a frozen server cannot take a goodbye either)
  // and TimedOut's error returned. pgsql_libpq.cpp.
  //
  // Sends what libpq queued and waits until the reply is in.
  DbError AwaitLibpq();
  // The reply to the request just sent: the first failed result, else the
  // last one, else a COPY's start at once; null with `error` set on a
  // timeout or a lost connection (then null and ok when there is none).
  PGresult* LibpqResult(DbError& error);
  // The reply to the request just sent (`sent`: PQsend*'s outcome), consumed.
  DbError ConsumeLibpq(int sent, DbExecResult& result, DbRows* rows);
  // Queues COPY data (or the end, `end`) once libpq takes it, waiting for
  // the socket within --db-write-timeout.
  DbError PutCopy(const char* data, int size);
  DbError PutCopyEnd(const char* error_or_null);

 protected:
  DbError PrepareServer(std::string_view sql, int nparams,
                        std::unique_ptr<DbStatement>& out) override;

 private:
  static uint64_t CmdTuples(PGresult* res);

  static void KeepRows(PGresult* res, int n, DbRows& rows);

  DbError Simple(const char* sql);

  void SetBlocking(bool on);

  void Close();
  // Waits for `events` on libpq's socket within `timeout_ms` (0: none);
  // `which` ("read" or "write") names the timeout in the error.
  DbError WaitLibpqSocket(short events, int timeout_ms, const char* which);

  const PgSettings* settings_;
  PGconn* conn_ = nullptr;
  uint64_t generation_ = 0;
  uint64_t statements_ = 0;
  std::string sql_;  // NUL-terminated copy for PQsendQuery, reused
  // The lean path (PgWire): its state is what libpq would otherwise track.
  bool lean_ = false;
  bool blocking_ = false;       // the socket blocks (lean exchanges)
  bool broken_ = false;         // a lean exchange lost the connection
  bool pending_begin_ = false;  // BEGIN deferred to the next request
  char txn_status_ = 'I';       // of the last ReadyForQuery: I, T or E
  PgWire wire_;
  PgReply reply_;  // reused by every exchange
};

}  // namespace loadcell::pgsql_internal
