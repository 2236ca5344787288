// fileio: option checks, the data patterns and stamps, and the request plan
// (sysbench's sequence, fsync schedule and rw ratio).

#include "workloads/fileio/fileio_options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/build_features.h"
#include "io/io_engine.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"
#include "workloads/fileio/fileio_data.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {
namespace {

using testing::BufferedAsyncEngine;
using testing::Configure;
using testing::FileIoArgs;
using testing::TempDir;
using testing::WithSmallFiles;

Status ConfigureIn(FileIoWorkload& w, const std::string& dir, FileIoArgs args) {
  return Configure(w, WithSmallFiles(dir, std::move(args)));
}

TEST(FileIoOptions, DefaultsAreSysbenchs) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(Configure(w, {{"file-dir", dir.path()}}));
  const FileIoSettings& s = w.settings();
  EXPECT_EQ(s.num_files, 128u);
  EXPECT_EQ(s.total_size, 2ULL << 30);
  EXPECT_EQ(s.file_size, 16ULL << 20);
  EXPECT_EQ(s.block_size, 16384u);
  EXPECT_EQ(s.fsync_freq, 100u);
  EXPECT_TRUE(s.fsync_end);
  EXPECT_FALSE(s.fsync_all);
  EXPECT_DOUBLE_EQ(s.rw_ratio, 1.5);
  EXPECT_EQ(s.engine, "sync");
  EXPECT_EQ(s.queue_depth, 1u);
  EXPECT_EQ(s.queue_depth_asked, 128u);
  EXPECT_EQ(s.pattern, WritePattern::kRandom);
  EXPECT_FALSE(s.mode_given);
}

TEST(FileIoOptions, FsyncAllOverridesFreqAndEnd) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(ConfigureIn(w, dir.path(), {{"file-fsync-all", "on"}}));
  EXPECT_EQ(w.settings().fsync_freq, 0u);
  EXPECT_FALSE(w.settings().fsync_end);
}

// async is the platform's asynchronous engine: libaio on Linux, iocp on
// Windows.
TEST(FileIoOptions, AsyncIsThePlatformsEngineAndAsyncBacklogIsTheQueueDepth) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(ConfigureIn(
      w, dir.path(),
      {{"file-io-mode", "async"}, {"file-extra-flags", "direct"}, {"file-async-backlog", "7"}}));
  EXPECT_EQ(w.settings().engine, AsyncIoEngineName());
  EXPECT_EQ(w.settings().engine, LOADCELL_WINDOWS ? "iocp" : "libaio");
  EXPECT_EQ(w.settings().queue_depth, 7u);
  EXPECT_TRUE(w.settings().direct);
  EXPECT_EQ(w.settings().OpenFlagsText(), "O_RDWR|O_DIRECT");
}

// sysbench runs --file-io-mode=async without direct (libaio on buffered
// files): so does loadcell, saying so, instead of refusing the command line.
// On Windows async is iocp, which keeps buffered requests in flight as it
// does unbuffered ones: nothing to say.
TEST(FileIoOptions, AsyncWithoutDirectRunsBufferedAsSysbenchDoes) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(ConfigureIn(w, dir.path(), {{"file-io-mode", "async"}}));
  EXPECT_FALSE(w.settings().direct);
  EXPECT_EQ(w.settings().queue_depth, 128u);
  if (LOADCELL_WINDOWS) {
    EXPECT_EQ(w.settings().engine, "iocp");
    EXPECT_FALSE(w.settings().buffered_aio);
    EXPECT_EQ(w.settings().engine_note, "");
  } else {
    EXPECT_EQ(w.settings().engine, "libaio");
    EXPECT_TRUE(w.settings().buffered_aio);
    EXPECT_NE(w.settings().engine_note.find("as sysbench runs it"), std::string::npos);
  }
}

