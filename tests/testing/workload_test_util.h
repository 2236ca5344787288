#pragma once
// Test helper: applies `--name=value` options to a workload the way the
// command line does, then runs its Validate().

#include <string>
#include <utility>
#include <vector>

#include "core/options.h"
#include "core/status.h"
#include "runner/workload.h"

namespace loadcell::testing {

inline Status Configure(Workload& w, const std::vector<std::pair<std::string, std::string>>& args,
                        int threads = 1) {
  OptionSet set(w.Info().name + " options");
  w.RegisterOptions(set);
  RawOptions raw;
  for (const auto& [name, value] : args) raw.Add("--" + name, value, true, "command line");
  LC_RETURN_IF_ERROR(set.Apply(raw));
  LC_RETURN_IF_ERROR(raw.CheckAllConsumed(""));
  return w.Validate(threads);
}

// The WorkloadInfo of a test workload (the rest defaulted: set traits on the
// result).
inline WorkloadInfo TestInfo(std::string name, std::string summary, std::string event) {
  WorkloadInfo info;
  info.name = std::move(name);
  info.summary = std::move(summary);
  info.event_definition = std::move(event);
  return info;
}

// A test workload with a fixed Info() and no options: derive from it and
// implement NewWorker.
class TestWorkload : public Workload {
 public:
  explicit TestWorkload(WorkloadInfo info) : info_(std::move(info)) {}
  WorkloadInfo Info() const override { return info_; }
  void RegisterOptions(OptionSet&) override {}

 private:
  WorkloadInfo info_;
};

}  // namespace loadcell::testing
