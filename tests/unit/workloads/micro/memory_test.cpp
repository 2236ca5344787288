#include "workloads/micro/memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "runner/recorder.h"
#include "testing/status.h"
#include "testing/workload_test_util.h"

namespace loadcell {
namespace {

using Args = std::vector<std::pair<std::string, std::string>>;

// A worker over a local block, created through the workload.
std::unique_ptr<MemoryWorker> LocalWorker(MemoryWorkload& w, const Args& extra,
                                          ThreadRecorder* recorder = nullptr) {
  Args args = {{"memory-scope", "local"}};
  args.insert(args.end(), extra.begin(), extra.end());
  Status s = testing::Configure(w, args);
  EXPECT_OK(s);
  EXPECT_OK(w.Init(1));
  ThreadContext ctx;
  ctx.seed = 42;
  ctx.recorder = recorder;
  auto worker = w.NewWorker(ctx);
  EXPECT_OK(worker);
  if (!worker.ok()) return nullptr;
  return std::unique_ptr<MemoryWorker>(
      static_cast<MemoryWorker*>(std::move(worker).value().release()));
}

TEST(MemoryWorker, SequentialWriteStoresEveryWord) {
  for (const char* size : {"8", "16", "64", "4K", "1M"}) {
    MemoryWorkload w;
    auto worker = LocalWorker(w, {{"memory-block-size", size}, {"memory-oper", "write"}});
    ASSERT_NE(worker, nullptr);
    ASSERT_EQ(worker->block().size() * 8, w.block_size()) << size;
    for (int event = 1; event <= 2; ++event) {
      ASSERT_OK(worker->RunEvent());
      const uint64_t v = worker->last_written();
      ASSERT_EQ(v, static_cast<uint64_t>(event));
      for (size_t i = 0; i < worker->block().size(); ++i) {
        ASSERT_EQ(worker->block()[i], v) << "block " << size << " word " << i;
      }
    }
  }
}

TEST(MemoryWorker, SequentialReadLoadsEveryWord) {
  for (const char* size : {"8", "64", "4K"}) {
    MemoryWorkload w;
    auto worker = LocalWorker(w, {{"memory-block-size", size}, {"memory-oper", "read"}});
    ASSERT_NE(worker, nullptr);
    auto block = worker->block();
    // A single non-zero word must show up in the XOR of what was read,
    // wherever it sits (including the tail after the unrolled loop).
    for (size_t k = 0; k < block.size(); ++k) {
      std::memset(block.data(), 0, block.size_bytes());
      block[k] = 0x9E3779B97F4A7C15ULL ^ k;
      ASSERT_OK(worker->RunEvent());
      ASSERT_EQ(worker->last_read(), 0x9E3779B97F4A7C15ULL ^ k)
          << "block " << size << " word " << k;
    }
    // A read event leaves the block unchanged.
    for (size_t i = 0; i < block.size(); ++i) block[i] = i * 3 + 1;
    uint64_t expect = 0;
    for (size_t i = 0; i < block.size(); ++i) expect ^= block[i];
    ASSERT_OK(worker->RunEvent());
    EXPECT_EQ(worker->last_read(), expect);
    for (size_t i = 0; i < block.size(); ++i) ASSERT_EQ(block[i], i * 3 + 1);
  }
}

TEST(MemoryWorker, NoneTouchesNothing) {
  MemoryWorkload w;
  auto worker = LocalWorker(w, {{"memory-block-size", "1K"}, {"memory-oper", "none"}});
  ASSERT_NE(worker, nullptr);
  ASSERT_OK(worker->RunEvent());
  for (uint64_t word : worker->block()) ASSERT_EQ(word, 0u);
}

TEST(MemoryWorker, RandomWritesLandInsideTheBlock) {
  MemoryWorkload w;
  auto worker = LocalWorker(
      w, {{"memory-block-size", "64"}, {"memory-oper", "write"}, {"memory-access-mode", "rnd"}});
  ASSERT_NE(worker, nullptr);
  // 100 events of 8 random stores over 8 words: every word is hit (the seed
  // is fixed, so this is deterministic), and only with values written.
  for (int i = 0; i < 100; ++i) ASSERT_OK(worker->RunEvent());
  for (uint64_t word : worker->block()) {
    EXPECT_GE(word, 1u);
    EXPECT_LE(word, worker->last_written());
  }
}

TEST(MemoryWorker, RandomReadSeesOnlyBlockWords) {
  MemoryWorkload w;
  auto worker = LocalWorker(
      w, {{"memory-block-size", "8"}, {"memory-oper", "read"}, {"memory-access-mode", "rnd"}});
  ASSERT_NE(worker, nullptr);
  worker->block()[0] = 0xABCD;
  // One word, one access per event: the XOR is that word.
  ASSERT_OK(worker->RunEvent());
  EXPECT_EQ(worker->last_read(), 0xABCDu);
}

TEST(MemoryWorker, CountsBytesThroughRecorder) {
  MemoryWorkload w;
  ThreadRecorder recorder(0);
  auto worker = LocalWorker(w, {{"memory-block-size", "4K"}}, &recorder);
  ASSERT_NE(worker, nullptr);
  for (int i = 0; i < 3; ++i) ASSERT_OK(worker->RunEvent());
  EXPECT_EQ(recorder.counter(0), 3u * 4096u);
  EXPECT_EQ(w.Info().counter_names, std::vector<std::string>{"bytes"});
}

TEST(MemoryWorkload, GlobalScopeSharesOneBlock) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {{"memory-block-size", "4K"}}, 2));
  ASSERT_OK(w.Init(2));
  ThreadContext c0, c1;
  c1.thread_id = 1;
  auto a = w.NewWorker(c0);
  auto b = w.NewWorker(c1);
  ASSERT_TRUE(a.ok() && b.ok());
  auto* wa = static_cast<MemoryWorker*>(a->get());
  auto* wb = static_cast<MemoryWorker*>(b->get());
  EXPECT_EQ(wa->block().data(), wb->block().data());
  ASSERT_OK(wa->RunEvent());
  for (uint64_t word : wb->block()) ASSERT_EQ(word, wa->last_written());
  EXPECT_OK(w.Done());
}