// Which writes stamp their blocks: all but zeros and the sequence without
// --validate, and blocks too short for a stamp; and --file-use-existing.
TEST(FileIoOptions, WhichWritesStampAndUseExisting) {
  TempDir dir;
  struct Case {
    FileIoArgs args;
    bool stamps;
    UseExisting existing;
  };
  const std::vector<Case> cases = {
      {{}, true, UseExisting::kOff},
      {{{"file-write-pattern", "zero"}}, false, UseExisting::kOff},
      {{{"file-write-pattern", "sequence"}}, false, UseExisting::kOff},
      {{{"file-write-pattern", "zero"}, {"validate", "on"}}, true, UseExisting::kOff},
      {{{"file-block-size", "32"}}, false, UseExisting::kOff},
      {{{"file-use-existing", "on"}}, true, UseExisting::kRead},
      {{{"file-use-existing", "write"}}, true, UseExisting::kWrite},
  };
  for (const Case& c : cases) {
    FileIoWorkload w;
    ASSERT_OK(ConfigureIn(w, dir.path(), c.args));
    EXPECT_EQ(w.settings().stamp_writes, c.stamps) << c.args.size();
    EXPECT_EQ(w.settings().use_existing, c.existing) << c.args.size();
  }
}

// libaio without direct: refused unless --file-io-fallback=on, which runs
// io_uring. On Windows libaio is a Linux engine, refused either way.
TEST(FileIoOptions, LibaioWithoutDirectFallsBackOnlyWhenAllowed) {
  TempDir dir;
  FileIoWorkload w;
  Status s = ConfigureIn(w, dir.path(), {{"file-io-mode", "libaio"}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find(LOADCELL_WINDOWS ? "is a Linux engine" : "direct"), std::string::npos)
      << s.message();
  FileIoWorkload w2;
  s = ConfigureIn(w2, dir.path(), {{"file-io-mode", "libaio"}, {"file-io-fallback", "on"}});
  if (LOADCELL_WINDOWS) {
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("libaio is a Linux engine; on Windows use iocp"), std::string::npos)
        << s.message();
  } else {
    ASSERT_OK(s);
    EXPECT_EQ(w2.settings().engine, "io_uring");
    EXPECT_FALSE(w2.settings().engine_note.empty());
  }
}

TEST(FileIoOptions, BadInputIsOneLineUsageError) {
  TempDir dir;
  const std::vector<FileIoArgs> cases = {
      {{"file-block-size", "0"}},
      {{"file-block-size", "1000"}, {"file-extra-flags", "direct"}},
      {{"file-total-size", "1K"}, {"file-block-size", "4K"}},
      {{"file-num", "0"}},
      {{"file-test-mode", "rndfoo"}},
      {{"file-extra-flags", "direct,bogus"}},
      {{"file-fsync-mode", "sometimes"}},
      {{"file-io-mode", "posixaio"}},
      {{"file-dir", dir.File("does-not-exist")}},
      {{"file-rw-ratio", "-1"}},
      {{"file-queue-depth", "0"}},
      {{"file-submit-batch", "0"}},
      {{"validate", "on"}, {"file-block-size", "16"}},
  };
  for (const FileIoArgs& args : cases) {
    FileIoWorkload w;
    FileIoArgs full = args;
    bool has_dir = false;
    for (const auto& [n, v] : args) has_dir |= n == "file-dir";
    if (!has_dir) full = WithSmallFiles(dir.path(), args);
    Status s = Configure(w, full);
    EXPECT_FALSE(s.ok()) << args[0].first << "=" << args[0].second;
    EXPECT_TRUE(s.IsUsageError()) << s.ToString();
    EXPECT_EQ(s.ToString().find('\n'), std::string::npos) << s.ToString();
  }
}

TEST(FileIoOptions, SubmitBatchWithASynchronousEngineIsNoted) {
  TempDir dir;
  FileIoWorkload sync;
  ASSERT_OK(Configure(sync, WithSmallFiles(dir.path(), {{"file-submit-batch", "8"}})));
  const std::vector<std::string> notes = sync.Warnings(1);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("--file-submit-batch=8 has no effect"), std::string::npos) << notes[0];
  FileIoWorkload uring;
  ASSERT_OK(
      Configure(uring, WithSmallFiles(dir.path(), {{"file-submit-batch", "8"},
                                                   {"file-io-mode", BufferedAsyncEngine()}})));
  EXPECT_EQ(uring.settings().submit_batch, 8u);
  EXPECT_TRUE(uring.Warnings(1).empty());
  // The header says the batch that can happen: never more than the depth.
  for (auto [batch, said] : {std::pair<const char*, const char*>{"8", "up to 4 requests per"},
                             {"2", "up to 2 requests per"},
                             {"1", "each request per"}}) {
    FileIoWorkload w;
    ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-submit-batch", batch},
                                                       {"file-queue-depth", "4"},
                                                       {"file-io-mode", BufferedAsyncEngine()}})));
    std::string engine;
    for (const auto& [k, v] : w.Describe()) {
      if (k == "I/O engine") engine = v;
    }
    EXPECT_NE(engine.find(said), std::string::npos) << batch << ": " << engine;
  }
}

