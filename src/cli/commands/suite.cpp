#include "cli/commands/suite.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/test_setup.h"
#include "core/options.h"
#include "core/status.h"
#include "os/system_info.h"
#include "report/reporter.h"
#include "runner/runner.h"
#include "validity/verdict.h"
#include "workloads/fileio/fileio.h"
#include "workloads/oltp/oltp.h"

namespace loadcell {
namespace {

struct SuiteTest {
  const char* name;
  // Options that differ from the test's defaults for a ~2 s run.
  std::vector<std::pair<const char*, const char*>> defaults;
  // Runs on files in a temporary folder (prepared before, cleaned up and
  // removed after).
  bool needs_files = false;
  // The option that names the folder, and a file in it to name instead of
  // the folder itself (e.g. a SQLite database), removed after cleanup.
  const char* dir_option = "file-dir";
  const char* dir_file = nullptr;
};

const std::vector<SuiteTest>& SuiteTests() {
  static const std::vector<SuiteTest> kTests = {
      {"cpu", {{"time", "2"}}},
      // No byte limit: the time limit ends the run.
      {"memory", {{"time", "2"}, {"memory-total-size", "0"}}},
      {"threads", {{"time", "2"}}},
      // Mutex runs one event per thread; the time limit is only a bound.
      {"mutex", {{"time", "2"}}},
      // Random reads and writes on 4 x 16 MiB files, periodic fsyncs.
      {"fileio",
       {{"time", "2"}, {"file-test-mode", "rndrw"}, {"file-num", "4"}, {"file-total-size", "64M"}},
       true},
      // sysbench's read/write transactions on a SQLite file (1 x 10000 rows).
      {"oltp_read_write", {{"time", "2"}}, true, "sqlite-db", "sbtest.db"},
  };
  return kTests;
}

struct SuiteRow {
  std::string test;
  int threads = 0;
  std::string events_per_s = "-";
  std::string percentile = "-";
  std::string extra = "-";
  std::string status = "ok";
  // VerdictLine of the run ("-" with --verdict=off or without a result),
  // and its checks that warned or found the result invalid, as the text
  // report's Verdict block words them.
  std::string verdict = "-";
  std::vector<std::string> findings;
  bool invalid = false;
  bool failed = false;
  bool interrupted = false;
  bool forced = false;  // threads were abandoned: the suite must end at once
};

// The workload's throughput figure other than events/s, e.g. "6245.78 MiB/s".
std::string ExtraFigure(const RunResult& r) {
  for (const Metric& m : r.metrics) {
    if (m.unit == "MiB/s") return fmt::format("{:.2f} {}", m.value, m.unit);
  }
  return "-";
}

// "41 ns", "249.0 us", "198.80 ms": readable over the wide range of tests.
std::string FormatLatency(uint64_t ns) {
  if (ns < 1000) return fmt::format("{} ns", ns);
  if (ns < 1000000) return fmt::format("{:.1f} us", static_cast<double>(ns) / 1e3);
  if (ns < 1000000000) return fmt::format("{:.2f} ms", static_cast<double>(ns) / 1e6);
  return fmt::format("{:.2f} s", static_cast<double>(ns) / 1e9);
}

// A folder under the system's temporary directory, removed (with the
// files fileio made in it, and nothing else) when this goes away.
class SuiteTempDir final {
 public:
  SuiteTempDir() : path_(MakeTempDir("loadcell-suite-")) {}
  ~SuiteTempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove(path_, ec);  // only if empty
  }
  SuiteTempDir(const SuiteTempDir&) = delete;
  SuiteTempDir& operator=(const SuiteTempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Prepares the files of a test that needs them, quietly.
Status PrepareFiles(Workload& w, const RunConfig& cfg) {
  if (auto* f = dynamic_cast<FileIoWorkload*>(&w)) f->SetConsole(nullptr, nullptr, false);
  if (auto* o = dynamic_cast<OltpWorkload*>(&w)) o->SetQuiet(true);
  PrepareContext ctx;
  ctx.threads = static_cast<int>(cfg.threads);
  ctx.seed = static_cast<uint64_t>(cfg.seed);
  return w.Prepare(ctx);
}

// One test of the suite, configured.
struct SuiteEntry {
  std::unique_ptr<TestSetup> setup;
  bool needs_files = false;
  std::string dir_file;  // a file of the folder to remove after cleanup
};

// The user's options with the suite's defaults for `t` beneath them (the
// folder of a test that needs files in `files_dir`).
RawOptions SuiteOptions(const SuiteTest& t, const RawOptions& options,
                        const SuiteTempDir& files_dir) {
  RawOptions raw = options;
  RawOptions defaults;
  for (const auto& [name, value] : t.defaults) defaults.Add(name, value, true, "suite default");
  if (t.needs_files) {
    defaults.Add(t.dir_option,
                 t.dir_file != nullptr ? files_dir.path() + "/" + t.dir_file : files_dir.path(),
                 true, "suite default");
  }
  raw.AddDefaults(defaults);
  return raw;
}

// Sets up and validates every test before the first one starts; an option
// no test takes is an error. Returns the exit code when one is refused (the
// error printed).
std::optional<int> SetUpSuite(const RawOptions& options, const SuiteTempDir& files_dir,
                              std::vector<SuiteEntry>& entries, std::ostream& err) {
  std::vector<bool> used(options.entries().size(), false);
  for (const SuiteTest& t : SuiteTests()) {
    if (t.needs_files && files_dir.path().empty()) {
      err << "loadcell: error: cannot create a temporary folder for the suite's '" << t.name
          << "' test\n";
      return 1;
    }
    RawOptions raw = SuiteOptions(t, options, files_dir);
    Result<std::unique_ptr<TestSetup>> setup = CreateTest(t.name, t.name);
    Status s = setup.ok() ? ConfigureTest(**setup, raw, /*check_unknown=*/false) : setup.status();
    if (!s.ok()) {
      err << "loadcell: error: " << s.ToString() << " (suite test '" << t.name << "')\n";
      return 2;
    }
    for (size_t i = 0; i < used.size(); ++i) {
      if (const RawOption* o = raw.Find(options.entries()[i].name); o && o->consumed)
        used[i] = true;
    }
    entries.push_back({std::move(*setup), t.needs_files,
                       t.needs_files && t.dir_file != nullptr ? t.dir_file : ""});
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i] && options.entries()[i].name != "config-file") {
      err << "loadcell: error: " << EscapeControlBytes(UnknownOptionText(options.entries()[i]))
          << " for the suite; see 'loadcell help'\n";
      return 2;
    }
  }
  return std::nullopt;
}

// Cleans up the files of a test that needed them (a failure is a warning).
void CleanUpFiles(const SuiteEntry& e, const SuiteTempDir& files_dir, std::ostream& err) {
  Status cleaned = e.setup->workload->Cleanup(PrepareContext{});
  if (!cleaned.ok()) err << "loadcell: warning: suite cleanup: " << cleaned.ToString() << "\n";
  if (e.dir_file.empty()) return;
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    std::filesystem::remove(files_dir.path() + "/" + e.dir_file + suffix, ec);
  }
}

