// The native MySQL connector of the loadcell binary against servers played
// here on 127.0.0.1 that log it in (or not) and then misbehave. Each case
// ends with exit 1 and one line naming the bound and its option, within a
// time and a memory bound that do not grow with what the server sends (the
// child's wall time and max RSS, with room for a loaded 2-core machine).
// The same table runs against loadcell.exe under Wine (scripts/test-windows).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "testing/bounded_run.h"
#include "testing/loopback_server.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::LoopbackServer;

std::string LittleEndian(uint64_t v, int bytes) {
  std::string s;
  for (int k = 0; k < bytes; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
  return s;
}

std::string MyPacket(const std::string& payload, uint8_t seq) {
  return LittleEndian(payload.size(), 3) + static_cast<char>(seq) + payload;
}

// Protocol 10, caching_sha2_password, the 4.1 protocol with EOF packets.
std::string MyHello(const std::string& version) {
  const std::string scramble = "ABCDEFGHIJKLMNOPQRST";
  std::string p =
      std::string("\x0A") + version + '\0' + LittleEndian(7, 4) + scramble.substr(0, 8) + '\0';
  const uint32_t caps = 0xF7FF | (0x81BFU << 16);
  p += LittleEndian(caps & 0xFFFF, 2) + static_cast<char>(45) + LittleEndian(2, 2) +
       LittleEndian(caps >> 16, 2) + static_cast<char>(21) + std::string(10, '\0');
  return p + scramble.substr(8) + '\0' + "caching_sha2_password" + '\0';
}

const std::string kMyOk("\x00\x00\x00\x02\x00\x00\x00", 7);

std::string MyColumn() {
  std::string p;
  for (const std::string& f : {std::string("def"), std::string(), std::string(), std::string(),
                               std::string("x"), std::string("x")}) {
    p += static_cast<char>(f.size()) + f;
  }
  return p + '\x0c' + LittleEndian(45, 2) + LittleEndian(11, 4) + '\x08' + LittleEndian(0, 2) +
         std::string(3, '\0');
}

// A packet of the client's: its payload ("" once it is gone).
std::string ReadPacket(LoopbackServer& s, SocketHandle fd) {
  const std::string h = s.Read(fd, 4);
  if (h.size() < 4) return "";
  const auto* u = reinterpret_cast<const unsigned char*>(h.data());
  return s.Read(fd, u[0] | u[1] << 8 | u[2] << 16);
}

enum class After {
  kFullAuthentication,
  kRows,
  kRowsTrickle,
  kOutOfOrder,
  kChain,         // 0xFFFFFF-byte packets chained without end
  kClaim,         // a header claiming 0xFFFFFE bytes, then one byte per 100 ms
  kColumns,       // a result set of 4097 columns
  kMoreResults,   // OK packets that say more results follow, without end
  kFileRequests,  // LOAD DATA LOCAL requests for /etc/passwd, without end
  kLoginTrickle,  // the login's answer one byte per 100 ms
};

// A version with escape sequences (erase the screen, set the title, and
// U+009B CSI in UTF-8).
const std::string kHostileVersion =
    "8.0.36\x1b[2J\x1b]0;owned\x07\xc2\x9b"
    "31m";

// Logs the client in (or asks for full authentication), then answers the
// first statement as `after` says; COM_STMT_PREPARE gets a statement of no
// parameters and no columns first.
void ServeMy(LoopbackServer& s, SocketHandle fd, After after, std::atomic<bool>& key_asked,
             const std::string& version) {
  if (!s.Send(fd, MyPacket(MyHello(version), 0))) return;
  if (ReadPacket(s, fd).empty()) return;
  if (after == After::kLoginTrickle) {
    // A packet of 1000 bytes, one of them per 100 ms.
    if (!s.Send(fd, LittleEndian(1000, 3) + '\x02')) return;
    while (!s.stopping() && s.Send(fd, "\x01")) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return;
  }
  if (after == After::kFullAuthentication) {
    if (!s.Send(fd, MyPacket("\x01\x04", 2))) return;
    if (ReadPacket(s, fd) == "\x02") key_asked = true;
    return;
  }
  if (!s.Send(fd, MyPacket("\x01\x03", 2)) || !s.Send(fd, MyPacket(kMyOk, 3))) return;
  std::string command;
  for (;;) {
    command = ReadPacket(s, fd);
    if (command.empty()) return;
    if (command[0] != '\x16') break;
    const std::string prepared = std::string("\x00", 1) + LittleEndian(1, 4) + LittleEndian(0, 2) +
                                 LittleEndian(0, 2) + std::string(1, '\0') + LittleEndian(0, 2);
    if (!s.Send(fd, MyPacket(prepared, 1))) return;
  }
  if (after == After::kMoreResults) {
    std::string oks;  // SERVER_MORE_RESULTS_EXISTS set in each
    for (int k = 0; k < 256; ++k) {
      oks += MyPacket(std::string("\x00\x00\x00\x0A\x00\x00\x00", 7), static_cast<uint8_t>(1 + k));
    }
    while (!s.stopping() && s.Send(fd, oks)) {
    }
    return;
  }
  if (after == After::kFileRequests) {
    // Each answer must be the empty file: loadcell sends no file's bytes.
    for (uint8_t seq = 1; !s.stopping(); seq = static_cast<uint8_t>(seq + 2)) {
      if (!s.Send(fd, MyPacket("\xFB/etc/passwd", seq))) return;
      const std::string h = s.Read(fd, 4);
      if (h.size() < 4) return;
      if ((h[0] | h[1] | h[2]) != 0) key_asked = true;  // a file's bytes came back
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return;
  }
  if (after == After::kOutOfOrder) {
    s.Send(fd, MyPacket(kMyOk, 5));
    ReadPacket(s, fd);
    return;
  }
  if (after == After::kChain) {
    const std::string payload(0xFFFFFF, '\x01');
    for (uint8_t seq = 1; !s.stopping(); ++seq) {
      if (!s.Send(fd, LittleEndian(0xFFFFFF, 3) + static_cast<char>(seq)) || !s.Send(fd, payload)) {
        return;
      }
    }
    return;
  }
  if (after == After::kClaim || after == After::kColumns) {
    if (!s.Send(fd, after == After::kClaim ? LittleEndian(0xFFFFFE, 3) + '\x01'
                                           : MyPacket("\xFC\x01\x10", 1))) {
      return;
    }
    while (s.Send(fd, "\x01")) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    return;
  }
  std::string head = MyPacket("\x01", 1) + MyPacket(MyColumn(), 2) +
                     MyPacket(std::string("\xFE\x00\x00\x02\x00", 5), 3);
  if (!s.Send(fd, head)) return;
  // A row both a text and a binary result read: an empty first value, or
  // the NULL bitmap and a BIGINT.
  std::string rows;
  for (int k = 0; k < 256; ++k) {
    rows += MyPacket(std::string(10, '\0'), static_cast<uint8_t>(4 + k));
  }
  const bool trickle = after == After::kRowsTrickle;
  for (size_t at = 0; !s.stopping();) {
    const size_t n = trickle ? 1 : rows.size() - at;
    if (!s.Send(fd, std::string_view(rows).substr(at, n))) return;
    at = (at + n) % rows.size();
    if (trickle) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

// `for_memory`: a run whose max RSS the test bounds (RunLoadcellForItsMemory).
testing::ProcessResult RunAgainst(uint16_t port, const std::vector<std::string>& more = {},
                                  bool for_memory = false) {
  std::vector<std::string> args = {"oltp_point_select",
                                   "--db-driver=mysql",
                                   "--db-connector=native",
                                   "--mysql-host=127.0.0.1",
                                   "--mysql-port=" + std::to_string(port),
                                   "--mysql-password=x-secret",
                                   "--db-connect-timeout=2",
                                   "--db-read-timeout=2",
                                   "--time=1"};
  args.insert(args.end(), more.begin(), more.end());
  args.emplace_back("run");
  return for_memory ? testing::RunLoadcellForItsMemory(args, 60)
                    : testing::RunLoadcell(args, -1, 60);
}

TEST(MysqlHostileServer, EveryMisbehaviourEndsInOneLineWithinItsBounds) {
  struct Case {
    const char* name;
    After after;
    const char* message_has;
    std::string version = "8.0.36";
  };
  const Case cases[] = {
      {"caching_sha2 full authentication over plaintext", After::kFullAuthentication,
       "--mysql-get-server-public-key=on"},
      {"endless rows", After::kRows, "--db-max-reply-rows=1000000"},
      {"0xFFFFFF-byte packets chained without end", After::kChain,
       "a reply of more than 67108864 bytes (--db-max-reply-size=67108864)"},
      {"a header claiming 16 MiB, then one byte per 100 ms", After::kClaim,
       "did not send its whole reply within 2s (--db-read-timeout)"},
      {"4097 columns", After::kColumns, "a result set of 4097 columns (more than 4096"},
      // The run fails before its header, which shows the version: this row
      // shows that the failure's lines carry none of it raw.
      {"a version with escape sequences", After::kOutOfOrder, "a packet out of order",
       kHostileVersion},
      {"rows one byte per 100 ms", After::kRowsTrickle, "--db-read-timeout"},
      {"more results without end", After::kMoreResults, "more than 100000 results"},
      {"the login's answer one byte per 100 ms", After::kLoginTrickle, "--db-connect-timeout"},
      // Each request is answered with the empty file; the answers are part
      // of the statement and do not start its limit again.
      {"LOAD DATA LOCAL requests without end", After::kFileRequests,
       "did not send its whole reply within 2s (--db-read-timeout)"},
      {"a sequence id out of order", After::kOutOfOrder,
       "a packet out of order (sequence id 5, expected 1)"},
  };
  std::map<After, long> peak_kb;  // the child's max RSS
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::atomic<bool> key_asked{false};
    LoopbackServer server(
        [&](LoopbackServer& s, SocketHandle fd) { ServeMy(s, fd, c.after, key_asked, c.version); });
    const auto started = std::chrono::steady_clock::now();
    const testing::ProcessResult r = RunAgainst(server.port(), {}, /*for_memory=*/true);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    EXPECT_EQ(r.exit_code, 1) << testing::Show(r);
    EXPECT_NE(r.err.find(c.message_has), std::string::npos) << testing::Show(r);
    EXPECT_EQ(testing::CountOf(r.err, "error:"), 1u) << testing::Show(r);
    EXPECT_EQ((r.out + r.err).find("x-secret"), std::string::npos) << testing::Show(r);
    EXPECT_EQ((r.out + r.err).find('\x1b'), std::string::npos) << testing::Show(r);
    EXPECT_EQ((r.out + r.err).find("\xc2\x9b"), std::string::npos) << testing::Show(r);
    // No key asked for without the user's word, no file's bytes sent.
    EXPECT_FALSE(key_asked.load());
    EXPECT_LT(took, 20.0) << testing::Show(r);
    EXPECT_GT(r.max_rss_kb, 0);
    EXPECT_LT(r.max_rss_kb, 400 * 1024) << testing::Show(r);
    peak_kb[c.after] = r.max_rss_kb;
  }
  // The buffer grows as bytes arrive, never to what a header claims: the
  // 16 MiB claim costs no more than a reply of a few bytes, within 8 MiB.
  EXPECT_LT(peak_kb[After::kClaim], peak_kb[After::kOutOfOrder] + 8 * 1024);
}

TEST(MysqlHostileServer, AServerPublicKeyFileThatCannotBeReadIsBadUsage) {
  const testing::ProcessResult r =
      RunAgainst(1, {"--mysql-server-public-key=/nonexistent/server.pem"});
  EXPECT_EQ(r.exit_code, 2) << testing::Show(r);
  EXPECT_NE(r.err.find("--mysql-server-public-key=/nonexistent/server.pem"), std::string::npos)
      << testing::Show(r);
  EXPECT_EQ(testing::OutputLines(r.err), 1) << testing::Show(r);
}

TEST(MysqlHostileServer, AServerPublicKeyFileThatIsNotAPemKeyIsBadUsage) {
  testing::TempDir dir;
  const std::string key = dir.path() + "/server.pem";
  {
    std::ofstream out(key, std::ios::binary);
    out << "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host\n";
  }
  const testing::ProcessResult r = RunAgainst(1, {"--mysql-server-public-key=" + key});
  EXPECT_EQ(r.exit_code, 2) << testing::Show(r);
  EXPECT_NE(r.err.find("--mysql-server-public-key=" + key + ": not a PEM public key"),
            std::string::npos)
      << testing::Show(r);
  EXPECT_EQ(testing::OutputLines(r.err), 1) << testing::Show(r);
}

// A PEM file that holds no RSA public key is bad usage before any
// connection: the login is never tried with it.
TEST(MysqlHostileServer, APemFileWithoutAPublicKeyIsBadUsage) {
  testing::TempDir dir;
  const std::string key = dir.path() + "/server.pem";
  {
    std::ofstream out(key, std::ios::binary);
    out << "-----BEGIN PUBLIC KEY-----\nbm90IGEga2V5\n-----END PUBLIC KEY-----\n";
  }
  std::atomic<bool> connected{false};
  LoopbackServer server([&](LoopbackServer&, SocketHandle) { connected = true; });
  const testing::ProcessResult r = RunAgainst(server.port(), {"--mysql-server-public-key=" + key});
  EXPECT_EQ(r.exit_code, 2) << testing::Show(r);
  EXPECT_NE(r.err.find("--mysql-server-public-key=" + key + ": not an RSA public key"),
            std::string::npos)
      << testing::Show(r);
  EXPECT_EQ(testing::OutputLines(r.err), 1) << testing::Show(r);
  EXPECT_FALSE(connected.load());
}

// A server that answers what an OLTP run asks in text (--db-ps-mode=disable):
// its checks of the tables and its settings, each with one plain row.
std::vector<std::vector<std::string>> MyAnswerTo(const std::string& sql) {
  if (sql.find("table_comment") != std::string::npos) return {{"", ""}};
  if (sql.find("information_schema.columns") != std::string::npos) {
    return {{"id"}, {"k"}, {"c"}, {"pad"}};
  }
  if (sql.find("SELECT DISTINCT engine") != std::string::npos) return {{"InnoDB"}};
  if (sql.find("@@innodb_buffer_pool_size") != std::string::npos ||
      sql.find("SUM(data_length") != std::string::npos) {
    return {{"1"}};
  }
  return {};
}

std::string MyTextResult(const std::vector<std::vector<std::string>>& rows) {
  const size_t columns = rows.empty() ? 1 : rows[0].size();
  uint8_t seq = 1;
  std::string out = MyPacket(std::string(1, static_cast<char>(columns)), seq++);
  for (size_t i = 0; i < columns; ++i) out += MyPacket(MyColumn(), seq++);
  const std::string eof("\xFE\x00\x00\x02\x00", 5);
  out += MyPacket(eof, seq++);
  for (const auto& row : rows) {
    std::string p;
    for (const std::string& v : row) p += static_cast<char>(v.size()) + v;
    out += MyPacket(p, seq++);
  }
  return out + MyPacket(eof, seq);
}

// `sealed` set: the login asks for full authentication and keeps what the
// client sends for it.
void ServeMyOltpRun(LoopbackServer& s, SocketHandle fd, const std::string& version,
                    std::string* sealed = nullptr) {
  if (!s.Send(fd, MyPacket(MyHello(version), 0)) || ReadPacket(s, fd).empty()) return;
  if (sealed != nullptr) {
    if (!s.Send(fd, MyPacket("\x01\x04", 2))) return;
    *sealed = ReadPacket(s, fd);
    if (!s.Send(fd, MyPacket(kMyOk, 4))) return;
  } else if (!s.Send(fd, MyPacket("\x01\x03", 2)) || !s.Send(fd, MyPacket(kMyOk, 3))) {
    return;
  }
  for (;;) {
    const std::string command = ReadPacket(s, fd);
    if (command.empty() || command[0] == '\x01') return;  // gone, or COM_QUIT
    const std::string sql = command.substr(1);
    const bool rows =
        command[0] == '\x03' && (sql.rfind("SELECT", 0) == 0 || sql.rfind("SHOW", 0) == 0);
    if (!s.Send(fd, rows ? MyTextResult(MyAnswerTo(sql)) : MyPacket(kMyOk, 1))) return;
  }
}

// A server that logs the client in and answers its small requests (no
// rows), but takes a long one (1 MiB or more) 256 KiB per 100 ms (`taken`
// counts what it took): slowly, but fast enough that each send() moves on
// within the socket's own 1 s limit, which a limit per send() never meets.
void ServeASlowReader(LoopbackServer& s, SocketHandle fd, std::atomic<size_t>& taken) {
  if (!s.Send(fd, MyPacket(MyHello("8.0.36"), 0)) || ReadPacket(s, fd).empty()) return;
  if (!s.Send(fd, MyPacket("\x01\x03", 2)) || !s.Send(fd, MyPacket(kMyOk, 3))) return;
  for (;;) {
    const std::string h = s.Read(fd, 4);
    if (h.size() < 4) return;
    const auto* u = reinterpret_cast<const unsigned char*>(h.data());
    const size_t len = u[0] | u[1] << 8 | u[2] << 16;
    if (len >= (size_t{1} << 20)) {
      while (s.Read(fd, 256 * 1024).size() == 256 * 1024) {
        taken += 256 * 1024;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      return;
    }
    const std::string command = s.Read(fd, len);
    if (command.empty() || command[0] == '\x01') return;  // gone, or COM_QUIT
    const std::string sql = command.substr(1);
    const bool rows =
        command[0] == '\x03' && (sql.rfind("SELECT", 0) == 0 || sql.rfind("SHOW", 0) == 0);
    if (!s.Send(fd, rows ? MyTextResult({}) : MyPacket(kMyOk, 1))) return;
  }
}

// A server that takes a long request (a script's 64 MiB query) slowly: the
// request's whole send is bounded by --db-write-timeout, not each send(),
// which bytes taken now and then would extend for as long as the server
// likes (here about 25 s, then the read limit). One line, exit 1, within
// twice the limit. (LOAD DATA LOCAL's file, at most 4 MiB, goes through the
// same send; on the loopback the sockets' buffers take most of it.)
TEST(MysqlHostileServer, ALongRequestTakenSlowlyEndsAtTheWriteLimit) {
  testing::TempDir dir;
  const std::string script = dir.path() + "/long.lua";
  {
    std::ofstream out(script, std::ios::binary);
    out << "function event()\n"
           "  local con = sysbench.sql.driver():connect()\n"
           "  con:query(string.rep('x', 64 * 1024 * 1024))\n"
           "end\n";
  }
  std::atomic<size_t> taken{0};
  LoopbackServer server(
      [&](LoopbackServer& s, SocketHandle fd) { ServeASlowReader(s, fd, taken); });
  // Twice the 1 s limit at most, and room for a loaded machine; a limit per
  // send() took about 25 s.
  testing::ExpectEndsAtItsBound(
      {script, "--db-driver=mysql", "--db-connector=native", "--mysql-host=127.0.0.1",
       "--mysql-port=" + std::to_string(server.port()), "--mysql-password=x-secret",
       "--db-connect-timeout=2", "--db-read-timeout=2", "--db-write-timeout=1", "--events=1",
       "run"},
      "did not take the whole request within 1s (--db-write-timeout)", 20.0);
  EXPECT_GT(taken.load(), 0u);  // the request began, and its bytes trickled
}

// A throwaway RSA-2048 public key: the user's trusted key file.
constexpr const char* kTrustedKey =
    "-----BEGIN PUBLIC KEY-----\n"
    "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsocPhWb6QbtU4Mr+8tNS\n"
    "bqBq32YNTlK5b6V/nK0N5WAoqHK6Oab4ViY0uGzU+pKgRYhvyEamIcks/CSfpyTN\n"
    "IM01dSQ9adrs9ihGU5LtEuUVd8tCgsBIdorcdgO9nbKsXMDY49S2LW7vHnjXYrSd\n"
    "fjN2GcOp/kHb4GPfBGGFWGOPRmFRjNsAD1nox2EKtLMUV9xgheBJEWeknaYf3ldo\n"
    "KAxjnUb2HdO9jYT+fYv+aYB3Z1q4bHV8RRq/Zezqd7k+tqz2VYGfKFm+qiBlYZoc\n"
    "YICNbIoq62FLEzu74q1WKzoWLg0nf6p8yqrHoMgEqHsfWQxQ0Sn+Nth+sTfCqrbo\n"
    "FwIDAQAB\n"
    "-----END PUBLIC KEY-----\n";

TEST(MysqlHostileServer, AKeyFileTheUserTrustsSealsThePasswordAndTheRunGoesOn) {
  testing::TempDir dir;
  const std::string key = dir.path() + "/server.pem";
  {
    std::ofstream out(key, std::ios::binary);
    out << kTrustedKey;
  }
  std::vector<std::string> sealed(8);
  std::atomic<int> logins{0};
  LoopbackServer server([&](LoopbackServer& s, SocketHandle fd) {
    const int k = logins++;
    ServeMyOltpRun(s, fd, "8.0.36", k < 8 ? &sealed[k] : nullptr);
  });
  const testing::ProcessResult r =
      RunAgainst(server.port(), {"--mysql-server-public-key=" + key, "--db-ps-mode=disable",
                                 "--db-use-existing-tables=on", "--time=0.2"});
  ASSERT_EQ(r.exit_code, 0) << testing::Show(r);
  ASSERT_GE(logins.load(), 1);
  // RSA-2048 with OAEP: 256 bytes that hold the password only for the key's owner.
  EXPECT_EQ(sealed[0].size(), 256u);
  EXPECT_EQ(sealed[0].find("x-secret"), std::string::npos);
}

TEST(MysqlHostileServer, AServerVersionWithControlBytesReachesEveryReportEscaped) {
  std::atomic<bool> key_asked{false};
  LoopbackServer server(
      [&](LoopbackServer& s, SocketHandle fd) { ServeMyOltpRun(s, fd, kHostileVersion); });
  testing::TempDir dir;
  const std::string html = dir.path() + "/r.html";
  const std::vector<std::string> more = {"--db-ps-mode=disable", "--db-use-existing-tables=on",
                                         "--time=0.3", "--report-html=" + html};
  const testing::ProcessResult r = RunAgainst(server.port(), more);
  ASSERT_EQ(r.exit_code, 0) << testing::Show(r);
  EXPECT_NE(r.out.find("8.0.36\\x1b[2J\\x1b]0;owned\\x07\\xc2\\x9b31m"), std::string::npos)
      << testing::Show(r);
  const std::string page = testing::ReadFile(html);
  EXPECT_NE(page.find("8.0.36\\x1b[2J"), std::string::npos);  // the page shows it, escaped
  std::vector<std::string> json = {"--db-ps-mode=disable", "--db-use-existing-tables=on",
                                   "--time=0.3", "--format=json"};
  const testing::ProcessResult j = RunAgainst(server.port(), json);
  ASSERT_EQ(j.exit_code, 0) << testing::Show(j);
  EXPECT_NE(j.out.find("8.0.36\\\\x1b[2J"), std::string::npos) << testing::Show(j);
  for (const std::string* all : {&r.out, &r.err, &page, &j.out, &j.err}) {
    EXPECT_EQ(all->find('\x1b'), std::string::npos);
    EXPECT_EQ(all->find("\xc2\x9b"), std::string::npos);
    EXPECT_EQ(all->find('\x07'), std::string::npos);
  }
}

}  // namespace
}  // namespace loadcell
