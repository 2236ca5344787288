// A client stopped (SIGSTOP, a suspended VM, a debugger) in the middle of a
// reply is paused, not talking to a slow server: the reply's deadline moves
// on by the gap, so the run goes on once the process is let go, however
// short --db-read-timeout. The runner sees such pauses the same way.

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "testing/loopback_server.h"
#include "testing/pg_messages.h"
#include "testing/pg_oltp_server.h"
#include "testing/run_binary.h"

namespace loadcell {
namespace {

using testing::LoopbackServer;

// The length of the first message of `reply`, its type byte included.
size_t FirstMessage(const std::string& reply) {
  const auto* u = reinterpret_cast<const unsigned char*>(reply.data()) + 1;
  return 1 + ((size_t{u[0]} << 24) | (size_t{u[1]} << 16) | (size_t{u[2]} << 8) | u[3]);
}

TEST(PausedClient, AStopInTheMiddleOfAReplyIsNotTheServersDelay) {
  std::atomic<int> pid{0};
  std::atomic<int> stops{0};
  std::atomic<bool> first{true};
  LoopbackServer server([&](LoopbackServer& s, SocketHandle fd) {
    testing::ServeAnOltpRun(s, fd, "16.0",
                            [&](LoopbackServer& srv, SocketHandle f, const std::string& reply) {
                              if (!first.exchange(false) || reply[0] != 'T')
                                return srv.Send(f, reply);
                              // The first query's reply in three parts; the client is stopped for
                              // 3 s after the first, while the second is sent.
                              const size_t one = FirstMessage(reply);
                              const size_t two = one + FirstMessage(reply.substr(one));
                              if (!srv.Send(f, reply.substr(0, one))) return false;
                              std::this_thread::sleep_for(std::chrono::milliseconds(150));
                              for (int i = 0; i < 100 && pid.load() == 0; ++i) {
                                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                              }
                              if (pid.load() > 0 && ::kill(pid.load(), SIGSTOP) == 0) ++stops;
                              std::this_thread::sleep_for(std::chrono::milliseconds(200));
                              const bool sent = srv.Send(f, reply.substr(one, two - one));
                              std::this_thread::sleep_for(std::chrono::milliseconds(2800));
                              if (pid.load() > 0) ::kill(pid.load(), SIGCONT);
                              std::this_thread::sleep_for(std::chrono::milliseconds(100));
                              return sent && srv.Send(f, reply.substr(two));
                            });
  });
  testing::ChildWatch watch;
  watch.marker = "";  // at once: the pid is all the server needs
  watch.during = [&](int child) { pid = child; };
  const testing::ProcessResult r = testing::RunLoadcell(
      {"oltp_point_select", "--db-driver=pgsql", "--db-connector=native", "--pgsql-host=127.0.0.1",
       "--pgsql-port=" + std::to_string(server.port()), "--pgsql-password=x",
       "--db-use-existing-tables=on", "--db-read-timeout=1", "--db-connect-timeout=2", "--time=0.3",
       "run"},
      watch);
  EXPECT_EQ(stops.load(), 1);
  EXPECT_EQ(r.exit_code, 0) << testing::Show(r);
  EXPECT_EQ(r.err.find("--db-read-timeout"), std::string::npos) << testing::Show(r);
  EXPECT_NE(r.out.find("General statistics"), std::string::npos) << testing::Show(r);
}

}  // namespace
}  // namespace loadcell
