#pragma once
// A run of the loadcell binary that must end at one of its bounds (a fake
// server's misbehaviour, a stopped peer): exit 1, exactly one error line
// that says which bound, within a wall time that leaves room for a loaded
// 2-core machine. Test helper only.

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "testing/run_binary.h"

namespace loadcell::testing {

// Runs the binary with `args` (killed after 60 s) and expects it to end with
// exit 1 and one "error:" line holding `message_has`, within `max_s`.
inline ProcessResult ExpectEndsAtItsBound(const std::vector<std::string>& args,
                                          const std::string& message_has, double max_s) {
  const auto started = std::chrono::steady_clock::now();
  ProcessResult r = RunLoadcell(args, -1, 60);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find(message_has), std::string::npos) << Show(r);
  EXPECT_EQ(CountOf(r.err, "error:"), 1u) << Show(r);
  EXPECT_LT(took, max_s) << Show(r);
  return r;
}

}  // namespace loadcell::testing
