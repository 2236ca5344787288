#include "cli/commands/suite.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/test_setup.h"
#include "runner/runner.h"
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

struct Row {
  std::string test;
  int threads = 0;
  std::string events_per_s = "-";
  std::string percentile = "-";
  std::string extra = "-";
  std::string status = "ok";
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
  SuiteTempDir() {
    std::error_code ec;
    std::string tmpl = std::filesystem::temp_directory_path(ec).string();
    if (ec || tmpl.empty()) tmpl = "/tmp";
    tmpl += "/loadcell-suite-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
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

}  // namespace

int RunSuite(RawOptions& options, std::ostream& out, std::ostream& err) {
  for (const char* unsupported : {"format", "output-file"}) {
    if (const RawOption* o = options.Find(unsupported)) {
      err << "loadcell: error: " << o->spelled
          << ": not supported by 'suite' (it prints one summary table)\n";
      return 2;
    }
  }
  // Set up and validate every test before the first one starts.
  std::vector<std::unique_ptr<TestSetup>> setups;
  std::vector<bool> needs_files;
  std::vector<std::string> dir_files;  // a file of the folder to remove after cleanup
  std::vector<bool> used(options.entries().size(), false);
  SuiteTempDir files_dir;
  for (const SuiteTest& t : SuiteTests()) {
    RawOptions raw = options;
    RawOptions defaults;
    for (const auto& [name, value] : t.defaults) defaults.Add(name, value, true, "suite default");
    if (t.needs_files) {
      if (files_dir.path().empty()) {
        err << "loadcell: error: cannot create a temporary folder for the suite's '" << t.name
            << "' test\n";
        return 1;
      }
      defaults.Add(t.dir_option,
                   t.dir_file != nullptr ? files_dir.path() + "/" + t.dir_file : files_dir.path(),
                   true, "suite default");
    }
    raw.AddDefaults(defaults);
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
    setups.push_back(std::move(*setup));
    needs_files.push_back(t.needs_files);
    dir_files.push_back(t.needs_files && t.dir_file != nullptr ? t.dir_file : "");
  }
  for (size_t i = 0; i < used.size(); ++i) {
    if (!used[i] && options.entries()[i].name != "config-file") {
      err << "loadcell: error: unknown option '" << options.entries()[i].spelled
          << "' for the suite; see 'loadcell help'\n";
      return 2;
    }
  }

  InstallStopSignalHandlers();
  std::vector<Row> rows;
  bool failed = false;
  bool interrupted = false;
  double percentile = 95;
  for (size_t i = 0; i < setups.size(); ++i) {
    auto& setup = setups[i];
    percentile = setup->cfg.percentile;
    Row row;
    row.test = setup->test;
    row.threads = static_cast<int>(setup->cfg.threads);
    err << "loadcell: suite: running " << setup->test << "\n";
    Status prepared = needs_files[i] ? PrepareFiles(*setup->workload, setup->cfg) : Status::Ok();
    Result<RunResult> r = prepared.ok() ? RunWorkload(*setup->workload, setup->cfg,
                                                      BuildManifest(*setup, "run"), nullptr)
                                        : Result<RunResult>(prepared);
    if (needs_files[i]) {
      Status cleaned = setup->workload->Cleanup(PrepareContext{});
      if (!cleaned.ok()) err << "loadcell: warning: suite cleanup: " << cleaned.ToString() << "\n";
      if (!dir_files[i].empty()) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
          std::filesystem::remove(files_dir.path() + "/" + dir_files[i] + suffix, ec);
        }
      }
    }
    if (!r.ok()) {
      row.status = "FAILED: " + r.status().ToString();
      failed = true;
    } else {
      const RunResult& res = *r;
      row.events_per_s = fmt::format("{:.2f}", res.events_per_second);
      if (!res.latency.empty() && percentile > 0) {
        row.percentile = FormatLatency(res.latency[0].histogram.Percentile(percentile));
      }
      row.extra = ExtraFigure(res);
      if (!res.failure.ok() && res.failure.code() != StatusCode::kCancelled) {
        row.status = "FAILED: " + res.failure.ToString();
        failed = true;
      } else if (res.interrupted) {
        row.status = "interrupted";
        interrupted = true;
      }
    }
    rows.push_back(std::move(row));
    if (interrupted || StopRequested()) {
      interrupted = true;
      break;
    }
  }

  std::string pct_header = percentile > 0 ? fmt::format("p{} latency", percentile) : "latency";
  out << fmt::format("{:<16}{:>8}{:>16}{:>14}  {:<18}{}\n", "test", "threads", "events/s",
                     pct_header, "throughput", "status");
  for (const Row& r : rows) {
    out << fmt::format("{:<16}{:>8}{:>16}{:>14}  {:<18}{}\n", r.test, r.threads, r.events_per_s,
                       r.percentile, r.extra, r.status);
  }
  out.flush();
  if (interrupted) return 130;
  return failed ? 1 : 0;
}

}  // namespace loadcell