TEST(FileIoOptions, DirThatIsAFileIsRejected) {
  TempDir dir;
  FILE* f = std::fopen(dir.File("plain").c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  FileIoWorkload w;
  Status s = Configure(w, {{"file-dir", dir.File("plain")}});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("not a directory"), std::string::npos);
}

TEST(FileIoData, SequencePatternHoldsEachWordsOffset) {
  std::vector<unsigned char> a(64), b(61);
  FillSequence(a.data(), a.size(), 4096);
  uint64_t w;
  std::memcpy(&w, a.data() + 8, 8);
  EXPECT_EQ(w, 4104u);
  // An unaligned start gives the same bytes as the aligned fill.
  FillSequence(b.data(), b.size(), 4099);
  EXPECT_EQ(0, std::memcmp(b.data(), a.data() + 3, b.size()));
}

TEST(FileIoData, UniqueSectorsDifferAcrossWritesAndKeepTheRest) {
  Random rng(5);
  std::vector<unsigned char> base(16384 + 100);
  FillRandom(base.data(), base.size(), rng);
  std::set<std::string> sectors;
  size_t total = 0;
  for (uint64_t tag = 1; tag <= 50; ++tag) {
    std::vector<unsigned char> buf = base;
    MakeSectorsUnique(buf.data(), buf.size(), tag);
    for (size_t i = 0; i < buf.size(); i += kUniqueSectorBytes) {
      const size_t n = std::min(kUniqueSectorBytes, buf.size() - i);
      if (n >= 8) {
        // Only the first 8 bytes of a sector change.
        EXPECT_NE(0, std::memcmp(buf.data() + i, base.data() + i, 8)) << "tag " << tag;
        EXPECT_EQ(0, std::memcmp(buf.data() + i + 8, base.data() + i + 8, n - 8));
      } else {
        EXPECT_EQ(0, std::memcmp(buf.data() + i, base.data() + i, n));  // a tail below 8 bytes
      }
      sectors.insert(std::string(reinterpret_cast<const char*>(buf.data() + i), n));
      ++total;
    }
  }
  // No two sectors of 50 writes of the same buffer are alike.
  EXPECT_EQ(sectors.size(), total);
}

TEST(FileIoData, StampsRoundTripAndCatchDamage) {
  Random rng(3);
  std::vector<unsigned char> buf(3 * 4096 + 100);
  FillRandom(buf.data(), buf.size(), rng);
  // Three full blocks and a partial one, at file offset 8192.
  StampBlocks(buf.data(), buf.size(), 2, 8192, 4096, 77);
  for (size_t b = 0; b < 4; ++b) {
    const size_t len = b < 3 ? 4096 : 100;
    uint64_t seq = 0;
    EXPECT_EQ(CheckBlock(buf.data() + b * 4096, len, 2, 8192 + b * 4096, &seq), "");
    EXPECT_EQ(seq, 77u);
  }
  uint64_t seq = 0;
  // Wrong place: a misplaced write.
  EXPECT_NE(CheckBlock(buf.data(), 4096, 2, 4096, &seq).find("misplaced"), std::string::npos);
  EXPECT_NE(CheckBlock(buf.data(), 4096, 3, 8192, &seq), "");
  // One flipped bit in the payload or in the header.
  buf[1000] ^= 0x10;
  EXPECT_NE(CheckBlock(buf.data(), 4096, 2, 8192, &seq).find("checksum"), std::string::npos);
  buf[1000] ^= 0x10;
  buf[4096 + 17] ^= 1;  // the sequence number of block 1
  EXPECT_NE(CheckBlock(buf.data() + 4096, 4096, 2, 12288, &seq), "");
  std::vector<unsigned char> zeros(4096, 0);
  EXPECT_NE(CheckBlock(zeros.data(), zeros.size(), 0, 0, &seq).find("no block stamp"),
            std::string::npos);
}

