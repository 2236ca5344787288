#pragma once
// Runs the loadcell binary as a child process and captures its stdout and
// stderr separately. Test helper only.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace loadcell::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by a signal
  std::string out;
  std::string err;
};

// Runs LOADCELL_BINARY with `args`. When `sigint_after_ms` >= 0, sends
// SIGINT that long after stdout first contains `sigint_marker` (so the
// signal handlers are surely installed). The child is killed after
// `timeout_s`.
inline ProcessResult RunLoadcell(const std::vector<std::string>& args, int sigint_after_ms = -1,
                                 int timeout_s = 60,
                                 const std::string& sigint_marker = "Threads started") {
  ProcessResult result;
  int out_pipe[2];
  int err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) return result;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    close(out_pipe[0]);
    close(out_pipe[1]);
    close(err_pipe[0]);
    close(err_pipe[1]);
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
  const auto start = std::chrono::steady_clock::now();
  bool sent_sigint = false;
  long marker_ms = -1;
  bool killed = false;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    int rc = poll(fds, 2, 50);
    auto elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
    if (sigint_after_ms >= 0 && marker_ms < 0 &&
        result.out.find(sigint_marker) != std::string::npos) {
      marker_ms = elapsed_ms;
    }
    if (marker_ms >= 0 && !sent_sigint && elapsed_ms >= marker_ms + sigint_after_ms) {
      kill(pid, SIGINT);
      sent_sigint = true;
    }
    if (!killed && elapsed_ms > timeout_s * 1000L) {
      kill(pid, SIGKILL);
      killed = true;
    }
    if (rc <= 0) continue;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      char buf[4096];
      ssize_t n = read(fds[i].fd, buf, sizeof(buf));
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
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.exit_code = 128 + WTERMSIG(status);
  return result;
}

}  // namespace loadcell::testing
