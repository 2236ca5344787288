#pragma once
// Test helpers for fileio: a configured workload over a temp directory, and
// running it through the runner.

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "io/io_engine.h"
#include "runner/run_config.h"
#include "runner/runner.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "testing/workload_test_util.h"
#include "workloads/fileio/fileio.h"

namespace loadcell::testing {

using FileIoArgs = std::vector<std::pair<std::string, std::string>>;

// `args` plus --file-dir=dir, small files by default (4 x 256 KiB, 4 KiB
// blocks) unless args set them.
inline FileIoArgs WithSmallFiles(const std::string& dir, FileIoArgs args) {
  auto has = [&](const std::string& name) {
    for (const auto& [n, v] : args) {
      if (n == name) return true;
    }
    return false;
  };
  if (!has("file-num")) args.emplace_back("file-num", "4");
  if (!has("file-total-size")) args.emplace_back("file-total-size", "1M");
  if (!has("file-block-size")) args.emplace_back("file-block-size", "4K");
  args.emplace_back("file-dir", dir);
  return args;
}

// The asynchronous engine the fileio tests run on buffered files: io_uring
// on Linux, iocp on Windows (the first of the two this build has; "" when
// it has neither, and the test fails on the engine's name).
inline std::string BufferedAsyncEngine() {
  for (const char* engine : {"io_uring", "iocp"}) {
    if (CheckIoEngine(engine, "").ok()) return engine;
  }
  return "";
}

// Quiet console for prepare/cleanup; the text lands in `out`.
struct QuietConsole {
  std::ostringstream out;
  std::ostringstream progress;
  void Attach(FileIoWorkload& w) { w.SetConsole(&out, &progress, false); }
};

inline Status PrepareWith(FileIoWorkload& w, QuietConsole& console) {
  console.Attach(w);
  PrepareContext ctx;
  ctx.seed = 7;
  return w.Prepare(ctx);
}

// Configures `w` on `dir` with `args` and prepares the files; a failure
// fails the calling test (check HasFatalFailure() after it where needed).
inline void Prepared(FileIoWorkload& w, const TempDir& dir, const FileIoArgs& args) {
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), args)));
  QuietConsole console;
  Status s = PrepareWith(w, console);
  w.SetConsole(nullptr, nullptr, false);  // `console` goes away here
  ASSERT_OK(s);
}

// Runs a configured workload (fileio, sqlio) for `events` events on
// `threads` threads.
inline Result<RunResult> RunEvents(Workload& w, int64_t events, int threads = 1) {
  RunConfig cfg;
  cfg.threads = threads;
  cfg.time_s = 0;
  cfg.events = events;
  cfg.seed = 11;
  cfg.rand.type = "uniform";
  Manifest m;
  return RunWorkload(w, cfg, m, nullptr);
}

inline uint64_t Counter(const RunResult& r, const std::string& name) {
  for (size_t i = 0; i < r.counter_names.size() && i < r.counters.size(); ++i) {
    if (r.counter_names[i] == name) return r.counters[i];
  }
  return ~uint64_t{0};
}

inline uint64_t KindCount(const RunResult& r, const std::string& kind) {
  for (const LatencyStats& l : r.latency) {
    if (l.kind == kind) return l.histogram.Count();
  }
  return ~uint64_t{0};
}

}  // namespace loadcell::testing
