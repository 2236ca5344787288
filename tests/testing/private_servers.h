#pragma once
// Database servers of a test's own, for what must not touch the shared
// throwaway servers of scripts/test-servers: a server killed or frozen
// (oltp_fault_test.cpp), or started with settings of its own, such as a
// buffer pool smaller than a table set (oltp_verdict_test.cpp). initdb or
// mariadb-install-db in a temporary folder under /tmp, a free port of
// 127.0.0.1 or a Unix socket. POSIX only. Test helper only.

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "testing/oltp_test_env.h"
#include "testing/run_binary.h"
#include "testing/server_env.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

// Runs a shell command; true when it exits 0.
inline bool ShellSucceeds(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

// A private PostgreSQL server (trust authentication, user postgres), with
// `settings` added to its command line ("-c shared_buffers=128kB").
class PrivatePostgres {
 public:
  explicit PrivatePostgres(std::string settings = "") : settings_(std::move(settings)) {
    dir_ = tmp_.path();
    if (dir_.empty()) return;
    port_ = FreePort();
    // As root the server runs as the postgres user (it refuses root).
    as_ = getuid() == 0 ? "runuser -u postgres -- " : "";
    const std::string bindir =
        "$(d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1); "
        "if [ -n \"$d\" ] && [ -x \"$d/initdb\" ]; then echo \"$d\"; "
        "else dirname \"$(command -v initdb)\"; fi)";
    bin_ = bindir;
    if (getuid() == 0 && !ShellSucceeds("chown postgres " + dir_)) return;
    if (!ShellSucceeds(as_ + bin_ + "/initdb -D " + dir_ +
                       "/data -U postgres --auth=trust -E UTF8 --no-sync " + "--locale=C >" + dir_ +
                       "/initdb.log 2>&1")) {
      return;
    }
    started_ = Start();
  }
  ~PrivatePostgres() {
    if (!dir_.empty()) {
      ShellSucceeds(as_ + bin_ + "/pg_ctl -D " + dir_ + "/data -m immediate stop >/dev/null 2>&1");
    }
  }

  bool Start() {
    return ShellSucceeds(as_ + bin_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ +
                         "/server.log -w -t 60 " + "-o \"-c listen_addresses=127.0.0.1 -p " +
                         std::to_string(port_) + " -k " + dir_ + " -c fsync=off " + settings_ +
                         "\" start >/dev/null 2>&1");
  }

  // Immediate shutdown: the postmaster and every backend quit at once
  // (SIGQUIT), as after a crash. True when the signal was sent.
  bool Kill() {
    std::ifstream pidfile(dir_ + "/data/postmaster.pid");
    pid_t pid = 0;
    pidfile >> pid;
    return pid > 0 && kill(pid, SIGQUIT) == 0;
  }

  // Sends `sig` to the postmaster and each of its children (the backends,
  // the background processes); true when every signal was sent.
  bool SignalAll(int sig) {
    std::ifstream pidfile(dir_ + "/data/postmaster.pid");
    pid_t main = 0;
    pidfile >> main;
    if (main <= 0 || kill(main, sig) != 0) return false;
    bool all = true;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      std::ifstream stat(entry.path() / "stat");
      std::string line;
      if (!std::getline(stat, line)) continue;
      // pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
      const size_t close = line.rfind(')');
      if (close == std::string::npos) continue;
      char state = 0;
      pid_t ppid = 0;
      if (std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) != 2) continue;
      if (ppid == main) all = kill(std::stoi(entry.path().filename()), sig) == 0 && all;
    }
    return all;
  }

  bool ok() const { return started_; }
  std::string log() const { return dir_ + "/server.log"; }
  std::string Logs() const { return ReadFile(dir_ + "/initdb.log") + ReadFile(log()); }
  Args args() const {
    return {"--db-driver=pgsql", "--pgsql-host=127.0.0.1", "--pgsql-port=" + std::to_string(port_),
            "--pgsql-user=postgres", "--pgsql-db=postgres"};
  }

 private:
  // Under /tmp whatever $TMPDIR says: the postgres user must reach it, and
  // the server's socket path must stay short. Removed after the destructor
  // stopped the server.
  TempDir tmp_{"/tmp"};
  std::string dir_;  // tmp_.path()
  std::string as_;
  std::string bin_;
  std::string settings_;
  int port_ = 0;
  bool started_ = false;
};

