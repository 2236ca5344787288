#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "testing/run_binary.h"

namespace loadcell::testing {
namespace {

using Clock = std::chrono::steady_clock;

// The environment of a child that sets `env` over this process's own:
// "NAME=VALUE" strings, built before fork (the child may only exec).
std::vector<std::string> ChildEnvironment(
    const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::string> out;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const auto& [n, v] : env) replaced = replaced || n == name;
    if (!replaced) out.push_back(entry);
  }
  for (const auto& [n, v] : env) out.push_back(std::string(n).append("=").append(v));
  return out;
}

// In the child: stdout and stderr to the pipes, into `cwd` (when not
// empty), then the program `command[0]` (looked up in PATH when it has no
// slash) with `envp` (this process's environment when null).
[[noreturn]] void ExecCommand(const std::vector<std::string>& command, int out_fd, int err_fd,
                              const std::string& cwd, char* const* envp) {
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(127);
  std::vector<std::string> copy = command;
  std::vector<char*> argv;
  argv.reserve(copy.size() + 1);
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (!copy.empty()) execvpe(argv[0], argv.data(), envp != nullptr ? envp : environ);
  _exit(127);
}

// Reads what is ready on the open pipes into their sinks; closes a pipe at
// its end (fd set to -1). Returns the number still open.
int Drain(pollfd (&fds)[2], std::string* (&sinks)[2], int open_fds) {
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
  return open_fds;
}

}  // namespace

std::string LoadcellBinary() { return LOADCELL_BINARY; }

ProcessResult RunCommand(const std::vector<std::string>& command, const ChildWatch& watch) {
  ProcessResult result;
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) return result;
  std::vector<std::string> env = ChildEnvironment(watch.env);
  std::vector<char*> envp;
  envp.reserve(env.size() + 1);
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    ExecCommand(command, out_pipe[1], err_pipe[1], watch.cwd,
                watch.env.empty() ? nullptr : envp.data());
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  const auto start = Clock::now();
  Clock::time_point marker_at{};
  Clock::time_point acted_at{};
  bool seen = false;
  bool acted = !watch.during;
  bool killed = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const int rc = poll(fds, 2, 20);
    const auto now = Clock::now();
    if (!seen && result.out.find(watch.marker) != std::string::npos) {
      seen = true;
      marker_at = now;
    }
    if (seen && !acted && now - marker_at >= std::chrono::milliseconds(watch.delay_ms)) {
      watch.during(pid);
      acted = true;
      acted_at = Clock::now();
    }
    if (!killed && now - start > std::chrono::seconds(watch.timeout_s)) {
      kill(pid, SIGKILL);
      killed = true;
    }
    if (rc > 0) open_fds = Drain(fds, sinks, open_fds);
  }
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) == pid) result.max_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  if (watch.during && acted) {
    result.seconds_after_action = std::chrono::duration<double>(Clock::now() - acted_at).count();
  }
  return result;
}

void SendInterrupt(int pid) { kill(pid, SIGINT); }

void KillChild(int pid) { kill(pid, SIGKILL); }

ProcessLock::ProcessLock(const std::string& path) {
  const int fd = open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (fd < 0) {
    ADD_FAILURE() << "cannot open the lock file " << path;
    return;
  }
  while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
  }
  handle_ = fd;
}

ProcessLock::~ProcessLock() {
  if (handle_ >= 0) close(static_cast<int>(handle_));  // the lock goes with it
}

}  // namespace loadcell::testing
