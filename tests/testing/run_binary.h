#pragma once
// Runs the loadcell binary as a child process and captures its stdout and
// stderr separately. Test helper only. Two implementations:
// run_binary_posix.cpp (fork, exec, poll) and run_binary_win32.cpp
// (CreateProcessW, pipes read by threads).

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "testing/temp_dir.h"

namespace loadcell::testing {

struct ProcessResult {
  // 128 + signal when killed by a signal; on Windows a child killed at the
  // timeout exits 137 too (128 + SIGKILL), so that both read alike.
  int exit_code = -1;
  std::string out;
  std::string err;
  // Seconds from the end of the `during` callback to the child's exit; -1
  // when the callback did not run.
  double seconds_after_action = -1;
  // The child's largest resident set in KiB (POSIX: wait4's ru_maxrss;
  // Windows: its peak working set); -1 where it is not known.
  long max_rss_kb = -1;
};

// Where the child runs and what to do while it runs.
struct ChildWatch {
  // `during(pid)` runs on the calling thread once stdout contains `marker`
  // (so that the child's signal handlers are surely installed) and
  // `delay_ms` more have passed; never when empty. `pid` is the process id
  // (on Windows too).
  std::function<void(int pid)> during;
  std::string marker = "Threads started";
  int delay_ms = 0;
  // The child is killed (SIGKILL; TerminateProcess) after this long.
  int timeout_s = 60;
  // The child's working folder; the caller's when empty.
  std::string cwd;
  // Variables set in the child's environment (name, value), over the
  // caller's environment, which it otherwise inherits.
  std::vector<std::pair<std::string, std::string>> env;
};

// Runs `command` (argv; command[0] is looked up in PATH when it has no
// slash; on Windows the command line is quoted as the C runtime splits it),
// watched as `watch` says.
ProcessResult RunCommand(const std::vector<std::string>& command, const ChildWatch& watch);

// SIGINT to the child `pid` (POSIX; on Windows the calling test fails: a
// Windows child gets no signal).
void SendInterrupt(int pid);

// The exit code of a child ended by KillChild: 128 + SIGKILL on POSIX, and
// the code TerminateProcess is given on Windows, so that both read alike.
inline constexpr int kKilledExitCode = 128 + 9;

// Ends the child `pid` at once, as a crash or power cut would end it: no
// handler runs, nothing is flushed (POSIX: SIGKILL; Windows:
// TerminateProcess with kKilledExitCode).
void KillChild(int pid);

// The path of the loadcell binary under test (on Windows loadcell.exe beside
// the test executable: the compiled-in path is the build machine's).
std::string LoadcellBinary();

// Runs the loadcell binary with `args`, watched as `watch` says.
ProcessResult RunLoadcell(const std::vector<std::string>& args, const ChildWatch& watch);

// Runs the loadcell binary with `args`. When `sigint_after_ms` >= 0, sends
// SIGINT (SendInterrupt) that long after stdout first contains
// `sigint_marker`. The child is killed after `timeout_s`.
ProcessResult RunLoadcell(const std::vector<std::string>& args, int sigint_after_ms = -1,
                          int timeout_s = 60, const std::string& sigint_marker = "Threads started");

// RunLoadcell(args, -1, timeout_s) for a test that bounds the child's
// memory: on Windows run again (up to 3 runs) while no working set was
// seen (max_rss_kb <= 0), since Wine reads a child's working set only while
// its Unix process lives and a child that ends between two samples leaves
// none; POSIX's wait4 always has it, so one run there.
ProcessResult RunLoadcellForItsMemory(const std::vector<std::string>& args, int timeout_s = 60);

// The process's output for a failure message.
std::string Show(const ProcessResult& r);

// While alive, holds an exclusive lock on the file `path` (made when
// missing), waiting for it: tests that ctest runs in parallel processes and
// that must not overlap (one writes hundreds of MiB to the disk, another
// judges a run by the disk's other traffic) take the same path.
class ProcessLock {
 public:
  explicit ProcessLock(const std::string& path);
  ~ProcessLock();
  ProcessLock(const ProcessLock&) = delete;
  ProcessLock& operator=(const ProcessLock&) = delete;

 private:
  intptr_t handle_ = -1;
};

// The number of lines in a process's output (its '\n' characters).
inline int OutputLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// How often `what` occurs in `text`.
inline size_t CountOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The arguments `a`, then `b`.
inline std::vector<std::string> Concat(std::vector<std::string> a,
                                       const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// `a` with every '@' replaced by `dir` (the tests write their arguments with
// '@' for the test's own folder).
inline std::string Expand(std::string a, const std::string& dir) {
  for (size_t at = a.find('@'); at != std::string::npos; at = a.find('@', at + dir.size())) {
    a.replace(at, 1, dir);
  }
  return a;
}
// Each of `args` with every '@' replaced by `dir`.
inline std::vector<std::string> Expand(std::vector<std::string> args, const std::string& dir) {
  for (std::string& a : args) a = Expand(std::move(a), dir);
  return args;
}

// `s` quoted for sh.
inline std::string ShellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out.append("'\\''");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('\'');
  return out;
}

// `loadcell fileio` over `dir` with the small file set the binary tests use
// (4 files, 4 MiB in all, 4 KiB blocks), then `extra`.
inline std::vector<std::string> FileIoCommand(const std::string& dir,
                                              const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"fileio", "--file-dir=" + dir, "--file-num=4",
                                   "--file-total-size=4M", "--file-block-size=4K"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}
// The same over the folder `dir`.
inline std::vector<std::string> FileIoCommand(const TempDir& dir,
                                              const std::vector<std::string>& extra) {
  return FileIoCommand(dir.path(), extra);
}

}  // namespace loadcell::testing
