#include "db/pgsql/pg_startup.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

#include "core/base64.h"
#include "db/pgsql/pg_auth.h"
#include "db/pgsql/pg_wire.h"
#include "db/reply_deadline.h"
#include "os/crypto.h"

namespace loadcell {
namespace {

// Longer than any startup message the server sends (its errors, the
// SASL data): a longer one is a broken stream.
constexpr uint32_t kMaxStartupMessage = 1U << 20;
// PostgreSQL reports about 15 settings at the start; more than this many is
// a server sending them without end (each is kept).
constexpr size_t kMaxStartupParameters = 1000;

uint32_t GetUInt32(std::string_view b, size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
}

// A message of type `type` with `body`.
std::string Message(char type, std::string_view body) {
  std::string m(1, type);
  PgPutBigEndian(m, body.size() + 4, 4);
  m.append(body);
  return m;
}

// The socket of the start, closed unless released; every read ends by the
// start's deadline.
class StartupLink {
 public:
  StartupLink(SocketHandle s, int timeout_ms, ReplyDeadline::Clock::time_point started)
      : s_(s), timeout_ms_(timeout_ms) {
    deadline_.Reset(s, timeout_ms, timeout_ms);
    if (timeout_ms > 0) deadline_.ArmUntil(started + std::chrono::milliseconds(timeout_ms));
  }
  ~StartupLink() {
    if (s_ != kNoSocket) TcpClose(s_);
  }
  StartupLink(const StartupLink&) = delete;
  StartupLink& operator=(const StartupLink&) = delete;
  SocketHandle Release() {
    const SocketHandle s = s_;
    s_ = kNoSocket;
    return s;
  }

  Status Send(std::string_view bytes) { return TcpSendAll(s_, bytes); }
  Status SendPassword(std::string_view body) { return Send(Message('p', body)); }

  // The next message: its type and body.
  Status Next(char& type, std::string& body) {
    std::string head;
    LC_RETURN_IF_ERROR(Read(5, head));
    type = head[0];
    const uint32_t len = GetUInt32(head, 1);
    if (len < 4)
      return Status::Unavailable(fmt::format("malformed message '{}' from the server", type));
    if (len > kMaxStartupMessage) {
      return Status::Unavailable(
          fmt::format("the server sent a message '{}' of {} bytes at the start (more than {}, a "
                      "fixed limit: no message of the start is longer)",
                      type, len, kMaxStartupMessage));
    }
    return Read(len - 4, body);
  }

 private:
  // Reads `n` bytes into `out`, which grows as they arrive (never to what
  // a header claims before they do).
  Status Read(size_t n, std::string& out) {
    out.clear();
    size_t done = 0;
    while (done < n) {
      if (done == out.size()) out.resize(std::min(n, std::max(out.size() * 2, size_t{4096})));
      if (!deadline_.BeforeRecv()) return TimedOut();
      Result<size_t> got = TcpRecv(s_, out.data() + done, out.size() - done);
      if (!got.ok() && got.status().err() == ETIMEDOUT) return TimedOut();
      if (!got.ok()) return got.status();
      if (*got == 0) return Status::Unavailable("the server closed the connection");
      done += *got;
    }
    return Status::Ok();
  }
  Status TimedOut() const {
    return Status::Unavailable(
        fmt::format("the server did not finish the start within {} ms (--db-connect-timeout)",
                    timeout_ms_),
        ETIMEDOUT);
  }

