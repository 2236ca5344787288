#pragma once
// Runs the loadcell binary as a child process and captures its stdout and
// stderr separately. Test helper only.

#include <functional>
#include <string>
#include <vector>

namespace loadcell::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal when killed by a signal
  std::string out;
  std::string err;
  // Seconds from the end of the `during` callback to the child's exit; -1
  // when the callback did not run.
  double seconds_after_action = -1;
};

// What to do while the child runs.
struct ChildWatch {
  // `during(pid)` runs on the calling thread once stdout contains `marker`
  // (so that the child's signal handlers are surely installed) and
  // `delay_ms` more have passed; never when empty.
  std::function<void(int pid)> during;
  std::string marker = "Threads started";
  int delay_ms = 0;
  // The child is killed (SIGKILL) after this long.
  int timeout_s = 60;
};

// Runs `command` (argv; command[0] is looked up in PATH when it has no
// slash), watched as `watch` says.
ProcessResult RunCommand(const std::vector<std::string>& command, const ChildWatch& watch);

// The path of the loadcell binary under test.
std::string LoadcellBinary();

// Runs the loadcell binary with `args`, watched as `watch` says.
ProcessResult RunLoadcell(const std::vector<std::string>& args, const ChildWatch& watch);

// Runs the loadcell binary with `args`. When `sigint_after_ms` >= 0, sends
// SIGINT that long after stdout first contains `sigint_marker`. The child
// is killed after `timeout_s`.
ProcessResult RunLoadcell(const std::vector<std::string>& args, int sigint_after_ms = -1,
                          int timeout_s = 60, const std::string& sigint_marker = "Threads started");

// The process's output for a failure message.
std::string Show(const ProcessResult& r);

// The number of lines in a process's output (its '\n' characters).
inline int OutputLines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
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

}  // namespace loadcell::testing
