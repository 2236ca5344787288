#include "cli/test_setup.h"

#include "cli/cli_style.h"
#include "cli/command_line.h"
#include "cli/sysbench_compat.h"
#include "core/build_info.h"
#include "core/version.h"
#include "os/system_info.h"
#include "workloads/builtin.h"

namespace loadcell {
namespace {

// An option of a part this build left out (--pgsql-host without the pgsql
// driver) that nobody took: says so, rather than "unknown option".
Status CheckLeftOutOptions(const RawOptions& raw) {
  for (const RawOption& o : raw.entries()) {
    if (o.consumed) continue;
    for (const OptionalPart& p : OptionalParts()) {
      if (!p.built && o.name.rfind(std::string(p.name) + "-", 0) == 0) {
        return NotInThisBuild(o.spelled, p.name);
      }
    }
  }
  return Status::Ok();
}

// Every option name and alias of `set`.
void CollectNames(const OptionSet& set, std::vector<std::string>& names) {
  for (const OptionSpec& s : set.specs()) {
    names.push_back(s.name());
    for (const std::string& a : s.aliases()) names.push_back(a);
  }
}

// The other built-in test that has option `name`, or "".
std::string OwnerOfOption(const std::string& name, const std::string& except) {
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    if (e.name == except) continue;
    std::unique_ptr<Workload> w = e.make();
    OptionSet set(e.name);
    w->RegisterOptions(set);
    if (set.Find(name) != nullptr) return e.name;
  }
  return "";
}

// The hint that follows "unknown option '--x'" for test `setup.test`.
std::string UnknownOptionHint(const TestSetup& setup, const RawOptions& raw) {
  std::string hint = "for test '" + setup.test + "'";
  for (const RawOption& o : raw.entries()) {
    if (o.consumed) continue;
    std::string owner = OwnerOfOption(o.name, setup.test);
    if (!owner.empty()) {
      hint += " (it is an option of test '" + owner + "')";
    } else {
      std::vector<std::string> names;
      CollectNames(setup.general, names);
      CollectNames(setup.test_options, names);
      std::string close = ClosestMatch(o.name, names);
      if (!close.empty()) hint += " (did you mean '--" + close + "'?)";
    }
    break;
  }
  return hint + "; see 'loadcell " + setup.test + " help'";
}

}  // namespace

std::vector<std::string> BuiltinTestNames() {
  std::vector<std::string> names;
  for (const WorkloadEntry& e : BuiltinWorkloads()) names.push_back(e.name);
  return names;
}

bool IsBuiltinTest(const std::string& name) {
  for (const WorkloadEntry& e : BuiltinWorkloads()) {
    if (e.name == name) return true;
  }
  return false;
}

Status UnknownTest(const std::string& name, const std::string& spelled) {
  std::string msg = "unknown test '" + spelled + "'";
  std::string close = ClosestMatch(name, BuiltinTestNames());
  if (!close.empty()) msg += " (did you mean '" + close + "'?)";
  return Status::NotFound(msg + "; run 'loadcell list' to see the tests");
}

Result<std::unique_ptr<TestSetup>> CreateTest(const std::string& name, const std::string& spelled) {
  std::unique_ptr<Workload> workload = MakeWorkload(name);
  if (workload == nullptr) return UnknownTest(name, spelled);
  auto setup = std::make_unique<TestSetup>(name);
  setup->workload = std::move(workload);
  setup->cfg.RegisterOptions(setup->general);
  setup->workload->RegisterOptions(setup->test_options);
  return setup;
}

Status ConfigureTest(TestSetup& setup, RawOptions& raw, bool check_unknown) {
  // --config-file was read by the front end; consume it here if the general
  // options do not record it themselves.
  if (setup.general.Find("config-file") == nullptr) {
    if (RawOption* o = raw.Find("config-file")) o->consumed = true;
  }
  LC_RETURN_IF_ERROR(ExpandSysbenchCompatOptions(raw));
  LC_RETURN_IF_ERROR(setup.general.Apply(raw));
  LC_RETURN_IF_ERROR(setup.test_options.Apply(raw));
  LC_RETURN_IF_ERROR(TakeSysbenchCompatOptions(raw, setup, setup.notes));
  if (check_unknown) {
    LC_RETURN_IF_ERROR(CheckLeftOutOptions(raw));
    LC_RETURN_IF_ERROR(raw.CheckAllConsumed(UnknownOptionHint(setup, raw)));
  }
  LC_RETURN_IF_ERROR(setup.cfg.Finalize(setup.general));
  setup.workload->SetEventLimit(setup.cfg.events);
  ConsoleStyle style;
  style.sysbench_output = SysbenchMode();
  style.verbosity = static_cast<int>(setup.cfg.verbosity);
  setup.workload->SetConsoleStyle(style);
  return setup.workload->Validate(static_cast<int>(setup.cfg.threads));
}

Manifest BuildManifest(const TestSetup& setup, const std::string& command) {
  Manifest m;
  m.tool_version = kVersion;
  m.test = setup.test;
  m.command = command;
  for (const OptionSpec& s : setup.general.specs()) {
    m.options.push_back({"general", s.name(), s.ValueText(), s.is_default()});
  }
  for (const OptionSpec& s : setup.test_options.specs()) {
    m.options.push_back({setup.test, s.name(), s.ValueText(), s.is_default()});
  }
  m.system = ReadSystemInfo();
  m.workload = setup.workload->Describe();
  return m;
}

}  // namespace loadcell
