// The mysql driver's connections: connecting (libmariadb), text statements,
// transactions, the checks that let our own protocol client run the
// statements of a session, and the errors of both paths.

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "db/mysql/mysql_internal.h"

namespace loadcell {
namespace mysql_internal {
namespace {

void LibraryInit() {
  static std::once_flag once;
  std::call_once(once, [] { Mariadb().mysql_server_init(0, nullptr, nullptr); });
}

// See MysqlAddNegotiatedFlagsForTesting.
std::atomic<uint64_t> added_flags_for_testing{0};

// mysql_wire.h's own names for the protocol's constants are the library's.
static_assert(kMyTypeLongLong == MYSQL_TYPE_LONGLONG && kMyTypeDouble == MYSQL_TYPE_DOUBLE &&
              kMyTypeString == MYSQL_TYPE_STRING && kMyTypeNull == MYSQL_TYPE_NULL);
static_assert(kMyClientSsl == CLIENT_SSL && kMyClientCompress == CLIENT_COMPRESS &&
              kMyClientProtocol41 == CLIENT_PROTOCOL_41 &&
              kMyClientZstdCompression == CLIENT_ZSTD_COMPRESSION &&
              kMyServerMoreResultsExist == SERVER_MORE_RESULTS_EXIST);

int InfileInit(void** ptr, const char* /*filename*/, void* userdata) {
  auto* src = static_cast<InfileSource*>(userdata);
  *ptr = src;
  return src->data == nullptr ? 1 : 0;
}

int InfileRead(void* ptr, char* buf, unsigned int len) {
  auto* src = static_cast<InfileSource*>(ptr);
  if (src->data == nullptr) return -1;
  const size_t n = std::min<size_t>(len, src->data->size() - src->sent);
  // buf takes len bytes of file data, not a string: nothing to terminate.
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result)
  std::memcpy(buf, src->data->data() + src->sent, n);
  src->sent += n;
  return static_cast<int>(n);
}

void InfileEnd(void* /*ptr*/) {}

int InfileError(void* /*ptr*/, char* msg, unsigned int len) {
  std::snprintf(msg, len, "loadcell sends no local files except its own generated rows");
  return 2000;  // CR_UNKNOWN_ERROR
}

}  // namespace

Result<std::unique_ptr<DbConnection>> OpenLibraryConnection(const MySettings* s, int index) {
  LC_RETURN_IF_ERROR(LoadMariadb());
  auto conn = std::make_unique<MyConnection>(s, index);
  LC_RETURN_IF_ERROR(conn->Open());
  return std::unique_ptr<DbConnection>(std::move(conn));
}

Status LoadLibraryConnector() { return LoadMariadb(); }

bool LibraryConnectorBuilt() { return true; }

void InstallInfileHandler(MYSQL* mysql, InfileSource* source) {
  Mariadb().mysql_set_local_infile_handler(mysql, InfileInit, InfileRead, InfileEnd, InfileError,
                                           source);
}

DbError MyConnection::LoadFromMemory(const std::string& sql, const std::string& data,
                                     DbExecResult& result, unsigned& warnings) {
  infile_ = InfileSource{&data, 0};
  DbError e = Execute(sql, result, nullptr);
  infile_ = InfileSource{};
  warnings = e.ok() && mysql_ != nullptr ? Mariadb().mysql_warning_count(mysql_) : 0;
  return e;
}

std::string MyConnection::CharacterSetName() const {
  return mysql_ != nullptr ? Mariadb().mysql_character_set_name(mysql_) : "utf8mb4";
}

Status MyConnection::Open() {
  Close();
  LibraryInit();
  mysql_ = Mariadb().mysql_init(nullptr);
  if (mysql_ == nullptr) return Status::ResourceExhausted("mysql: out of memory");
  // libmariadb takes whole seconds (0: no limit).
  const DbTimeouts& limits = settings_->timeouts;
  unsigned int connect_s = DbTimeouts::WholeSeconds(limits.connect_s);
  unsigned int read_s = DbTimeouts::WholeSeconds(limits.read_s);
  unsigned int write_s = DbTimeouts::WholeSeconds(limits.write_s);
  Mariadb().mysql_options(mysql_, MYSQL_OPT_CONNECT_TIMEOUT, &connect_s);
  Mariadb().mysql_options(mysql_, MYSQL_OPT_READ_TIMEOUT, &read_s);
  Mariadb().mysql_options(mysql_, MYSQL_OPT_WRITE_TIMEOUT, &write_s);
  // LOAD DATA LOCAL for bulk loads; the handler serves only the loader's
  // buffer and refuses any other file the server asks for.
  unsigned int local_infile = 1;
  Mariadb().mysql_options(mysql_, MYSQL_OPT_LOCAL_INFILE, &local_infile);
  InstallInfileHandler(mysql_, &infile_);
  if (settings_->ssl != "off") {
    my_bool on = 1;
    Mariadb().mysql_optionsv(mysql_, MYSQL_OPT_SSL_ENFORCE, &on);
    if (settings_->ssl == "verify_ca" || settings_->ssl == "verify_identity") {
      Mariadb().mysql_optionsv(mysql_, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &on);
    }
    if (!settings_->ssl_cipher.empty()) {
      Mariadb().mysql_optionsv(mysql_, MYSQL_OPT_SSL_CIPHER, settings_->ssl_cipher.c_str());
    }
  }
  if (settings_->compression) Mariadb().mysql_options(mysql_, MYSQL_OPT_COMPRESS, nullptr);
  // Connection `index` picks a host, port and socket round-robin.
  const auto& s = *settings_;
  const MyEndpoint to = EndpointOf(s, index_);
  const char* password = s.password_in_use.empty() ? nullptr : s.password_in_use.c_str();
  where_ = to.socket != nullptr && (to.host == "localhost" || to.host.empty())
               ? fmt::format("socket {}", to.socket)
               : fmt::format("{}:{}", to.host, to.port);
  if (Mariadb().mysql_real_connect(mysql_, to.host.c_str(), s.user.c_str(), password, s.db.c_str(),
                                   static_cast<unsigned int>(to.port), to.socket, 0) == nullptr) {
    const int code = static_cast<int>(Mariadb().mysql_errno(mysql_));
    const std::string why = Mariadb().mysql_error(mysql_);
    Close();
    return ConnectFailure(s, where_, why, code);
  }
  ++generation_;
  // Our own COM_STMT_EXECUTE needs what the handshake agreed to suit it
  // (MyOwnPathObstacle says what); otherwise libmariadb runs everything.
  raw_ok_ = false;
  raw_obstacle_ = MyOwnPathObstacle(
      mysql_->client_flag | added_flags_for_testing.load(std::memory_order_relaxed),
      mysql_->server_capabilities, Mariadb().mysql_get_ssl_cipher(mysql_) != nullptr);
  if (raw_obstacle_ == nullptr) {
    const int fd = static_cast<int>(Mariadb().mysql_get_socket(mysql_));
    const int flags = fd >= 0 ? ::fcntl(fd, F_GETFL) : -1;
    if (flags >= 0 && ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 &&
        raw_.Reset(fd, limits.read_ms(), limits.write_ms())) {
      raw_.set_max_payload(settings_->limits.max_bytes);
      raw_ok_ = true;
    } else {
      raw_obstacle_ = "the socket cannot be made blocking";
    }
  }
  return Status::Ok();
}

DbError MyConnection::Execute(std::string_view sql, DbExecResult& result, DbRows* rows) {
  result = {};
  if (mysql_ == nullptr) return Lost();
  if (Mariadb().mysql_real_query(mysql_, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
    return Error();
  }
  if (Mariadb().mysql_field_count(mysql_) == 0) {
    result.rows_affected = Mariadb().mysql_affected_rows(mysql_);
    return {};
  }
  MYSQL_RES* res = Mariadb().mysql_use_result(mysql_);
  if (res == nullptr) return Error();
  const unsigned int nf = Mariadb().mysql_num_fields(res);
  if (rows != nullptr && rows->columns.empty()) {
    MYSQL_FIELD* fields = Mariadb().mysql_fetch_fields(res);
    for (unsigned int c = 0; c < nf; ++c) rows->columns.emplace_back(fields[c].name);
  }
  while (MYSQL_ROW row = Mariadb().mysql_fetch_row(res)) {
    ++result.rows_returned;
    if (rows == nullptr) continue;
    unsigned long* lengths = Mariadb().mysql_fetch_lengths(res);
    auto& out = rows->rows.emplace_back();
    out.reserve(nf);
    for (unsigned int c = 0; c < nf; ++c) {
      if (row[c] == nullptr) {
        out.emplace_back(std::nullopt);
      } else {
        out.emplace_back(std::string(row[c], lengths[c]));
      }
    }
  }
  DbError e = Mariadb().mysql_errno(mysql_) != 0 ? Error() : DbError{};
  Mariadb().mysql_free_result(res);
  return e;
}

DbError MyConnection::Reconnect() {
  Status s = Open();
  if (!s.ok()) return {DbErrorClass::kReconnect, kServerGone, "08S01", s.message()};
  return {};
}

std::string MyConnection::ServerVersion() {
  if (mysql_ == nullptr) return "MySQL (unknown)";
  const std::string info = EscapeControlBytes(Mariadb().mysql_get_server_info(mysql_));
  return info.find("MariaDB") != std::string::npos ? "MariaDB " + info : "MySQL " + info;
}

void MyConnection::AppendQuoted(std::string& out, std::string_view s) {
  if (mysql_ == nullptr) return DbConnection::AppendQuoted(out, s);
  out += '\'';
  const size_t at = out.size();
  out.resize(at + 2 * s.size() + 1);
  const unsigned long n = Mariadb().mysql_real_escape_string(mysql_, out.data() + at, s.data(),
                                                             static_cast<unsigned long>(s.size()));
  out.resize(at + n);
  out += '\'';
}

std::string MyConnection::StatementPath() const {
  if (raw_ok_) return "loadcell's own protocol client (libmariadb opened the connection)";
  return fmt::format("libmariadb ({})", raw_obstacle_);
}

DbError MyConnection::RawLost() {
  DbError e = MyLostError(raw_, *settings_, where_);
  Close();
  return e;
}

DbError MyConnection::RawMalformed() {
  Close();
  return MyMalformedError();
}

DbError MyConnection::RawServerError(std::string_view p) {
  DbError e = MyServerErrorOf(p, *settings_);
  if (e.code == kMalformedPacket) Close();
  return e;
}

DbError MyConnection::PrepareServer(std::string_view sql, int nparams,
                                    std::unique_ptr<DbStatement>& out) {
  if (mysql_ == nullptr) return Lost();
  MYSQL_STMT* stmt = Mariadb().mysql_stmt_init(mysql_);
  if (stmt == nullptr) return Error();
  if (Mariadb().mysql_stmt_prepare(stmt, sql.data(), static_cast<unsigned long>(sql.size())) != 0) {
    DbError e =
        Classify(static_cast<int>(Mariadb().mysql_stmt_errno(stmt)),
                 Mariadb().mysql_stmt_sqlstate(stmt), Mariadb().mysql_stmt_error(stmt), *settings_);
    Mariadb().mysql_stmt_close(stmt);
    return e;
  }
  out = std::make_unique<MyStatement>(
      this, stmt, static_cast<int>(Mariadb().mysql_stmt_param_count(stmt)), generation_);
  return {};
}

DbError MyConnection::Simple(std::string_view sql) {
  DbExecResult r;
  if (!raw_ok_ || mysql_ == nullptr) return Execute(sql, r, nullptr);
  MyBuildQuery(raw_.out(), sql);  // BEGIN, COMMIT, ROLLBACK: far below 16 MB
  if (!raw_.Send()) return RawLost();
  MyCommandReply reply;
  MyReadOkReply(raw_, reply);
  return RawOutcome(reply);
}

void MyConnection::Close() {
  if (mysql_ != nullptr) Mariadb().mysql_close(mysql_);  // invalidates open statements
  mysql_ = nullptr;
  raw_ok_ = false;
  raw_obstacle_ = "the connection is closed";
}

}  // namespace mysql_internal

std::string MysqlOwnPathObstacle(const DbConnection& conn) {
  const auto* my = dynamic_cast<const mysql_internal::MyConnection*>(&conn);
  if (my == nullptr) return "not a connection of the mysql driver";
  const char* why = my->raw_obstacle();
  return why != nullptr ? why : "";
}

void MysqlAddNegotiatedFlagsForTesting(uint64_t flags) {
  mysql_internal::added_flags_for_testing.store(flags, std::memory_order_relaxed);
}

}  // namespace loadcell