  SocketHandle s_;
  int timeout_ms_;
  ReplyDeadline deadline_;
};

// An ErrorResponse's text: its primary message and SQLSTATE.
Status ServerError(std::string_view body) {
  std::string message;
  std::string state;
  size_t pos = 0;
  while (pos < body.size() && body[pos] != '\0') {
    const char field = body[pos++];
    const size_t end = body.find('\0', pos);
    if (end == std::string_view::npos) break;
    if (field == 'M') message.assign(body.substr(pos, end - pos));
    if (field == 'C') state.assign(body.substr(pos, end - pos));
    pos = end + 1;
  }
  if (message.empty()) message = "the server refused the connection";
  if (!state.empty()) message += fmt::format(" (SQLSTATE {})", state);
  return Status::Unavailable(message);
}

// The name of an authentication request this client does not answer.
std::string MethodName(uint32_t code) {
  switch (code) {
    case 2:
      return "Kerberos V5";
    case 6:
      return "SCM credentials";
    case 7:
    case 8:
      return "GSSAPI";
    case 9:
      return "SSPI";
    default:
      return fmt::format("number {}", code);
  }
}

// The SASL exchange after AuthenticationSASL (`mechanisms`: its body).
Status AuthenticateScram(StartupLink& link, std::string_view mechanisms, const PgStartupParams& p) {
  bool offered = false;
  for (size_t pos = 0; pos < mechanisms.size() && mechanisms[pos] != '\0';) {
    const size_t end = mechanisms.find('\0', pos);
    if (end == std::string_view::npos) break;
    if (mechanisms.substr(pos, end - pos) == "SCRAM-SHA-256") offered = true;
    pos = end + 1;
  }
  if (!offered) {
    return Status::Unavailable(
        "the server offers only SASL mechanisms with channel binding, which need TLS "
        "(use --db-connector=library on Linux)");
  }
  LC_ASSIGN_OR_RETURN(std::string random, crypto::RandomBytes(18));
  PgScramClient scram("", Base64Encode(random), p.max_scram_iterations);
  const std::string first = scram.ClientFirst();
  std::string initial = "SCRAM-SHA-256";
  initial += '\0';
  PgPutBigEndian(initial, first.size(), 4);
  initial += first;
  LC_RETURN_IF_ERROR(link.SendPassword(initial));
  for (;;) {
    char type = 0;
    std::string body;
    LC_RETURN_IF_ERROR(link.Next(type, body));
    if (type == 'E') return ServerError(body);
    if (type != 'R' || body.size() < 4) {
      return Status::Unavailable("SCRAM-SHA-256: unexpected message from the server");
    }
    const uint32_t code = GetUInt32(body, 0);
    const std::string_view data = std::string_view(body).substr(4);
    if (code == 11) {  // AuthenticationSASLContinue: server-first
      LC_ASSIGN_OR_RETURN(std::string final_message, scram.ClientFinal(data, p.password));
      LC_RETURN_IF_ERROR(link.SendPassword(final_message));
    } else if (code == 12) {  // AuthenticationSASLFinal: server-final
      return scram.CheckServerFinal(data);
    } else {
      return Status::Unavailable("SCRAM-SHA-256: unexpected message from the server");
    }
  }
}

// Answers one authentication request (`body` of an 'R' message other than
// AuthenticationOk).
Status Authenticate(StartupLink& link, std::string_view body, const PgStartupParams& p) {
  const uint32_t code = GetUInt32(body, 0);
  const bool needs_password = code == 3 || code == 5 || code == 10;
  if (needs_password && p.password.empty()) {
    return Status::Unavailable(
        "the server asks for a password: give --pgsql-password or PGPASSWORD");
  }
  if (code == 3) {  // cleartext
    std::string m(p.password);
    m += '\0';
    return link.SendPassword(m);
  }
  if (code == 5) {  // md5 with a 4-byte salt
    if (body.size() < 8) return Status::Unavailable("malformed md5 request from the server");
    LC_ASSIGN_OR_RETURN(std::string hash, PgMd5Response(p.user, p.password, body.substr(4, 4)));
    hash += '\0';
    return link.SendPassword(hash);
  }
  if (code == 10) return AuthenticateScram(link, body.substr(4), p);
  return Status::Unavailable(fmt::format(
      "the server asks for {} authentication, which needs libpq (--db-connector=library, "
      "Linux only); the native connection does trust, password, md5 and scram-sha-256",
      MethodName(code)));
}

}  // namespace

std::string PgSession::Parameter(std::string_view name) const {
  for (const auto& [key, value] : parameters) {
    if (key == name) return value;
  }
  return "";
}

std::string PgStartupMessage(const PgStartupParams& p) {
  std::string body;
  PgPutBigEndian(body, 196608, 4);  // protocol 3.0
  const std::pair<const char*, std::string_view> fields[] = {
      {"user", p.user}, {"database", p.db}, {"application_name", "loadcell"}};
  for (const auto& [key, value] : fields) {
    body += key;
    body += '\0';
    body.append(value.substr(0, value.find('\0')));
    body += '\0';
  }
  body += '\0';
  std::string m;
  PgPutBigEndian(m, body.size() + 4, 4);
  return m + body;
}

Result<PgSession> PgConnectNative(const PgStartupParams& p) {
  const auto started = ReplyDeadline::Clock::now();
  LC_ASSIGN_OR_RETURN(SocketHandle s, TcpConnect({p.host, p.port}, p.timeout_ms));
  StartupLink link(s, p.timeout_ms, started);
  LC_RETURN_IF_ERROR(TcpSetTimeouts(s, p.timeout_ms, p.timeout_ms));
  LC_RETURN_IF_ERROR(link.Send(PgStartupMessage(p)));
  PgSession session;
  for (;;) {
    char type = 0;
    std::string body;
    LC_RETURN_IF_ERROR(link.Next(type, body));
    switch (type) {
      case 'R':
        if (body.size() < 4) return Status::Unavailable("malformed message 'R' from the server");
        if (GetUInt32(body, 0) != 0) LC_RETURN_IF_ERROR(Authenticate(link, body, p));
        break;
      case 'E':
        return ServerError(body);
      case 'S': {  // ParameterStatus: name, value
        if (session.parameters.size() == kMaxStartupParameters) {
          return Status::Unavailable(
              fmt::format("the server sent more than {} ParameterStatus messages at the start",
                          kMaxStartupParameters));
        }
        const size_t nul = body.find('\0');
        if (nul == std::string::npos) break;
        const size_t end = body.find('\0', nul + 1);
        // Kept escaped: a value reaches reports and messages (server_version).
        session.parameters.emplace_back(
            EscapeControlBytes(body.substr(0, nul)),
            EscapeControlBytes(body.substr(
                nul + 1, end == std::string::npos ? std::string::npos : end - nul - 1)));
        break;
      }
      case 'K':  // BackendKeyData
        if (body.size() >= 8) {
          session.backend_pid = static_cast<int32_t>(GetUInt32(body, 0));
          session.cancel_key = static_cast<int32_t>(GetUInt32(body, 4));
        }
        break;
      case 'Z':  // ReadyForQuery: the start is over
        LC_RETURN_IF_ERROR(TcpSetTimeouts(s, 0, 0));
        session.socket = link.Release();
        return session;
      case 'N':  // NoticeResponse
      case 'v':  // NegotiateProtocolVersion (an option the server lacks)
        break;
      default:
        return Status::Unavailable(fmt::format("unexpected message '{}' at the start", type));
    }
  }
}

}  // namespace loadcell
