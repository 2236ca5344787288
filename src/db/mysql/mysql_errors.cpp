// What both connectors of the mysql driver share: errors classified and
// scrubbed of the password, the failed connect in words, the endpoint of a
// connection.

#include <fmt/format.h>

#include <cstring>
#include <string>

#include "db/mysql/mysql_settings.h"

namespace loadcell::mysql_internal {
namespace {

bool IsConnectionError(int code) {
  return code == kConnError || code == kConnHostError || code == kServerGone ||
         code == kServerLost || code == kServerLostExtended || code == kServerShutdown ||
         code == kConnectionKilled || code == kClientInteractionTimeout;
}

}  // namespace

std::string Scrub(std::string s, const std::string& password) {
  for (char& c : s) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (password.size() >= 4) {  // servers never echo it; a short one would mangle words
    for (size_t p = s.find(password); p != std::string::npos; p = s.find(password, p)) {
      s.replace(p, password.size(), "***");
    }
  }
  return EscapeControlBytes(s);  // a server's words never reach a terminal raw
}

DbError Classify(int code, const char* sqlstate, const char* text, const MySettings& s) {
  DbError e;
  e.code = code;
  if (sqlstate != nullptr && std::strcmp(sqlstate, "00000") != 0) e.sqlstate = sqlstate;
  e.server_message = Scrub(text != nullptr ? text : "", s.password_in_use);
  e.message = fmt::format("mysql: {} (error {})", e.server_message, code);
  if (IsConnectionError(code)) {
    e.cls = DbErrorClass::kReconnect;
  } else if (code == kDeadlock || code == kLockWaitTimeout) {
    e.cls = DbErrorClass::kRetryable;
  } else if (s.ignore.Matches(code, e.sqlstate)) {
    e.cls = DbErrorClass::kIgnorable;
  } else {
    e.cls = DbErrorClass::kFatal;
  }
  return e;
}

Status ConnectFailure(const MySettings& s, const std::string& where, std::string_view why,
                      int code) {
  const std::string hint = code == kConnError || code == kConnHostError
                               ? " (the server may not be running, or not listening there)"
                               : "";
  return Status::Unavailable(
      fmt::format("mysql: cannot connect to {} as user {} to database {}: {} (error {}){}", where,
                  s.user, s.db, Scrub(std::string(why), s.password_in_use), code, hint));
}

DbError MyLostError(const MyRawIo& io, const MySettings& s, const std::string& where) {
  if (!io.refused().empty()) {
    return {DbErrorClass::kFatal, kMalformedPacket, "",
            fmt::format("mysql: the server at {} sent {}; the connection is closed", where,
                        io.refused())};
  }
  if (const char* which = io.timed_out(); which != nullptr) {
    const bool read = std::string_view(which) == "read";
    const double limit = read ? s.timeouts.read_s : s.timeouts.write_s;
    return {
        DbErrorClass::kFatal, kServerLost, "",
        fmt::format("mysql: the server at {} {} within {}s (--db-{}-timeout); it may be "
                    "frozen or overloaded",
                    where, read ? "did not send its whole reply" : "did not take the whole request",
                    limit, which)};
  }
  return Classify(kServerLost, "HY000", "Lost connection to server during query", s);
}

DbError MyMalformedError() {
  return {DbErrorClass::kReconnect, kMalformedPacket, "HY000",
          "mysql: malformed packet from the server"};
}

DbError MyServerErrorOf(std::string_view p, const MySettings& s) {
  MyServerError err;
  if (!MyParseErrPacket(p, err)) return MyMalformedError();
  return Classify(err.code, std::string(err.sqlstate).c_str(), std::string(err.message).c_str(), s);
}

MyEndpoint EndpointOf(const MySettings& s, int index) {
  const size_t k = static_cast<size_t>(index < 0 ? 0 : index);
  MyEndpoint e;
  e.host = s.hosts[k % s.hosts.size()];
  e.port = s.ports[(k / s.hosts.size()) % s.ports.size()];
  e.socket = s.sockets.empty() ? nullptr : s.sockets[k % s.sockets.size()].c_str();
  return e;
}

}  // namespace loadcell::mysql_internal
