#pragma once
// The verdict of a run through the binary (docs/validity.md): the helpers
// the verdict tests of every front end share.

#include <nlohmann/json.hpp>
#include <string>

#include "testing/run_binary.h"

namespace loadcell::testing {

// A run's exit code and both streams, for a failed expectation.
inline std::string ShowVerdictRun(const ProcessResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// The report's last line.
inline std::string VerdictLastLine(const std::string& out) {
  std::string s = out;
  while (!s.empty() && s.back() == '\n') s.pop_back();
  const size_t nl = s.rfind('\n');
  return nl == std::string::npos ? s : s.substr(nl + 1);
}

// The check `id` of the `validity` object in `j` (a loadcell report, a fio
// job's "loadcell" object, a dbsim report or user), or null.
inline nlohmann::json VerdictCheckOf(const nlohmann::json& j, const std::string& id) {
  if (!j.contains("validity")) return nullptr;
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["id"] == id) return c;
  }
  return nullptr;
}

}  // namespace loadcell::testing
