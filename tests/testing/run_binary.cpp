#include "testing/run_binary.h"

#include <string>
#include <vector>

namespace loadcell::testing {

ProcessResult RunLoadcell(const std::vector<std::string>& args, const ChildWatch& watch) {
  std::vector<std::string> command = {LoadcellBinary()};
  command.insert(command.end(), args.begin(), args.end());
  return RunCommand(command, watch);
}

ProcessResult RunLoadcell(const std::vector<std::string>& args, int sigint_after_ms, int timeout_s,
                          const std::string& sigint_marker) {
  ChildWatch watch;
  watch.timeout_s = timeout_s;
  if (sigint_after_ms >= 0) {
    watch.during = SendInterrupt;
    watch.marker = sigint_marker;
    watch.delay_ms = sigint_after_ms;
  }
  return RunLoadcell(args, watch);
}

ProcessResult RunLoadcellForItsMemory(const std::vector<std::string>& args, int timeout_s) {
#ifdef _WIN32
  constexpr int kRuns = 3;
#else
  constexpr int kRuns = 1;
#endif
  ProcessResult r;
  for (int run = 0; run < kRuns && r.max_rss_kb <= 0; ++run) r = RunLoadcell(args, -1, timeout_s);
  return r;
}

std::string Show(const ProcessResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\n--- stdout\n" + r.out + "\n--- stderr\n" +
         r.err;
}

}  // namespace loadcell::testing
