// The native PostgreSQL client of the loadcell binary against servers
// played here on 127.0.0.1 that answer the start and then misbehave. Each
// case ends with exit 1 and one line naming the bound and its option,
// within a time and a memory bound that do not grow with what the server
// sends (the child's wall time and max RSS, with room for a loaded 2-core
// machine). The same servers against a client without the bounds hang
// until the harness kills them, or grow by gigabytes.
// The same table runs against loadcell.exe under Wine (scripts/test-windows).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "testing/bounded_run.h"
#include "testing/loopback_server.h"
#include "testing/pg_messages.h"
#include "testing/pg_oltp_server.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::LoopbackServer;
using testing::PgInt32;
using testing::PgMsg;
using testing::PgStr;
using testing::ReadStartup;
using testing::ReadTyped;
using testing::ServeAnOltpRun;

struct PgHostileRun {
  const char* name;
  // After the startup message is read: what the server sends before the
  // client's first request ("" to send it at once, without a start).
  bool start_first;
  std::string before_request;  // after the start, before reading a request
  std::string unit;            // then this again and again
  size_t chunk;                // bytes per send
  int pause_ms;
  const char* message_has;
};

// PgInt32 of a message's length (itself included) for a message that is
// never sent whole.
std::string ClaimedLength(uint32_t n) { return PgInt32(n); }

void Serve(LoopbackServer& server, SocketHandle fd, const PgHostileRun& c) {
  const std::string len = server.Read(fd, 4);
  if (len.size() < 4) return;
  const auto* u = reinterpret_cast<const unsigned char*>(len.data());
  const uint32_t n = (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
  server.Read(fd, n - 4);
  if (c.start_first) {
    const std::string start = PgMsg('R', PgInt32(0)) +
                              PgMsg('S', PgStr("server_version") + PgStr("16.0\x1b[2J")) +
                              PgMsg('Z', "I");
    if (!server.Send(fd, start)) return;
    if (server.ReadSome(fd).empty()) return;  // the first request
    if (!server.Send(fd, c.before_request)) return;
  }
  std::string stream;
  while (stream.size() < c.chunk) stream += c.unit;
  for (size_t at = 0; !server.stopping();) {
    const size_t k = std::min(c.chunk, stream.size() - at);
    if (!server.Send(fd, std::string_view(stream).substr(at, k))) return;
    at = (at + k) % stream.size();
    if (c.pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(c.pause_ms));
  }
}

// An OLTP run of the binary against `server`: exit 1 with one error line
// holding `message_has`, no raw escape byte and no password printed, within
// a time and a memory bound that do not grow with what the server sends.
// `more`: options added to the run's.
void ExpectOneLineWithinBounds(const LoopbackServer& server, const std::string& message_has,
                               const std::vector<std::string>& more = {}) {
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::string> args = {"oltp_point_select",
                                   "--db-driver=pgsql",
                                   "--db-connector=native",
                                   "--pgsql-host=127.0.0.1",
                                   "--pgsql-port=" + std::to_string(server.port()),
                                   "--pgsql-password=x-secret",
                                   "--db-connect-timeout=2",
                                   "--db-read-timeout=2",
                                   "--time=1"};
  args.insert(args.end(), more.begin(), more.end());
  args.emplace_back("run");
  const testing::ProcessResult r = testing::RunLoadcellForItsMemory(args, 60);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 1) << testing::Show(r);
  EXPECT_NE(r.err.find(message_has), std::string::npos) << testing::Show(r);
  EXPECT_EQ(testing::CountOf(r.err, "error:"), 1u) << testing::Show(r);
  EXPECT_EQ((r.out + r.err).find('\x1b'), std::string::npos) << testing::Show(r);
  EXPECT_EQ((r.out + r.err).find("x-secret"), std::string::npos) << testing::Show(r);
  // 2 s limits: a few seconds more on a loaded machine, never the harness's 60.
  EXPECT_LT(took, 20.0) << testing::Show(r);
  // Bounded by the limits (64 MiB a reply), whatever the server sends.
  EXPECT_GT(r.max_rss_kb, 0);
  EXPECT_LT(r.max_rss_kb, 400 * 1024) << testing::Show(r);
}