TEST(MemoryWorkload, LocalScopeGivesEachWorkerItsOwnBlock) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {{"memory-scope", "local"}}, 2));
  ASSERT_OK(w.Init(2));
  auto a = w.NewWorker(ThreadContext{});
  auto b = w.NewWorker(ThreadContext{});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(static_cast<MemoryWorker*>(a->get())->block().data(),
            static_cast<MemoryWorker*>(b->get())->block().data());
}

TEST(MemoryWorkload, BudgetSplitsTotalSizeAcrossThreads) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  // Defaults: 100G / 1K.
  EventBudget one = w.Budget(1);
  EXPECT_EQ(one.per_thread, 104857600u);
  EXPECT_EQ(one.total, 104857600u);
  // Like sysbench 1.0: each thread gets total / block / threads events.
  EventBudget three = w.Budget(3);
  EXPECT_EQ(three.per_thread, 34952533u);
  EXPECT_EQ(three.total, 3u * 34952533u);

  MemoryWorkload w2;
  ASSERT_OK(testing::Configure(w2, {{"memory-block-size", "1M"}, {"memory-total-size", "10G"}}, 4));
  EXPECT_EQ(w2.Budget(4).per_thread, 2560u);
  EXPECT_EQ(w2.Budget(4).total, 10240u);

  MemoryWorkload unlimited;
  ASSERT_OK(testing::Configure(unlimited, {{"memory-total-size", "0"}}));
  EXPECT_EQ(unlimited.Budget(8).total, 0u);
  EXPECT_EQ(unlimited.Budget(8).per_thread, 0u);
}

