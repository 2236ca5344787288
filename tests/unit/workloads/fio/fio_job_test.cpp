#include "workloads/fio/fio_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "os/file_system.h"
#include "runner/jobs.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

FioJobSettings Settings(const std::string& name, const std::string& file, uint64_t size,
                        uint32_t bs) {
  FioJobSettings s;
  s.name = name;
  s.files = {file};
  s.file_size = size;
  s.byte_limit = size;
  s.pattern.region_length = size;
  for (FioBlockSizes& b : s.pattern.bs) b.min = b.max = bs;
  s.pattern.seed = 1;
  return s;
}

RunConfig OneThread() {
  RunConfig c;
  c.threads = 1;
  c.time_s = 0;
  c.seed = 3;
  c.rand.type = "uniform";
  return c;
}

uint64_t Counter(const RunResult& r, FioCounter c) { return r.counters.at(c); }

TEST(FioJobTest, SizeBoundJobsRunTogetherAndDoExactlyTheirBytes) {
  TempDir dir;
  FileSystem& fs = DefaultFileSystem();
  FioJobSettings rd = Settings("reader", dir / "reader.0.0", 1 << 20, 4096);
  rd.pattern.random = true;
  FioJobSettings wr = Settings("writer", dir / "writer.0.0", 2 << 20, 65536);
  wr.pattern.dirs = {false, true, false};
  wr.fsync_every = 4;
  wr.end_fsync = true;
  FioJobWorkload a(rd, fs), b(wr, fs);
  ASSERT_OK(a.Prepare(PrepareContext{}));
  ASSERT_OK(b.Prepare(PrepareContext{}));
  EXPECT_EQ(std::filesystem::file_size(dir / "reader.0.0"), 1u << 20);
  EXPECT_EQ(a.created().size(), 1u);

  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"reader", &a, OneThread(), {}, nullptr});
  groups[0].jobs.push_back(Job{"writer", &b, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  const RunResult& ra = r->jobs[0].result;
  const RunResult& rb = r->jobs[1].result;
  EXPECT_OK(ra.failure);
  EXPECT_OK(rb.failure);
  EXPECT_EQ(ra.events, 256u);
  EXPECT_EQ(Counter(ra, kFioReads), 256u);
  EXPECT_EQ(Counter(ra, kFioBytesRead), 1u << 20);
  EXPECT_EQ(Counter(ra, kFioWrites), 0u);
  EXPECT_EQ(ra.latency[kFioKindRead].histogram.Count(), 256u);
  EXPECT_EQ(rb.events, 32u);
  EXPECT_EQ(Counter(rb, kFioBytesWritten), 2u << 20);
  // fsync=4: one after every 4 writes but the last (7, fio 3.33's count and
  // timings), and end_fsync's one, issued but not in fio's figures.
  EXPECT_EQ(Counter(rb, kFioSyncs), 7u);
  EXPECT_EQ(rb.latency[kFioKindSync].histogram.Count(), 7u);
  EXPECT_EQ(Counter(rb, kFioAllSyncs), 8u);
  EXPECT_EQ(r->groups[0].events, 288u);
}

TEST(FioJobTest, TheNullEngineTouchesNoFileAndAnIoLimitCutsTheJob) {
  TempDir dir;
  FioJobSettings s = Settings("null", dir / "never", uint64_t{1} << 30, 4096);
  s.engine = "null";
  s.iodepth = 8;
  s.io_limit = 1000;
  FioJobWorkload w(s, DefaultFileSystem());
  ASSERT_OK(w.Prepare(PrepareContext{}));
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"null", &w, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  const RunResult& res = r->jobs[0].result;
  EXPECT_EQ(res.events, 1000u);
  EXPECT_FALSE(std::filesystem::exists(dir / "never"));
  // Every request was submitted at some depth from 1 to 8; none deeper.
  uint64_t levels = 0;
  for (int b = 0; b < kFioLevels; ++b) levels += Counter(res, FioCounter(kFioDepthLevel + b));
  EXPECT_EQ(levels, 1000u);
  EXPECT_EQ(Counter(res, FioCounter(kFioDepthLevel + 4)), 0u);  // 16-31
  EXPECT_GT(Counter(res, FioCounter(kFioDepthLevel + 3)), 0u);  // 8-15: the queue filled
  uint64_t submits = 0;
  for (int b = 0; b < kFioLevels; ++b) submits += Counter(res, FioCounter(kFioSubmitBatch + b));
  EXPECT_EQ(submits, Counter(res, kFioSubmitCalls));
  ASSERT_EQ(res.counter_names.size(), static_cast<size_t>(kFioCounterCount));
  EXPECT_EQ(res.counter_names[kFioCpuUserNs], "cpu_user_ns");
  EXPECT_EQ(res.counter_names[kFioDepthLevel + 6], "iodepth_ge64");
}

TEST(FioJobTest, ALimitThatLeavesLessThanABlockEndsTheJobAsFiosDoes) {
  TempDir dir;
  FioJobSettings s = Settings("cut", dir / "cut.0.0", 10000, 4096);
  FioJobWorkload w(s, DefaultFileSystem());
  ASSERT_OK(w.Prepare(PrepareContext{}));
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"cut", &w, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  // fio 3.33: size=10000 bs=4k rw=read does 2 reads, 8192 bytes.
  EXPECT_EQ(r->jobs[0].result.events, 2u);
  EXPECT_EQ(Counter(r->jobs[0].result, kFioBytesRead), 8192u);
}

TEST(FioJobTest, UnlinkRemovesOnlyTheFilesTheJobMade) {
  TempDir dir;
  const std::string mine = dir / "mine.0.0";
  const std::string theirs = dir.Write("theirs", std::string(8192, 'x'));
  FioJobSettings s = Settings("u", mine, 8192, 4096);
  s.files.push_back(theirs);
  s.unlink = true;
  FioJobWorkload w(s, DefaultFileSystem());
  ASSERT_OK(w.Prepare(PrepareContext{}));
  ASSERT_OK(w.Cleanup(PrepareContext{}));
  EXPECT_FALSE(std::filesystem::exists(mine));
  EXPECT_TRUE(std::filesystem::exists(theirs));
}

TEST(FioJobTest, FactsEstimateWhatTheWritesHoldForTheVerdict) {
  TempDir dir;
  FioJobSettings s = Settings("w", dir / "w.0.0", 1 << 20, 4096);
  s.pattern.dirs = {false, true, false};
  const auto facts = [&](const FioJobSettings& with) {
    FioJobWorkload w(with, DefaultFileSystem());
    return w.Facts(RunResult{}).io.at(0);
  };
  IoTargetFacts t = facts(s);
  EXPECT_LT(t.write_compressible_fraction, 0.01);  // fio's default: random, scrambled
  EXPECT_EQ(t.write_duplicate_fraction, 0);
  s.buffers.compress_fraction = 0.5;
  t = facts(s);
  EXPECT_NEAR(t.write_compressible_fraction, 0.5, 0.03);
  s.buffers.compress_fraction = 0;
  s.buffers.dedupe_fraction = 0.5;
  t = facts(s);
  EXPECT_NEAR(t.write_duplicate_fraction, 0.5, 0.2);
}

TEST(FioJobTest, FactsStateWhereTheFilesAreAndTheBytesWritten) {
  TempDir a;
  TempDir b;
  FioJobSettings s = Settings("p", a / "p.0", 1 << 20, 4096);
  // Two files in one folder, a third in another: the folder of the first,
  // the other once.
  s.files = {a / "p.0", a / "p.1", b / "p.2"};
  s.thinktime_ns = 1000;
  FioJobWorkload w(s, DefaultFileSystem());
  RunResult r;
  r.counters.assign(kFioCounterCount, 0);
  r.counters[kFioBytesRead] = 4096;
  r.counters[kFioBytesWritten] = 8192;
  const WorkloadFacts f = w.Facts(r);
  ASSERT_EQ(f.io.size(), 1u);
  EXPECT_EQ(f.io[0].dir, a.path());
  EXPECT_EQ(f.io[0].more_dirs, std::vector<std::string>{b.path()});
  EXPECT_EQ(f.io[0].paths.size(), 3u);
  EXPECT_TRUE(f.io[0].paced);  // thinktime
  EXPECT_EQ(f.io_bytes_read, 4096u);
  EXPECT_EQ(f.io_bytes_written, 8192u);
  // One folder: nothing more; no thinktime or rate: not paced.
  s.files = {a / "p.0"};
  s.thinktime_ns = 0;
  const IoTargetFacts one = FioJobWorkload(s, DefaultFileSystem()).Facts(RunResult{}).io.at(0);
  EXPECT_EQ(one.dir, a.path());
  EXPECT_TRUE(one.more_dirs.empty());
  EXPECT_FALSE(one.paced);
}

// The rate asked judged against the run's counters: the direction furthest
// below its target, every rank's under MPI; a direction the job does not
// do asks nothing.
TEST(FioJobTest, FactsStateTheRateAskedAgainstTheRateDone) {
  TempDir dir;
  FioJobSettings s = Settings("r", dir / "r.0", 1 << 20, 4096);
  s.pattern.dirs = {true, true, false};
  s.rate_asked = FioRateAskedOf({}, {100, 50, 50}, {}, {});
  RunResult r;
  r.total_time_s = 2;
  r.counters.assign(kFioCounterCount, 0);
  r.counters[kFioReads] = 196;  // 98 a second of 100
  r.counters[kFioWrites] = 50;  // 25 of 50
  r.counters[kFioTrims] = 0;    // no trims: not asked
  OwnRateFacts own = FioJobWorkload(s, DefaultFileSystem()).Facts(r).own_rate;
  EXPECT_EQ(own.option, "rate_iops");
  EXPECT_EQ(own.unit, "write I/Os per second");
  EXPECT_EQ(own.target, 50);
  EXPECT_EQ(own.achieved, 25);
  EXPECT_FALSE(own.minimum);
  // Two ranks ran it: their targets add up.
  r.cluster.emplace().ranks.resize(2);
  own = FioJobWorkload(s, DefaultFileSystem()).Facts(r).own_rate;
  EXPECT_EQ(own.target, 100);
  // DiskSpd's -g: the directions together, bytes per millisecond.
  r.cluster.reset();
  r.counters[kFioBytesRead] = 3000;
  r.counters[kFioBytesWritten] = 1000;
  s.rate_asked = FioRateAsked{};
  s.rate_asked.option = "-g";
  s.rate_asked.unit = "bytes per millisecond";
  s.rate_asked.unit_s = 0.001;
  s.rate_asked.together = true;
  s.rate_asked.target[0] = 4;
  own = FioJobWorkload(s, DefaultFileSystem()).Facts(r).own_rate;
  EXPECT_EQ(own.unit, "bytes per millisecond");
  EXPECT_DOUBLE_EQ(own.achieved, 2);  // 4000 bytes over 2 s
  // None asked: none stated.
  s.rate_asked = FioRateAsked{};
  EXPECT_EQ(FioJobWorkload(s, DefaultFileSystem()).Facts(r).own_rate.option, "");
}

// The request size and the offsets' granularity the alignment check judges:
// bs, bssplit, blockalign, offset.
TEST(FioJobTest, FactsStateTheRequestSizeAndOffsetGranularity) {
  TempDir dir;
  FioJobSettings s = Settings("a", dir / "a.0", 1 << 20, 4096);
  const auto facts = [&] { return FioJobWorkload(s, DefaultFileSystem()).Facts({}).io.at(0); };
  EXPECT_EQ(facts().block_bytes, 4096u);
  EXPECT_EQ(facts().offset_align_bytes, 4096u);
  s.pattern.region_offset = 512;  // offset=512
  EXPECT_EQ(facts().offset_align_bytes, 512u);
  s.pattern.region_offset = 0;
  s.pattern.random = true;
  s.pattern.bs[0].align = 1024;  // blockalign=1k
  EXPECT_EQ(facts().block_bytes, 4096u);
  EXPECT_EQ(facts().offset_align_bytes, 1024u);
  s.pattern.bs[0].align = 0;
  s.pattern.bs[0].split = {{8192, 50}, {2048, 50}};  // bssplit
  EXPECT_EQ(facts().block_bytes, 2048u);
  EXPECT_EQ(facts().offset_align_bytes, 2048u);
  // A direction the job does not do counts for nothing.
  s.pattern.bs[1].min = s.pattern.bs[1].max = 512;
  EXPECT_EQ(facts().block_bytes, 2048u);
}

// A file system whose reads move half the bytes asked (a file cut short
// under the job).
class HalfReads final : public FileSystemWrapper {
 public:
  using FileSystemWrapper::FileSystemWrapper;
  Result<size_t> PRead(int fd, void* buf, size_t len, uint64_t offset) override {
    return target().PRead(fd, buf, len / 2, offset);
  }
};

TEST(FioJobTest, ShortReadsAreCountedAndStatedForTheVerdict) {
  TempDir dir;
  FioJobSettings s = Settings("s", dir / "s.0.0", 64 << 10, 4096);
  HalfReads half(DefaultFileSystem());
  FioJobWorkload w(s, half);
  ASSERT_OK(w.Prepare(PrepareContext{}));
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"s", &w, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  const RunResult& res = r->jobs[0].result;
  ASSERT_OK(res.failure);
  EXPECT_GT(Counter(res, kFioShortIos), 0u);
  EXPECT_EQ(Counter(res, kFioShortIos), Counter(res, kFioReads));
  // Counted per direction too (fio's short_ios of read, write and trim).
  EXPECT_EQ(Counter(res, kFioShortReads), Counter(res, kFioReads));
  EXPECT_EQ(Counter(res, kFioShortWrites), 0u);
  EXPECT_EQ(Counter(res, kFioShortTrims), 0u);
  const WorkloadFacts f = w.Facts(res);
  EXPECT_TRUE(f.counts_short_ios);
  EXPECT_EQ(f.short_ios, Counter(res, kFioShortIos));
  // Whole reads: none.
  FioJobWorkload whole(Settings("s", dir / "s.0.0", 64 << 10, 4096), DefaultFileSystem());
  ASSERT_OK(whole.Prepare(PrepareContext{}));
  groups[0].jobs[0].workload = &whole;
  auto again = RunJobs(groups);
  ASSERT_OK(again);
  EXPECT_EQ(whole.Facts(again->jobs[0].result).short_ios, 0u);
  EXPECT_GT(Counter(again->jobs[0].result, kFioReads), 0u);
}

TEST(FioJobTest, AWriteJobVerifiesItsBlocksAndCountsTheReads) {
  TempDir dir;
  FioJobSettings s = Settings("v", dir / "v.0.0", 1 << 20, 4096);
  s.pattern.dirs = {false, true, false};
  s.pattern.random = true;
  s.verify = FioVerifyKind::kXxhash;
  s.verify_backlog = 10;  // 256 writes: verified 10 at a time, the rest at the end
  FioJobWorkload w(s, DefaultFileSystem());
  ASSERT_OK(w.Prepare(PrepareContext{}));
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"v", &w, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  ASSERT_OK(r);
  const RunResult& res = r->jobs[0].result;
  ASSERT_OK(res.failure);
  EXPECT_EQ(Counter(res, kFioWrites), 256u);
  EXPECT_EQ(Counter(res, kFioReads), 256u);
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

TEST(FioJobTest, DepthAndBatchBucketsAreFiosTables) {
  // iodepth_level: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64.
  EXPECT_EQ(FioDepthBucket(1), 0);
  EXPECT_EQ(FioDepthBucket(3), 1);
  EXPECT_EQ(FioDepthBucket(4), 2);
  EXPECT_EQ(FioDepthBucket(32), 5);
  EXPECT_EQ(FioDepthBucket(63), 5);
  EXPECT_EQ(FioDepthBucket(64), 6);
  EXPECT_EQ(FioDepthBucket(1000), 6);
  // iodepth_submit/complete: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64.
  EXPECT_EQ(FioBatchBucket(0), 0);
  EXPECT_EQ(FioBatchBucket(1), 1);
  EXPECT_EQ(FioBatchBucket(4), 1);
  EXPECT_EQ(FioBatchBucket(5), 2);
  EXPECT_EQ(FioBatchBucket(16), 3);
  EXPECT_EQ(FioBatchBucket(64), 5);
  EXPECT_EQ(FioBatchBucket(65), 6);
}

// Runs the job alone; `lat_log`: its lat log's lines, when it logs.
RunResult RunOne(FioJobSettings s, std::vector<FioLogLine>* lat_log = nullptr) {
  FioJobWorkload w(std::move(s), DefaultFileSystem());
  EXPECT_OK(w.Prepare(PrepareContext{}));
  std::vector<JobGroup> groups(1);
  groups[0].jobs.push_back(Job{"j", &w, OneThread(), {}, nullptr});
  auto r = RunJobs(groups);
  EXPECT_OK(r);
  if (lat_log != nullptr && w.log() != nullptr) *lat_log = w.log()->Lines(FioLogKind::kLat);
  return r.ok() ? r->jobs[0].result : RunResult{};
}

TEST(FioJobTest, ThinktimeBlocksSpacesTheIosAndCapsTheDepth) {
  TempDir dir;
  FioJobSettings s = Settings("think", dir / "never", uint64_t{1} << 30, 4096);
  s.engine = "null";
  s.iodepth = 8;
  s.io_limit = 20;
  s.thinktime_ns = 20 * kNanosPerMilli;
  s.thinktime_blocks = 5;
  const RunResult r = RunOne(s);
  EXPECT_OK(r.failure);
  EXPECT_EQ(r.events, 20u);
  // 5 I/Os, a think, 5, a think, 5, a think, 5: never more than 5 in flight
  // (depth bucket 4-7 used, 8-15 not), and at least three thinks of time.
  EXPECT_GT(Counter(r, FioCounter(kFioDepthLevel + 2)), 0u);
  EXPECT_EQ(Counter(r, FioCounter(kFioDepthLevel + 3)), 0u);
  EXPECT_GE(r.total_time_s, 0.060);

  // Without the think time the queue fills to 8.
  s.thinktime_ns = 0;
  const RunResult free = RunOne(s);
  EXPECT_GT(Counter(free, FioCounter(kFioDepthLevel + 3)), 0u);
}

TEST(FioJobTest, EachDirectionKeepsItsOwnRate) {
  TempDir dir;
  FioJobSettings s = Settings("rate", dir / "never", uint64_t{1} << 30, 4096);
  s.engine = "null";
  s.pattern.random = true;
  s.pattern.dirs = {true, true, false};
  s.pattern.read_pct = 50;
  s.io_limit = 250;
  // rate_iops=400,100: reads at 400/s and writes at 100/s whatever the 50/50
  // mix says (fio's rule: a direction ahead of its rate gives way).
  s.rate_bytes = {400 * 4096, 100 * 4096, 0};
  const RunResult r = RunOne(s);
  EXPECT_OK(r.failure);
  EXPECT_EQ(r.events, 250u);
  EXPECT_GT(Counter(r, kFioReads), Counter(r, kFioWrites));
  // The 4:1 split holds when the schedules were kept; a process stalled for
  // a good part of the run (a loaded machine, under Wine) finds both
  // directions behind, and then the mix decides, as in fio.
  if (r.total_time_s < 0.75) {
    EXPECT_NEAR(static_cast<double>(Counter(r, kFioReads)), 200, 20);
    EXPECT_NEAR(static_cast<double>(Counter(r, kFioWrites)), 50, 20);
  }
  // 250 I/Os at 500 per second take about half a second, never less than
  // the schedule's 0.49 s (a lower bound: the schedule cannot be beaten).
  EXPECT_GE(r.total_time_s, 0.45);
  // Open loop: each I/O's service time is recorded beside its latency.
  ASSERT_TRUE(r.service.has_value());
  EXPECT_EQ(r.service->histogram.Count(), 250u);
}

// The offsets a null-engine job issued with `depth` requests in flight
// under DiskSpd's sequence (4 KiB stride), each per-request (-p) or not,
// counted by offset (KiB): read from the job's log of each I/O.
std::map<uint64_t, int> SequenceOffsets(bool per_request, uint32_t depth) {
  TempDir dir;
  FioJobSettings s = Settings("seq", dir / "never", uint64_t{1} << 20, 4096);
  s.engine = "null";
  s.iodepth = depth;
  s.io_limit = 64;
  s.pattern.single_sequence.on = true;
  s.pattern.single_sequence.stride = 4096;
  s.pattern.single_sequence.per_request = per_request;
  s.logs.lat = true;
  s.logs.offset = true;
  std::vector<FioLogLine> lines;
  EXPECT_OK(RunOne(s, &lines).failure);
  std::map<uint64_t, int> by_offset;
  for (const FioLogLine& l : lines) {
    EXPECT_EQ(l.offset % 4096, 0u);
    ++by_offset[l.offset / 1024];
  }
  return by_offset;
}

TEST(FioJobTest, DiskspdParallelRequestsEachWalkTheSequenceFromTheStart) {
  // -p -o4: every request starts at the thread's offset and walks on by
  // itself, so offset 0 is read by all four, and each offset by at most
  // four, fewer further on (a request that completes sooner runs ahead).
  const std::map<uint64_t, int> parallel = SequenceOffsets(true, 4);
  int total = 0;
  int before = 4;
  for (const auto& [kib, n] : parallel) {
    EXPECT_LE(n, before) << kib << " KiB";
    before = n;
    total += n;
  }
  EXPECT_EQ(total, 64);
  ASSERT_TRUE(parallel.contains(0));
  EXPECT_EQ(parallel.at(0), 4);
  // Without -p the thread's requests share one sequence: each offset once.
  const std::map<uint64_t, int> shared = SequenceOffsets(false, 4);
  EXPECT_EQ(shared.size(), 64u);
  for (const auto& [kib, n] : shared) EXPECT_EQ(n, 1) << kib << " KiB";
}

// rw=read:8k, bs=4k, size=64k (6 reads a pass): the job's passes end and
// begin as fio 3.33's (loops=2: 12 reads; io_size=96k: 24; number_ios=8
// with io_size=96k: 8), and rw=rw:8k ends once a direction is done.
TEST(FioJobTest, AForwardSkipEndsItsPassesAsFiosDo) {
  TempDir dir;
  const auto run = [&](uint32_t loops, uint64_t io_size, uint64_t number_ios, bool mixed) {
    FioJobSettings s = Settings("holes", dir / "never", 64 << 10, 4096);
    s.engine = "null";
    s.byte_limit = 0;
    s.pattern.seq_skip = 8192;
    if (mixed) s.pattern.dirs = {true, true, false};
    s.passes.on = true;
    s.passes.loops = loops;
    s.passes.pass_bytes = io_size != 0 ? io_size : 64 << 10;
    s.passes.io_size_given = io_size != 0;
    s.passes.number_ios = number_ios;
    return RunOne(s);
  };
  EXPECT_EQ(run(1, 0, 0, false).events, 6u);
  EXPECT_EQ(run(2, 0, 0, false).events, 12u);
  EXPECT_EQ(run(1, 96 << 10, 0, false).events, 24u);
  EXPECT_EQ(run(1, 96 << 10, 8, false).events, 8u);
  const RunResult rw = run(1, 0, 0, true);
  const uint64_t reads = Counter(rw, kFioReads), writes = Counter(rw, kFioWrites);
  EXPECT_TRUE(reads == 6 || writes == 6) << reads << " reads, " << writes << " writes";
  EXPECT_LE(std::max(reads, writes), 6u);
  EXPECT_EQ(rw.events, reads + writes);
}

// rw=write:8k, bs=4k, size=64k with verify (fio 3.33): each pass of 6
// writes is read back before the next is decided, and the reads count: 6
// writes, 6 reads, 6 writes, 6 reads.
TEST(FioJobTest, AForwardSkipWithVerifyVerifiesEachPassAsFiosDo) {
  TempDir dir;
  FioJobSettings s = Settings("v", dir / "v.0.0", 64 << 10, 4096);
  s.pattern.dirs = {false, true, false};
  s.pattern.seq_skip = 8192;
  s.verify = FioVerifyKind::kCrc32c;
  s.byte_limit = 0;
  s.passes.on = true;
  s.passes.pass_bytes = 64 << 10;
  s.passes.verifies = true;
  const RunResult res = RunOne(s);
  ASSERT_OK(res.failure);
  EXPECT_EQ(Counter(res, kFioWrites), 12u);
  EXPECT_EQ(Counter(res, kFioReads), 12u);
}

}  // namespace
}  // namespace loadcell