// The light stamp every write puts without --validate: CheckBlock takes
// it; it catches a misplaced block and a torn one (a sector from another
// write), and a block shorter than a stamp is left alone.
TEST(FileIoData, LightStampsRoundTripAndCatchTornBlocks) {
  Random rng(5);
  std::vector<unsigned char> buf(2 * 16384 + 16);
  FillRandom(buf.data(), buf.size(), rng);
  MakeSectorsUnique(buf.data(), buf.size(), 9);
  const std::vector<unsigned char> before_tail(buf.end() - 16, buf.end());
  StampBlocksLight(buf.data(), buf.size(), 1, 16384, 16384, 5);
  uint64_t seq = 0;
  for (size_t b = 0; b < 2; ++b) {
    EXPECT_EQ(CheckBlock(buf.data() + b * 16384, 16384, 1, 16384 + b * 16384, &seq), "") << b;
    EXPECT_EQ(seq, 5u);
  }
  EXPECT_EQ(std::vector<unsigned char>(buf.end() - 16, buf.end()), before_tail);
  EXPECT_NE(CheckBlock(buf.data(), 16384, 1, 0, &seq).find("misplaced"), std::string::npos);
  // Sector 7 of block 0 from another write: its unique word differs.
  std::vector<unsigned char> other(512);
  FillRandom(other.data(), other.size(), rng);
  MakeSectorsUnique(other.data(), other.size(), 10);
  std::copy(other.begin(), other.end(), buf.begin() + 7 * 512);
  EXPECT_NE(CheckBlock(buf.data(), 16384, 1, 16384, &seq).find("light stamp checksum"),
            std::string::npos);
}

FileIoSettings PlanSettings(FileTestMode mode, uint64_t files, uint64_t file_size, uint64_t block,
                            uint64_t merged, uint64_t fsync_freq) {
  FileIoSettings s;
  s.mode = mode;
  s.mode_given = true;
  s.num_files = files;
  s.file_size = file_size;
  s.block_size = block;
  s.merged_requests = merged;
  s.request_size = block * (merged > 0 ? merged : 1);
  s.blocks_per_file = (file_size + block - 1) / block;
  s.total_blocks = s.blocks_per_file * files;
  s.seq_requests_per_file = (file_size + s.request_size - 1) / s.request_size;
  s.fsync_freq = fsync_freq;
  return s;
}

TEST(FileIoPlan, SequentialModesWalkTheFilesInOrderAndWrap) {
  // 2 files of 10000 bytes, 4096-byte blocks: 4096, 4096, 1808 per file.
  FileIoSettings s = PlanSettings(FileTestMode::kSeqRead, 2, 10000, 4096, 0, 0);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(1);
  const std::vector<std::tuple<uint32_t, uint64_t, uint32_t>> expected = {
      {0, 0, 4096},    {0, 4096, 4096}, {0, 8192, 1808}, {1, 0, 4096},
      {1, 4096, 4096}, {1, 8192, 1808}, {0, 0, 4096},  // back to the first file
  };
  for (const auto& [file, offset, length] : expected) {
    FileIoPlan p = shared.Next(false, rng, nullptr);
    EXPECT_EQ(p.op, IoOp::kRead);
    EXPECT_EQ(p.file, file);
    EXPECT_EQ(p.offset, offset);
    EXPECT_EQ(p.length, length);
  }
}

TEST(FileIoPlan, MergedRequestsCoverSeveralBlocks) {
  FileIoSettings s = PlanSettings(FileTestMode::kSeqRewrite, 1, 20480, 4096, 3, 0);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(1);
  FileIoPlan a = shared.Next(true, rng, nullptr);
  FileIoPlan b = shared.Next(true, rng, nullptr);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(a.length, 12288u);
  EXPECT_EQ(b.offset, 12288u);
  EXPECT_EQ(b.length, 8192u);  // clipped at the end of the file
  EXPECT_EQ(b.op, IoOp::kWrite);
}

TEST(FileIoPlan, PeriodicFsyncIsSysbenchsGlobalSchedule) {
  // After every 5 requests, once something was written: one fsync per file.
  FileIoSettings s = PlanSettings(FileTestMode::kRndWrite, 3, 65536, 4096, 0, 5);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(1);
  std::string ops;
  std::vector<uint32_t> fsynced;
  for (int i = 0; i < 16; ++i) {
    FileIoPlan p = shared.Next(true, rng, nullptr);
    ops += p.op == IoOp::kFsync ? 'F' : 'W';
    if (p.op == IoOp::kFsync) fsynced.push_back(p.file);
  }
  EXPECT_EQ(ops, "WWWWWFFFWWWWWFFF");
  EXPECT_EQ(fsynced, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2}));
}