void ExpectRejected(const Args& args, const std::string& option, int threads = 1) {
  MemoryWorkload w;
  Status s = testing::Configure(w, args, threads);
  ASSERT_FALSE(s.ok()) << option;
  EXPECT_TRUE(s.IsUsageError()) << s.ToString();
  EXPECT_NE(s.message().find(option), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

TEST(MemoryWorkload, ValidationNamesTheOption) {
  ExpectRejected({{"memory-block-size", "3"}}, "--memory-block-size");
  ExpectRejected({{"memory-block-size", "4"}}, "--memory-block-size");
  ExpectRejected({{"memory-block-size", "0"}}, "--memory-block-size");
  ExpectRejected({{"memory-block-size", "12K"}}, "--memory-block-size");
  ExpectRejected({{"memory-scope", "shared"}}, "--memory-scope");
  ExpectRejected({{"memory-oper", "copy"}}, "--memory-oper");
  ExpectRejected({{"memory-access-mode", "random"}}, "--memory-access-mode");
  ExpectRejected({{"memory-total-size", "1K"}}, "--memory-total-size", 2);
}

TEST(MemoryWorkload, NonPowerOfTwoBlockSaysWhatIsValid) {
  MemoryWorkload w;
  Status s = testing::Configure(w, {{"memory-block-size", "12"}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("--memory-block-size=12"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("power of two"), std::string::npos) << s.message();
}

TEST(MemoryWorkload, AcceptsSysbenchSizes) {
  for (const char* size : {"8", "1K", "1M", "1G"}) {
    MemoryWorkload w;
    EXPECT_OK(testing::Configure(w, {{"memory-block-size", size}})) << size;
  }
}

TEST(MemoryWorkload, MetricsAndTextSection) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {}));
  RunResult r;
  r.events = 1024;
  r.total_time_s = 2;
  EXPECT_EQ(w.TextSection(r),
            "Total operations: 1024 (  512.00 per second)\n\n"
            "1.00 MiB transferred (0.50 MiB/sec)\n");
  auto m = w.Metrics(r);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].key, "operations_per_second");
  EXPECT_DOUBLE_EQ(m[0].value, 512);
  EXPECT_EQ(m[1].key, "mib_transferred");
  EXPECT_DOUBLE_EQ(m[1].value, 1);
  EXPECT_EQ(m[2].key, "mib_per_second");
  EXPECT_DOUBLE_EQ(m[2].value, 0.5);

  MemoryWorkload none;
  ASSERT_OK(testing::Configure(none, {{"memory-oper", "none"}}));
  EXPECT_EQ(none.TextSection(r), "Total operations: 1024 (  512.00 per second)\n");
  EXPECT_EQ(none.Metrics(r).size(), 1u);
}

TEST(MemoryWorkload, IntervalLineIsMiBPerSecond) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {{"memory-block-size", "1M"}}));
  IntervalSnapshot s;
  s.events = 3000;
  s.duration_s = 2;
  EXPECT_EQ(w.IntervalLine(s, 95), "1500.00 MiB/sec");
}

TEST(MemoryWorkload, WarnsWhenBlockFitsInCache) {
  MemoryWorkload small;
  ASSERT_OK(testing::Configure(small, {{"memory-block-size", "1K"}}));
  auto warnings = small.Warnings(1);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("cache"), std::string::npos);
  EXPECT_NE(warnings[0].find("--memory-block-size"), std::string::npos);

  MemoryWorkload huge;
  ASSERT_OK(testing::Configure(huge, {{"memory-block-size", "4G"}}));
  EXPECT_TRUE(huge.Warnings(1).empty());

  MemoryWorkload none;
  ASSERT_OK(testing::Configure(none, {{"memory-oper", "none"}}));
  EXPECT_TRUE(none.Warnings(1).empty());
}

TEST(MemoryBlock, MapsZeroedPageAlignedMemory) {
  auto block = MemoryBlock::Map(12 * 8, false);
  ASSERT_OK(block);
  EXPECT_EQ(block->word_count(), 12u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(block->words()) % 4096, 0u);
  for (size_t i = 0; i < block->word_count(); ++i) EXPECT_EQ(block->words()[i], 0u);
  EXPECT_FALSE(MemoryBlock::Map(12, false).ok());
}

TEST(MemoryBlock, HugePagesWorkOrFailClearly) {
  auto block = MemoryBlock::Map(4096, true);
  if (block.ok()) {
    block->words()[0] = 1;
    EXPECT_EQ(block->word_count(), 512u);
  } else {
    EXPECT_NE(block.status().message().find("--memory-hugetlb"), std::string::npos)
        << block.status().ToString();
  }
}

TEST(MemoryWorkload, DescribeListsWhatWillBeDone) {
  MemoryWorkload w;
  ASSERT_OK(testing::Configure(w, {{"memory-total-size", "10G"}, {"memory-oper", "read"}}));
  auto d = w.Describe();
  ASSERT_GE(d.size(), 5u);
  // sysbench's heading, then its indented lines, sizes in its units.
  EXPECT_EQ(d[0].first, "Running memory speed test with the following options:");
  EXPECT_EQ(d[1], std::make_pair(std::string("  block size"), std::string("1KiB")));
  EXPECT_EQ(d[2], std::make_pair(std::string("  total size"), std::string("10240MiB")));
  EXPECT_EQ(d[3], std::make_pair(std::string("  operation"), std::string("read")));
  EXPECT_EQ(d[4], std::make_pair(std::string("  scope"), std::string("global")));
}

}  // namespace
}  // namespace loadcell
