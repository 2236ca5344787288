#pragma once
// A test made ready to run: its workload, the general and test options
// parsed and validated, and the manifest of what will be done.

#include <functional>
#include <memory>
#include <string>

#include "core/options.h"
#include "core/status.h"
#include "runner/run_config.h"
#include "runner/run_result.h"
#include "runner/workload.h"

namespace loadcell {

// Owns the workload and the option sets bound to it and to `cfg`. Not
// movable: the sets point into it.
struct TestSetup {
  explicit TestSetup(const std::string& test_name)
      : test(test_name), general("General options"), test_options(test_name + " options") {}
  TestSetup(const TestSetup&) = delete;
  TestSetup& operator=(const TestSetup&) = delete;

  std::string test;
  RunConfig cfg;
  std::unique_ptr<Workload> workload;
  OptionSet general;
  OptionSet test_options;
  // Notes for stderr from the options given (sysbench options without effect).
  std::vector<std::string> notes;
  // Run after the run's report is out, when set: a Lua script's done().
  std::function<Status()> after_report;
};

// The names of the built-in tests, in `loadcell list` order.
std::vector<std::string> BuiltinTestNames();
bool IsBuiltinTest(const std::string& name);

// NotFound naming `spelled` when no test is called `name`.
Status UnknownTest(const std::string& name, const std::string& spelled);

// Creates test `name` and registers its options and the general ones.
Result<std::unique_ptr<TestSetup>> CreateTest(const std::string& name, const std::string& spelled);

// Applies `raw` to both option sets (consuming what they know), then runs
// the cross-option checks (RunConfig::Finalize, Workload::Validate). When
// `check_unknown`, any entry left unconsumed is an error naming it.
Status ConfigureTest(TestSetup& setup, RawOptions& raw, bool check_unknown);

// The manifest for `command` (run): resolved options of both sets, tool
// version, system facts and the workload's description.
Manifest BuildManifest(const TestSetup& setup, const std::string& command);

}  // namespace loadcell