// Runs one test (preparing and cleaning up its files) into its table row.
SuiteRow RunSuiteTest(SuiteEntry& e, const SuiteTempDir& files_dir, std::ostream& err) {
  TestSetup& setup = *e.setup;
  const double percentile = setup.cfg.percentile;
  SuiteRow row;
  row.test = setup.test;
  row.threads = static_cast<int>(setup.cfg.threads);
  err << "loadcell: suite: running " << setup.test << "\n";
  Status prepared = e.needs_files ? PrepareFiles(*setup.workload, setup.cfg) : Status::Ok();
  // The verdict step sees the run's start through a reporter of no output.
  VerdictStep verdict(*setup.workload, setup.cfg.verdict_mode(), percentile,
                      setup.cfg.report_interval_s);
  MultiReporter observers;
  observers.WatchStart(&verdict);
  Result<RunResult> r = prepared.ok() ? RunWorkload(*setup.workload, setup.cfg,
                                                    BuildManifest(setup, "run"), &observers)
                                      : Result<RunResult>(prepared);
  // Judged before the files and tables go: the checks read them (holes in
  // the files read, the tables' size).
  if (r.ok()) verdict.Judge(*r);
  if (e.needs_files) CleanUpFiles(e, files_dir, err);
  if (!r.ok()) {
    row.status = "FAILED: " + r.status().ToString();
    row.failed = true;
    return row;
  }
  const RunResult& res = *r;
  row.forced = res.forced_shutdown;
  if (res.validity.judged) {
    row.verdict = VerdictLine(res.validity);
    row.invalid = res.validity.overall() == Overall::kInvalid;
    for (const CheckOutcome* c : res.validity.NotPassed()) {
      if (c->level == CheckLevel::kNotChecked) continue;
      std::string line = fmt::format("{} {}: {}", CheckLevelWord(c->level), c->id, c->seen);
      if (!c->advice.empty()) line += "; change: " + c->advice;
      row.findings.push_back(std::move(line));
    }
  }
  row.events_per_s = fmt::format("{:.2f}", res.events_per_second);
  if (!res.latency.empty() && percentile > 0) {
    row.percentile = FormatLatency(res.latency[0].histogram.Percentile(percentile));
  }
  row.extra = ExtraFigure(res);
  if (!res.failure.ok() && res.failure.code() != StatusCode::kCancelled) {
    row.status = "FAILED: " + res.failure.ToString();
    row.failed = true;
  } else if (res.interrupted) {
    row.status = "interrupted";
    row.interrupted = true;
  }
  if (row.forced) {
    row.status = "FAILED: threads abandoned";
    row.failed = true;
  }
  return row;
}