// A private MariaDB server (root without a password, over its Unix socket;
// with `tcp` also on a free port of 127.0.0.1, for the native connector),
// started as scripts/test-servers starts the shared one, with `settings`
// after its own options ("--innodb-buffer-pool-size=8M").
class PrivateMariadb {
 public:
  explicit PrivateMariadb(bool tcp = false, const std::string& settings = "") {
    dir_ = tmp_.path();
    if (dir_.empty()) return;
    const std::string user = getuid() == 0 ? " --user=mysql" : "";
    // A temporary folder of its own: a MariaDB server that starts removes
    // every #sql* file in its tmpdir, so two servers starting at once in
    // the same /tmp (tests run in parallel) delete each other's temporary
    // tables and mariadb-install-db fails.
    const std::string tmpdir = " --tmpdir=" + dir_ + "/tmp";
    if (!ShellSucceeds("mkdir " + dir_ + "/tmp")) return;
    if (getuid() == 0 && !ShellSucceeds("chown mysql " + dir_ + " " + dir_ + "/tmp")) return;
    if (!ShellSucceeds("mariadb-install-db --no-defaults --datadir=" + dir_ +
                       "/data --auth-root-authentication-method=normal --skip-test-db" + tmpdir +
                       user + " >" + dir_ + "/install.log 2>&1")) {
      return;
    }
    // No TCP port unless asked for: the socket is enough, and nothing else
    // can reach it.
    if (tcp) port_ = FreePort();
    const std::string network =
        tcp ? " --bind-address=127.0.0.1 --port=" + std::to_string(port_) : " --skip-networking";
    if (!ShellSucceeds(
            "setsid mariadbd --no-defaults --datadir=" + dir_ + "/data --socket=" + socket() +
            network + " --pid-file=" + dir_ + "/mysqld.pid --log-error=" + log() +
            " --skip-log-bin --innodb-flush-log-at-trx-commit=0 --innodb-buffer-pool-size=64M " +
            settings + tmpdir + user + " </dev/null >/dev/null 2>&1 &")) {
      return;
    }
    for (int i = 0; i < 300 && !started_; ++i) {
      started_ = ShellSucceeds("mariadb-admin --no-defaults --socket=" + socket() +
                               " -u root ping >/dev/null 2>&1");
      if (!started_) usleep(200 * 1000);
    }
    started_ = started_ && ShellSucceeds("mariadb --no-defaults --socket=" + socket() +
                                         " -u root -e 'CREATE DATABASE sbtest' >/dev/null 2>&1");
  }
  ~PrivateMariadb() {
    const pid_t pid = Pid();
    if (pid <= 0) return;
    kill(pid, SIGCONT);
    kill(pid, SIGKILL);
    for (int i = 0; i < 100 && kill(pid, 0) == 0; ++i) usleep(50 * 1000);
  }

  // The server is one process.
  bool Signal(int sig) {
    const pid_t pid = Pid();
    return pid > 0 && kill(pid, sig) == 0;
  }
  bool ok() const { return started_; }
  std::string log() const { return dir_ + "/error.log"; }
  std::string Logs() const { return ReadFile(dir_ + "/install.log") + ReadFile(log()); }
  std::string socket() const { return dir_ + "/mysqld.sock"; }
  Args args() const {
    if (port_ != 0) {
      return {"--db-driver=mysql",      "--db-connector=native",
              "--mysql-host=127.0.0.1", "--mysql-port=" + std::to_string(port_),
              "--mysql-user=root",      "--mysql-db=sbtest"};
    }
    return {"--db-driver=mysql", "--mysql-host=localhost", "--mysql-socket=" + socket(),
            "--mysql-user=root", "--mysql-db=sbtest"};
  }
  int port() const { return port_; }

 private:
  pid_t Pid() const {
    std::ifstream pidfile(dir_ + "/mysqld.pid");
    pid_t pid = 0;
    pidfile >> pid;
    return pid;
  }

  TempDir tmp_{"/tmp"};  // the socket path must stay short
  std::string dir_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace loadcell::testing
