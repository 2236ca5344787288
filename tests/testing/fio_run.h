#pragma once
// `loadcell fio ARGS...` run in a test's folder, and the jobs of its JSON:
// the helpers the fio integration tests share.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

inline ProcessResult RunFio(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "fio");
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

// The "jobs" array of a run's JSON on stdout; empty when stdout is no JSON.
inline nlohmann::json FioJsonJobs(const ProcessResult& r) {
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.contains("jobs")) return nlohmann::json::array();
  return doc["jobs"];
}

}  // namespace loadcell::testing