TEST(PgsqlHostileServer, EveryMisbehaviourEndsInOneLineWithinItsBounds) {
  const std::string notice = PgMsg('N', PgStr("SNOTICE") + PgStr("Mhello") + '\0');
  const std::string row_description =
      PgMsg('T', std::string("\0\1", 2) + PgStr("a") + std::string(18, '\0'));
  const std::string data_row = PgMsg('D', std::string("\0\1", 2) + PgInt32(3) + "abc");
  const PgHostileRun cases[] = {
      {"endless NoticeResponse at the start", false, "", notice, 64 * 1024, 0,
       "--db-connect-timeout"},
      {"the start one byte per 100 ms", false, "", notice, 1, 100, "--db-connect-timeout"},
      {"endless NoticeResponse mid-query", true, "", notice, 64 * 1024, 0, "--db-read-timeout"},
      {"a reply one byte per 100 ms", true, "", notice, 1, 100, "--db-read-timeout"},
      {"endless DataRows", true, PgMsg('1', "") + row_description, data_row, 64 * 1024, 0,
       "--db-max-reply-rows=1000000"},
      {"a header claiming 1 GiB", true, "D" + ClaimedLength(1U << 30), "x", 1, 100,
       "--db-max-reply-size=67108864"},
      {"an error with control bytes", true,
       PgMsg('E', PgStr("SERROR") + PgStr("C42P01") + PgStr("Mbad\x1b[2J\x1b[Hwords") + '\0') +
           PgMsg('Z', "I"),
       notice, 1, 100, "bad\\x1b[2J\\x1b[Hwords"},
      {"a start message claiming more than 1 MiB", false, "", "R" + ClaimedLength((1U << 20) + 5),
       5, 100, "a message 'R' of 1048581 bytes at the start (more than 1048576, a fixed limit"},
  };
  for (const PgHostileRun& c : cases) {
    SCOPED_TRACE(c.name);
    LoopbackServer server([&c](LoopbackServer& s, SocketHandle fd) { Serve(s, fd, c); });
    ExpectOneLineWithinBounds(server, c.message_has);
  }
}

// The start's bounds through the binary (the same rows run under Wine):
// what a server sends before the first query.
struct PgStartRun {
  const char* name;
  std::string (*serve)(LoopbackServer&, SocketHandle);
  const char* message_has;
};

// SCRAM with an iteration count of 2^31-1 (about 21 minutes of PBKDF2).
std::string ServeScram(LoopbackServer& s, SocketHandle fd) {
  if (!ReadStartup(s, fd)) return "";
  if (!s.Send(fd, PgMsg('R', PgInt32(10) + PgStr("SCRAM-SHA-256") + '\0'))) return "";
  const std::string first = ReadTyped(s, fd);  // mechanism, length, "n,,n=...,r=NONCE"
  const size_t r = first.find("r=");
  if (r == std::string::npos) return "";
  const std::string nonce = first.substr(r + 2);
  const std::string server_first = "r=" + nonce + "srv,s=c2FsdA==,i=2147483647";
  s.Send(fd, PgMsg('R', PgInt32(11) + server_first));
  s.ReadSome(fd);
  return "";
}

// SCRAM asking for 200,000 iterations, twice the default cap; a proof that
// comes is answered with an error of the server's own ("the proof came").
std::string ServeScram200k(LoopbackServer& s, SocketHandle fd) {
  if (!ReadStartup(s, fd)) return "";
  if (!s.Send(fd, PgMsg('R', PgInt32(10) + PgStr("SCRAM-SHA-256") + '\0'))) return "";
  const std::string first = ReadTyped(s, fd);
  const size_t r = first.find("r=");
  if (r == std::string::npos) return "";
  const std::string server_first = "r=" + first.substr(r + 2) + "srv,s=c2FsdA==,i=200000";
  if (!s.Send(fd, PgMsg('R', PgInt32(11) + server_first))) return "";
  if (ReadTyped(s, fd).rfind("c=biws,r=", 0) != 0) return "";
  s.Send(fd, PgMsg('E', PgStr("SFATAL") + PgStr("C28000") + PgStr("Mthe proof came") + '\0'));
  return "";
}

// ParameterStatus messages of ever new names, without end.
std::string ServeEndlessParameters(LoopbackServer& s, SocketHandle fd) {
  if (!ReadStartup(s, fd) || !s.Send(fd, PgMsg('R', PgInt32(0)))) return "";
  for (int i = 0; !s.stopping(); ++i) {
    if (!s.Send(fd, PgMsg('S', PgStr("p" + std::to_string(i)) + PgStr("v")))) return "";
  }
  return "";
}

// A start, then CommandComplete after CommandComplete for the first query.
std::string ServeEndlessResults(LoopbackServer& s, SocketHandle fd) {
  if (!ReadStartup(s, fd)) return "";
  if (!s.Send(fd, PgMsg('R', PgInt32(0)) + PgMsg('Z', "I"))) return "";
  if (ReadTyped(s, fd).empty()) return "";
  std::string many;
  for (int i = 0; i < 1000; ++i) many += PgMsg('C', PgStr("SELECT 0"));
  while (!s.stopping() && s.Send(fd, many)) {
  }
  return "";
}

TEST(PgsqlHostileServer, TheStartsAndRepliesBoundsHoldThroughTheBinary) {
  const PgStartRun cases[] = {
      {"SCRAM asking for 2^31-1 iterations", ServeScram,
       "2147483647 PBKDF2 iterations, more than --pgsql-scram-max-iterations=100000"},
      {"ParameterStatus without end", ServeEndlessParameters,
       "more than 1000 ParameterStatus messages at the start"},
      {"CommandComplete without end", ServeEndlessResults,
       "more than 100000 results for one request"},
  };
  for (const PgStartRun& c : cases) {
    SCOPED_TRACE(c.name);
    LoopbackServer server([&c](LoopbackServer& s, SocketHandle fd) { c.serve(s, fd); });
    ExpectOneLineWithinBounds(server, c.message_has);
  }
}

