// How the fileio worker hands requests to an asynchronous engine: at most
// --file-submit-batch per Submit call and completions taken at most that many
// per Reap, the queue kept at its depth, and one event per completed request.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "runner/recorder.h"
#include "testing/status.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {
namespace {

constexpr uint64_t kSubmitBlock = 4096;

// An asynchronous engine that completes nothing by itself: each Reap
// completes the `per_reap` oldest requests in flight (fewer when the caller
// offers less room). It records the size of every Submit call and how many
// completions every Reap returned.
class ScriptedEngine final : public IoEngine {
 public:
  ScriptedEngine(std::vector<size_t>* submits, std::vector<size_t>* reaps, size_t per_reap)
      : submits_(submits), reaps_(reaps), per_reap_(per_reap) {}
  std::string Name() const override { return "scripted"; }
  IoCapabilities Capabilities() const override { return {true, 1024, 1, false}; }
  Status Open(std::span<const IoFile>, const EngineOptions& opts) override {
    depth_ = opts.queue_depth;
    return Status::Ok();
  }
  Status Close() override { return Status::Ok(); }
  Result<size_t> Submit(std::span<IoRequest> requests) override {
    const size_t n = std::min(requests.size(), depth_ - flight_.size());
    submits_->push_back(n);
    for (size_t i = 0; i < n; ++i) {
      flight_.push_back(requests[i]);
      if (requests[i].op == IoOp::kWrite) {
        const auto* b = static_cast<const char*>(requests[i].buffer);
        written.emplace_back(b, b + requests[i].length);
      }
    }
    return n;
  }
  std::vector<std::string> written;  // the bytes of every write, as submitted
  Result<size_t> Reap(size_t, std::span<IoCompletion> out, Nanos) override {
    const size_t n = std::min({per_reap_, flight_.size(), out.size()});
    for (size_t i = 0; i < n; ++i) {
      out[i] = IoCompletion{flight_[i].user_data, static_cast<int64_t>(flight_[i].length)};
    }
    flight_.erase(flight_.begin(), flight_.begin() + static_cast<std::ptrdiff_t>(n));
    reaps_->push_back(n);
    return n;
  }
  size_t InFlight() const override { return flight_.size(); }

 private:
  std::vector<size_t>* submits_;
  std::vector<size_t>* reaps_;
  size_t per_reap_;
  size_t depth_ = 1;
  std::vector<IoRequest> flight_;
};

FileIoSettings RandomReads(uint32_t depth, uint32_t submit_batch) {
  FileIoSettings s;
  s.mode = FileTestMode::kRndRead;
  s.num_files = 1;
  s.block_size = kSubmitBlock;
  s.request_size = kSubmitBlock;
  s.file_size = 64 * kSubmitBlock;
  s.blocks_per_file = 64;
  s.total_blocks = 64;
  s.seq_requests_per_file = 64;
  s.fsync_freq = 0;
  s.fsync_end = false;
  s.engine = "io_uring";  // asynchronous: the worker keeps `depth` in flight
  s.queue_depth_asked = depth;
  s.queue_depth = depth;
  s.submit_batch = submit_batch;
  return s;
}

struct Outcome {
  std::vector<size_t> submits;  // requests per Submit call
  std::vector<size_t> reaps;    // completions per Reap call
  uint64_t submit_calls = 0;    // the worker's own counter
  uint64_t reads = 0;
};

Outcome RunEvents(const FileIoSettings& s, size_t per_reap, int events) {
  Outcome o;
  FileIoShared shared(s, {IoFile{"scripted", -1, s.file_size}});
  EXPECT_OK(shared.Init());
  ThreadRecorder rec(kKindFsync);  // read, write and fsync latencies
  ThreadContext ctx;
  ctx.seed = 3;
  ctx.recorder = &rec;
  FileIoWorker w(shared, std::make_unique<ScriptedEngine>(&o.submits, &o.reaps, per_reap), ctx);
  Status st = w.Open();
  EXPECT_OK(st);
  for (int i = 0; i < events && st.ok(); ++i) {
    st = w.RunEvent();
    EXPECT_OK(st);
  }
  o.submit_calls = rec.counter(kCounterSubmitCalls);
  o.reads = rec.counter(kCounterReads);
  return o;
}

TEST(FileIoSubmit, OneRequestPerCallByDefault) {
  const Outcome o = RunEvents(RandomReads(8, 1), 4, 40);
  EXPECT_EQ(o.reads, 40u);
  ASSERT_FALSE(o.submits.empty());
  for (size_t n : o.submits) EXPECT_EQ(n, 1u);
  EXPECT_EQ(o.submit_calls, o.submits.size());
  // The queue is filled first (8 calls), then refilled one request at a
  // time for each completion handed out.
  EXPECT_GE(o.submits.size(), 40u);
  // Completions are taken one at a time although four are ready each time,
  // so each replacement follows its own completion.
  ASSERT_GE(o.reaps.size(), 40u);
  for (size_t n : o.reaps) EXPECT_EQ(n, 1u);
}

TEST(FileIoSubmit, BatchesUpToTheAskedSize) {
  const Outcome o = RunEvents(RandomReads(8, 4), 6, 60);
  EXPECT_EQ(o.reads, 60u);
  ASSERT_GE(o.submits.size(), 2u);
  // The first fill: 8 requests in calls of at most 4.
  EXPECT_EQ(o.submits[0], 4u);
  EXPECT_EQ(o.submits[1], 4u);
  // Six completions are ready each time but at most four are taken, and
  // each reap of four is refilled by one call of four.
  for (size_t n : o.submits) EXPECT_EQ(n, 4u);
  ASSERT_FALSE(o.reaps.empty());
  for (size_t n : o.reaps) EXPECT_EQ(n, 4u);
  EXPECT_EQ(o.submit_calls, o.submits.size());
}

TEST(FileIoSubmit, OneCallCanCarryTheWholeRefill) {
  const Outcome o = RunEvents(RandomReads(8, 64), 8, 48);
  EXPECT_EQ(o.reads, 48u);
  for (size_t n : o.submits) EXPECT_EQ(n, 8u);  // fill, then refills of a whole reap
  for (size_t n : o.reaps) EXPECT_EQ(n, 8u);    // the batch is capped by the depth
}

TEST(FileIoSubmit, RandomWritesOfOneBufferDifferInEverySector) {
  FileIoSettings s = RandomReads(2, 1);
  s.mode = FileTestMode::kRndWrite;
  std::vector<size_t> submits, reaps;
  auto engine = std::make_unique<ScriptedEngine>(&submits, &reaps, 1);
  ScriptedEngine* seen = engine.get();
  FileIoShared shared(s, {IoFile{"scripted", -1, s.file_size}});
  ASSERT_OK(shared.Init());
  ThreadRecorder rec(kKindFsync);
  ThreadContext ctx;
  ctx.seed = 3;
  ctx.recorder = &rec;
  FileIoWorker w(shared, std::move(engine), ctx);
  ASSERT_OK(w.Open());
  for (int i = 0; i < 30; ++i) ASSERT_OK(w.RunEvent());
  // Two slots, each reusing its buffer for 15 or more writes: still every
  // 512-byte sector of every write is unlike all others.
  ASSERT_GE(seen->written.size(), 30u);
  std::set<std::string> sectors;
  size_t total = 0;
  for (const std::string& wbytes : seen->written) {
    for (size_t i = 0; i < wbytes.size(); i += 512, ++total) sectors.insert(wbytes.substr(i, 512));
  }
  EXPECT_EQ(sectors.size(), total);
}

}  // namespace
}  // namespace loadcell