std::string FormatSuiteTable(const std::vector<SuiteRow>& rows, double percentile) {
  std::string pct_header = percentile > 0 ? fmt::format("p{} latency", percentile) : "latency";
  std::string out = fmt::format("{:<16}{:>8}{:>16}{:>14}  {:<18}{:<26}{}\n", "test", "threads",
                                "events/s", pct_header, "throughput", "verdict", "status");
  for (const SuiteRow& r : rows) {
    out += fmt::format("{:<16}{:>8}{:>16}{:>14}  {:<18}{:<26}{}\n", r.test, r.threads,
                       r.events_per_s, r.percentile, r.extra, r.verdict, r.status);
  }
  // What made a verdict other than valid, test by test (`loadcell TEST run`
  // prints the whole block, the checks not made among it).
  std::string findings;
  for (const SuiteRow& r : rows) {
    for (const std::string& f : r.findings) findings += fmt::format("  {}: {}\n", r.test, f);
  }
  if (!findings.empty()) out += "\nVerdicts (docs/validity.md):\n" + findings;
  return out;
}

}  // namespace

int RunSuite(RawOptions& options, std::ostream& out, std::ostream& err) {
  for (const char* unsupported : {"format", "output-file"}) {
    if (const RawOption* o = options.Find(unsupported)) {
      err << "loadcell: error: " << o->spelled
          << ": not supported by 'suite' (it prints one summary table)\n";
      return 2;
    }
  }
  SuiteTempDir files_dir;
  std::vector<SuiteEntry> entries;
  if (std::optional<int> refused = SetUpSuite(options, files_dir, entries, err)) return *refused;

  InstallStopSignalHandlers();
  std::vector<SuiteRow> rows;
  bool failed = false;
  bool invalid = false;
  bool strict = false;
  bool interrupted = false;
  double percentile = 95;
  for (SuiteEntry& e : entries) {
    percentile = e.setup->cfg.percentile;
    rows.push_back(RunSuiteTest(e, files_dir, err));
    failed = failed || rows.back().failed;
    invalid = invalid || rows.back().invalid;
    strict = strict || e.setup->cfg.verdict_mode() == VerdictMode::kStrict;
    if (rows.back().forced) {
      // Threads hang inside this test's workload: print what there is and
      // leave before anything is destroyed under them.
      out << FormatSuiteTable(rows, percentile);
      out.flush();
      err << "loadcell: error: suite: " << rows.back().test
          << ": threads still running past the --forced-shutdown grace were abandoned\n";
      err.flush();
      std::_Exit(StopRequested() ? 130 : 1);
    }
    if (rows.back().interrupted || StopRequested()) {
      interrupted = true;
      break;
    }
  }
  out << FormatSuiteTable(rows, percentile);
  out.flush();
  if (interrupted) return 130;
  if (failed) return 1;
  // --verdict=strict: an INVALID result exits 3, as a single run does.
  return strict && invalid ? kExitInvalid : 0;
}

}  // namespace loadcell
