// Kills a PostgreSQL server in the middle of an OLTP run: loadcell must try
// to reconnect, give up after --reconnect-timeout, print the report of what
// it measured and exit 1; never hang or crash.
//
// The test starts a PostgreSQL server of its own (initdb in a temporary
// folder, a free port of 127.0.0.1), so that killing it cannot disturb
// tests that run in parallel against the shared throwaway servers.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "testing/oltp_test_env.h"

namespace loadcell {
namespace {

using oltptest::Args;
using oltptest::Concat;
using oltptest::ReportNumber;
using oltptest::RunLoadcell;
using oltptest::Show;

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

// Runs a shell command; true when it exits 0.
bool Shell(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

// A private PostgreSQL server (trust authentication, user postgres).
class PrivatePostgres {
 public:
  PrivatePostgres() {
    char tmpl[] = "/tmp/loadcell-fault-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    port_ = FreePort();
    // As root the server runs as the postgres user (it refuses root).
    as_ = getuid() == 0 ? "runuser -u postgres -- " : "";
    const std::string bindir =
        "$(d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1); "
        "if [ -n \"$d\" ] && [ -x \"$d/initdb\" ]; then echo \"$d\"; "
        "else dirname \"$(command -v initdb)\"; fi)";
    bin_ = bindir;
    if (getuid() == 0 && !Shell("chown postgres " + dir_)) return;
    if (!Shell(as_ + bin_ + "/initdb -D " + dir_ + "/data -U postgres --auth=trust -E UTF8 " +
               "--locale=C >" + dir_ + "/initdb.log 2>&1")) {
      return;
    }
    started_ = Start();
  }
  ~PrivatePostgres() {
    if (!dir_.empty()) {
      Shell(as_ + bin_ + "/pg_ctl -D " + dir_ + "/data -m immediate stop >/dev/null 2>&1");
      std::filesystem::remove_all(dir_);
    }
  }

  bool Start() {
    return Shell(as_ + bin_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ + "/server.log -w -t 60 " +
                 "-o \"-c listen_addresses=127.0.0.1 -p " + std::to_string(port_) + " -k " + dir_ +
                 " -c fsync=off\" start >/dev/null 2>&1");
  }

  // Immediate shutdown: the postmaster and every backend quit at once
  // (SIGQUIT), as after a crash. True when the signal was sent.
  bool Kill() {
    std::ifstream pidfile(dir_ + "/data/postmaster.pid");
    pid_t pid = 0;
    pidfile >> pid;
    return pid > 0 && kill(pid, SIGQUIT) == 0;
  }

  bool ok() const { return started_; }
  std::string log() const { return dir_ + "/server.log"; }
  Args args() const {
    return {"--db-driver=pgsql", "--pgsql-host=127.0.0.1", "--pgsql-port=" + std::to_string(port_),
            "--pgsql-user=postgres", "--pgsql-db=postgres"};
  }

 private:
  std::string dir_;
  std::string as_;
  std::string bin_;
  int port_ = 0;
  bool started_ = false;
};

// Runs the binary; `during` runs on this thread once stdout contains
// `marker` plus `delay_ms`. Kills the child after `timeout_s`.
struct Outcome {
  oltptest::ProcessResult result;
  double seconds_after_action = -1;
};

Outcome RunAndAct(const Args& args, const std::string& marker, int delay_ms,
                  const std::function<void()>& during, int timeout_s) {
  Outcome o;
  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return o;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(err_pipe[0]);
    std::vector<char*> argv;
    std::string binary = LOADCELL_BINARY;
    argv.push_back(binary.data());
    std::vector<std::string> copy = args;
    for (std::string& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Clock::time_point marker_at{}, acted_at{};
  bool seen = false, acted = false, killed = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&o.result.out, &o.result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const int rc = poll(fds, 2, 20);
    const auto now = Clock::now();
    if (!seen && o.result.out.find(marker) != std::string::npos) {
      seen = true;
      marker_at = now;
    }
    if (seen && !acted && now - marker_at >= std::chrono::milliseconds(delay_ms)) {
      during();
      acted = true;
      acted_at = Clock::now();
    }
    if (!killed && now - start > std::chrono::seconds(timeout_s)) {
      kill(pid, SIGKILL);
      killed = true;
    }
    if (rc <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[4096];
      const ssize_t n = read(fds[i].fd, buf, sizeof(buf));
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) o.result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) o.result.exit_code = 128 + WTERMSIG(status);
  if (acted) {
    o.seconds_after_action = std::chrono::duration<double>(Clock::now() - acted_at).count();
  }
  return o;
}

TEST(OltpFault, PostgresKilledMidRun) {
  PrivatePostgres pg;
  ASSERT_TRUE(pg.ok()) << "could not start a private PostgreSQL (initdb/pg_ctl; see " << pg.log()
                       << ")";
  const Args base = Concat(
      {"oltp_read_write"},
      Concat(pg.args(), {"--tables=2", "--table-size=1000", "--range-size=50", "--threads=2"}));
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);

  // A 60 s run; the server dies after 1 s of it.
  const Outcome o = RunAndAct(
      Concat(base, {"--time=60", "--report-interval=1", "--reconnect-timeout=2", "run"}),
      "Threads started", 1000, [&] { EXPECT_TRUE(pg.Kill()); }, 50);
  const auto& r = o.result;
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  // It gave up after about the reconnect timeout: no hang.
  EXPECT_GE(o.seconds_after_action, 0);
  EXPECT_LT(o.seconds_after_action, 20) << Show(r);
  // The report of what was measured, then the reason on stderr.
  EXPECT_NE(r.out.find("SQL statistics:"), std::string::npos) << Show(r);
  EXPECT_GT(ReportNumber(r.out, "    transactions:"), 0) << Show(r);
  EXPECT_NE(r.out.find("Run failed:"), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("could not reconnect within 2s"), std::string::npos) << Show(r);

  // The server comes back: a new run works and cleanup drops the tables.
  ASSERT_TRUE(pg.Start());
  auto again = RunLoadcell(Concat(base, {"--events=20", "run"}));
  EXPECT_EQ(again.exit_code, 0) << Show(again);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

}  // namespace
}  // namespace loadcell