// --pgsql-scram-max-iterations is the cap a user raises for a server they
// trust: above the server's count, the login goes on past SCRAM (here to
// the server's own refusal); at the default, it stops before any round.
TEST(PgsqlHostileServer, ARaisedScramCapLetsTheLoginGoOn) {
  LoopbackServer server([](LoopbackServer& s, SocketHandle fd) { ServeScram200k(s, fd); });
  ExpectOneLineWithinBounds(server, "the proof came", {"--pgsql-scram-max-iterations=250000"});
  ExpectOneLineWithinBounds(
      server, "200000 PBKDF2 iterations, more than --pgsql-scram-max-iterations=100000");
}

// An OLTP server (ServeAnOltpRun) that starts a COPY when asked, then
// takes its data 16 bytes per 100 ms (`copied` counts what it took).
void ServeASlowCopy(LoopbackServer& s, SocketHandle fd, std::atomic<size_t>& copied) {
  ServeAnOltpRun(s, fd, "16.0", {},
                 [&copied](LoopbackServer& s, SocketHandle fd, const std::string& sql) {
                   if (sql.rfind("COPY ", 0) != 0) return true;
                   if (!s.Send(fd, PgMsg('G', std::string(3, '\0'))))
                     return false;  // CopyInResponse, text
                   while (s.Read(fd, 16).size() == 16) {
                     copied += 16;
                     std::this_thread::sleep_for(std::chrono::milliseconds(100));
                   }
                   return false;
                 });
}

// A server that takes a COPY's data a few bytes at a time (on the loopback
// a send() then moves nothing on for its whole limit): the send of the
// CopyData message ends at --db-write-timeout, within twice it, in one line
// naming the option, exit 1, and the connection is closed as failed.
TEST(PgsqlHostileServer, ACopyTakenAFewBytesAtATimeEndsAtTheWriteLimit) {
  std::atomic<size_t> copied{0};
  LoopbackServer server([&](LoopbackServer& s, SocketHandle fd) { ServeASlowCopy(s, fd, copied); });
  // Twice the 1 s limit at most, and room for a loaded machine; never 60 s.
  testing::ExpectEndsAtItsBound(
      {"oltp_read_write", "--db-driver=pgsql", "--db-connector=native", "--pgsql-host=127.0.0.1",
       "--pgsql-port=" + std::to_string(server.port()), "--pgsql-password=x-secret",
       "--db-connect-timeout=2", "--db-read-timeout=2", "--db-write-timeout=1", "--tables=1",
       "--table-size=300000", "--force", "prepare"},
      "did not take the whole request within 1s (--db-write-timeout)", 20.0);
  EXPECT_GT(copied.load(), 0u);  // the COPY began, and its data trickled
}

TEST(PgsqlHostileServer, AServerVersionWithControlBytesReachesEveryReportEscaped) {
  LoopbackServer server([](LoopbackServer& s, SocketHandle fd) {
    ServeAnOltpRun(s, fd,
                   "16.0\x1b[2J\x1b[H\xc2\x9b"
                   "31mforged");
  });
  testing::TempDir dir;
  const std::string html = dir.path() + "/r.html";
  const std::vector<std::string> common = {"oltp_point_select",
                                           "--db-driver=pgsql",
                                           "--db-connector=native",
                                           "--pgsql-host=127.0.0.1",
                                           "--pgsql-port=" + std::to_string(server.port()),
                                           "--pgsql-password=x-secret",
                                           "--db-use-existing-tables=on",
                                           "--time=0.3"};
  std::vector<std::string> text = common;
  text.insert(text.end(), {"--report-html=" + html, "run"});
  const testing::ProcessResult r = testing::RunLoadcell(text, -1, 60);
  ASSERT_EQ(r.exit_code, 0) << testing::Show(r);
  EXPECT_NE(r.out.find("Server version: PostgreSQL 16.0\\x1b[2J\\x1b[H\\xc2\\x9b31mforged"),
            std::string::npos)
      << testing::Show(r);
  const std::string page = testing::ReadFile(html);
  EXPECT_NE(page.find("16.0\\x1b[2J"), std::string::npos);  // the page shows it, escaped
  std::vector<std::string> json = common;
  json.insert(json.end(), {"--format=json", "run"});
  const testing::ProcessResult j = testing::RunLoadcell(json, -1, 60);
  ASSERT_EQ(j.exit_code, 0) << testing::Show(j);
  EXPECT_NE(j.out.find("16.0\\\\x1b[2J"), std::string::npos) << testing::Show(j);
  for (const std::string* all : {&r.out, &r.err, &page, &j.out, &j.err}) {
    EXPECT_EQ(all->find('\x1b'), std::string::npos);
    EXPECT_EQ(all->find("\xc2\x9b"), std::string::npos);
  }
}

}  // namespace
}  // namespace loadcell