TEST(FileIoPlan, ReadsNeverTriggerFsyncs) {
  FileIoSettings s = PlanSettings(FileTestMode::kRndRw, 2, 65536, 4096, 0, 2);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(1);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(shared.Next(false, rng, nullptr).op, IoOp::kRead);
  EXPECT_EQ(shared.Next(true, rng, nullptr).op, IoOp::kWrite);
  EXPECT_EQ(shared.Next(false, rng, nullptr).op, IoOp::kRead);
  EXPECT_EQ(shared.Next(false, rng, nullptr).op, IoOp::kFsync);  // 12 % 2 == 0 and dirty
}

TEST(FileIoPlan, RandomBlocksAreUniformAndAligned) {
  FileIoSettings s = PlanSettings(FileTestMode::kRndRead, 4, 8 * 4096, 4096, 0, 0);
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  Random rng(5);
  std::map<uint64_t, int> hits;
  const int n = 32000;
  for (int i = 0; i < n; ++i) {
    FileIoPlan p = shared.Next(false, rng, nullptr);
    ASSERT_LT(p.file, 4u);
    ASSERT_EQ(p.offset % 4096, 0u);
    ASSERT_EQ(p.length, 4096u);
    ++hits[p.file * 8 + p.offset / 4096];
  }
  ASSERT_EQ(hits.size(), 32u);
  for (const auto& [block, count] : hits) {
    EXPECT_GT(count, n / 32 / 2) << block;
    EXPECT_LT(count, n / 32 * 2) << block;
  }
}

TEST(FileIoPlan, ValidateClaimsKeepBlocksExclusive) {
  FileIoSettings s = PlanSettings(FileTestMode::kRndRw, 1, 4 * 4096, 4096, 0, 0);
  s.validate = true;
  FileIoShared shared(s, {});
  ASSERT_OK(shared.Init());
  FileIoPlan p;
  p.op = IoOp::kWrite;
  p.file = 0;
  p.offset = 4096;
  p.length = 8192;  // blocks 1 and 2
  EXPECT_TRUE(shared.Claim(p));
  FileIoPlan q = p;
  q.offset = 8192;
  q.length = 4096;
  EXPECT_FALSE(shared.Claim(q));
  shared.Release(p);
  EXPECT_TRUE(shared.Claim(q));
  EXPECT_EQ(shared.LastSeq(0, 8192), FileIoShared::kUnknownSeq);
  shared.SetLastSeq(0, 8192, 9);
  EXPECT_EQ(shared.LastSeq(0, 8192), 9u);
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

// A volume with 4 KiB sectors, whatever the temp folder is on.
class FourKSectorFileSystem final : public FileSystemWrapper {
 public:
  FourKSectorFileSystem() : FileSystemWrapper(DefaultFileSystem()) {}
  Result<uint32_t> SectorSize(const std::string& /*path*/) override { return uint32_t{4096}; }
};

TEST(FileIoOptions, DirectNeedsWholeSectorsOfTheFoldersVolume) {
  TempDir dir;
  FourKSectorFileSystem fs;
  FileIoWorkload misfit(fs);
  Status s = Configure(misfit, WithSmallFiles(dir.path(), {{"file-block-size", "2K"},
                                                           {"file-extra-flags", "direct"}}));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "--file-block-size=2K must be a multiple of 4096 bytes, the sector size "
            "of the volume holding " +
                dir.path() + ", for unbuffered I/O (--file-extra-flags=direct)");
  // Without direct the sector does not matter; with a whole sector it fits.
  FileIoWorkload buffered(fs);
  EXPECT_OK(Configure(buffered, WithSmallFiles(dir.path(), {{"file-block-size", "2K"}})));
  FileIoWorkload whole(fs);
  EXPECT_OK(Configure(whole, WithSmallFiles(dir.path(), {{"file-block-size", "8K"},
                                                         {"file-extra-flags", "direct"}})));
}

}  // namespace
}  // namespace loadcell
