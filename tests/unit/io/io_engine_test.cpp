#include "io/io_engine.h"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/build_features.h"
#include "core/build_info.h"
#include "os/file_system.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "unit/io/engine_test_util.h"

namespace loadcell {
namespace {

using testing::Buffer;
using testing::Fill;
using testing::kBlock;
using testing::kFileSize;
using testing::NewBuffer;
using testing::ReapAll;
using testing::ResultFor;
using testing::RunAll;
using testing::TempDir;

// One engine over files in a temp dir; libaio gets O_DIRECT files.
class EngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  bool NeedsDirect() const { return GetParam() == "libaio"; }

  // Creates `count` files of kFileSize (zeros) and opens the engine on them.
  // Sets skip_reason_ when O_DIRECT is refused by the temp filesystem.
  void OpenEngine(uint32_t depth, bool direct, int count = 2, int open_flags = O_RDWR,
                  std::span<unsigned char> region = {}) {
    Result<std::unique_ptr<IoEngine>> e = MakeIoEngine(GetParam(), DefaultFileSystem());
    ASSERT_OK(e);
    engine_ = std::move(e.value());
    FileSystem& fs = DefaultFileSystem();
    for (int i = 0; i < count; ++i) {
      IoFile f;
      f.path = dir_.File("file." + std::to_string(i));
      Result<int> create = fs.Open(f.path, O_RDWR | O_CREAT, 0644);
      ASSERT_OK(create);
      ASSERT_OK(fs.Truncate(*create, kFileSize));
      ASSERT_OK(fs.Close(*create));
      Result<int> fd = fs.Open(f.path, open_flags | (direct ? O_DIRECT : 0));
      if (!fd.ok() && direct && fd.status().err() == EINVAL) {
        skip_reason_ = "the temp filesystem (" + fs.FsType(dir_.path()) +
                       ") refuses O_DIRECT; set TMPDIR to a directory on one that supports it";
        return;
      }
      ASSERT_OK(fd);
      f.fd = *fd;
      f.size = kFileSize;
      files_.push_back(f);
    }
    EngineOptions opts;
    opts.queue_depth = depth;
    opts.direct = direct;
    opts.writable = (open_flags & O_ACCMODE) != O_RDONLY;
    opts.buffer_region = region;
    Status s = engine_->Open(files_, opts);
    ASSERT_OK(s);
  }

  void TearDown() override {
    if (engine_) {
      EXPECT_OK(engine_->Close());
    }
    for (const IoFile& f : files_) {
      EXPECT_OK(DefaultFileSystem().Close(f.fd));
    }
  }

  TempDir dir_;
  std::unique_ptr<IoEngine> engine_;
  std::vector<IoFile> files_;
  std::string skip_reason_;
};

#define SKIP_IF_NO_DIRECT()         \
  do {                              \
    if (!skip_reason_.empty()) {    \
      GTEST_SKIP() << skip_reason_; \
    }                               \
  } while (0)

TEST_P(EngineTest, NameAndCapabilities) {
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine(GetParam(), DefaultFileSystem());
  ASSERT_OK(e);
  EXPECT_EQ((*e)->Name(), GetParam());
  IoCapabilities c = (*e)->Capabilities();
  EXPECT_EQ(c.asynchronous,
            GetParam() == "io_uring" || GetParam() == "libaio" || GetParam() == "iocp");
  EXPECT_EQ(c.needs_direct, GetParam() == "libaio");
  EXPECT_GE(c.max_queue_depth, 1u);
  EXPECT_EQ(c.buffer_alignment, 4096u);
}

TEST_P(EngineTest, WriteFsyncReadBackAtSeveralOffsets) {
  OpenEngine(/*depth=*/4, NeedsDirect());
  SKIP_IF_NO_DIRECT();
  const uint64_t offsets[] = {0, 3 * kBlock, 64 * 1024, kFileSize - kBlock, 17 * kBlock};
  const size_t n = std::size(offsets) * files_.size();
  std::vector<Buffer> wbufs;
  std::vector<IoRequest> writes;
  for (size_t i = 0; i < n; ++i) {
    wbufs.push_back(NewBuffer(kBlock));
    Fill(wbufs.back().get(), kBlock, i + 1);
    IoRequest r;
    r.op = IoOp::kWrite;
    r.file = static_cast<int>(i % files_.size());
    r.offset = offsets[i / files_.size()];
    r.length = kBlock;
    r.buffer = wbufs.back().get();
    r.user_data = 100 + i;
    writes.push_back(r);
  }
  std::vector<IoCompletion> done = RunAll(*engine_, writes);
  ASSERT_EQ(done.size(), n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(ResultFor(done, 100 + i), kBlock) << i;

  std::vector<IoRequest> syncs;
  for (size_t f = 0; f < files_.size(); ++f) {
    IoRequest r;
    r.op = f % 2 == 0 ? IoOp::kFsync : IoOp::kFdatasync;
    r.file = static_cast<int>(f);
    r.user_data = 500 + f;
    syncs.push_back(r);
  }
  done = RunAll(*engine_, syncs);
  ASSERT_EQ(done.size(), files_.size());
  for (size_t f = 0; f < files_.size(); ++f) EXPECT_EQ(ResultFor(done, 500 + f), 0);

  std::vector<Buffer> rbufs;
  std::vector<IoRequest> reads = writes;
  for (size_t i = 0; i < n; ++i) {
    rbufs.push_back(NewBuffer(kBlock));
    reads[i].op = IoOp::kRead;
    reads[i].buffer = rbufs.back().get();
    reads[i].user_data = 1000 + i;
  }
  done = RunAll(*engine_, reads);
  ASSERT_EQ(done.size(), n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ResultFor(done, 1000 + i), kBlock);
    EXPECT_EQ(0, std::memcmp(rbufs[i].get(), wbufs[i].get(), kBlock)) << "block " << i;
  }
  EXPECT_EQ(engine_->InFlight(), 0u);

  // The data reached the files: read it back without the engine.
  std::vector<char> check(kBlock);
  FileSystem& fs = DefaultFileSystem();
  Result<int> fd = fs.Open(files_[1].path, O_RDONLY, 0);
  ASSERT_OK(fd);
  ASSERT_OK(ReadFully(fs, *fd, check.data(), kBlock, offsets[1], files_[1].path));
  ASSERT_OK(fs.Close(*fd));
  EXPECT_EQ(0, std::memcmp(check.data(), wbufs[1 * files_.size() + 1].get(), kBlock));
}

// EngineOptions::buffer_region (io_uring registers it): requests inside
// it, outside it and running past its end all read and write the right
// bytes. A request taken for one inside that is not (or the other way
// round) would fail with EFAULT or move the wrong bytes.
TEST_P(EngineTest, RequestsInsideOutsideAndAcrossTheBufferRegion) {
  // Six blocks allocated, the first four given as the region.
  Buffer area = NewBuffer(6 * kBlock);
  Buffer outside = NewBuffer(2 * kBlock);
  auto* base = reinterpret_cast<unsigned char*>(area.get());
  OpenEngine(/*depth=*/4, NeedsDirect(), 1, O_RDWR, std::span<unsigned char>(base, 4 * kBlock));
  SKIP_IF_NO_DIRECT();
  Fill(area.get(), 6 * kBlock, 7);
  Fill(outside.get(), 2 * kBlock, 9);
  const std::vector<char> inside_data(area.get(), area.get() + kBlock);
  const std::vector<char> across_data(area.get() + 3 * kBlock, area.get() + 5 * kBlock);
  const std::vector<char> outside_data(outside.get(), outside.get() + kBlock);
  auto request = [](IoOp op, char* buf, uint32_t len, uint64_t offset, uint64_t id) {
    IoRequest r;
    r.op = op;
    r.buffer = buf;
    r.length = len;
    r.offset = offset;
    r.user_data = id;
    return r;
  };
  std::vector<IoRequest> writes = {
      request(IoOp::kWrite, area.get(), kBlock, 0, 1),
      request(IoOp::kWrite, area.get() + 3 * kBlock, 2 * kBlock, 8 * kBlock, 2),
      request(IoOp::kWrite, outside.get(), kBlock, 16 * kBlock, 3),
  };
  std::vector<IoCompletion> done = RunAll(*engine_, writes);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(ResultFor(done, 1), kBlock);
  EXPECT_EQ(ResultFor(done, 2), 2 * kBlock);
  EXPECT_EQ(ResultFor(done, 3), kBlock);

  // Read each back elsewhere: the inside block to the outside buffer, the
  // others into the region.
  std::memset(area.get(), 0, 6 * kBlock);
  std::memset(outside.get(), 0, 2 * kBlock);
  std::vector<IoRequest> reads = {
      request(IoOp::kRead, outside.get(), kBlock, 0, 11),
      request(IoOp::kRead, area.get() + 3 * kBlock, 2 * kBlock, 8 * kBlock, 12),
      request(IoOp::kRead, area.get() + kBlock, kBlock, 16 * kBlock, 13),
  };
  done = RunAll(*engine_, reads);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(ResultFor(done, 11), kBlock);
  EXPECT_EQ(ResultFor(done, 12), 2 * kBlock);
  EXPECT_EQ(ResultFor(done, 13), kBlock);
  EXPECT_EQ(0, std::memcmp(outside.get(), inside_data.data(), kBlock));
  EXPECT_EQ(0, std::memcmp(area.get() + 3 * kBlock, across_data.data(), 2 * kBlock));
  EXPECT_EQ(0, std::memcmp(area.get() + kBlock, outside_data.data(), kBlock));
}

TEST_P(EngineTest, QueueDepthIsRespectedAndFilled) {
  const uint32_t depth = 8;
  OpenEngine(depth, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  std::vector<Buffer> bufs;
  std::vector<IoRequest> reqs;
  for (uint32_t i = 0; i < depth + 3; ++i) {
    bufs.push_back(NewBuffer(kBlock));
    IoRequest r;
    r.op = IoOp::kRead;
    r.offset = uint64_t{i} * 7 * kBlock;
    r.length = kBlock;
    r.buffer = bufs.back().get();
    r.user_data = i;
    reqs.push_back(r);
  }
  Result<size_t> n = engine_->Submit(reqs);
  ASSERT_OK(n);
  // Never more than the depth is accepted; the depth is reached before
  // anything is reaped.
  EXPECT_EQ(*n, depth);
  EXPECT_EQ(engine_->InFlight(), depth);
  Result<size_t> more = engine_->Submit(std::span<IoRequest>(reqs).subspan(*n));
  ASSERT_OK(more);
  EXPECT_EQ(*more, 0u);

  std::vector<IoCompletion> done = ReapAll(*engine_, depth);
  ASSERT_EQ(done.size(), depth);
  for (uint32_t i = 0; i < depth; ++i) EXPECT_EQ(ResultFor(done, i), kBlock);
  EXPECT_EQ(engine_->InFlight(), 0u);
}

TEST_P(EngineTest, ReapWithNothingInFlightReturnsZero) {
  OpenEngine(4, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  std::vector<IoCompletion> out(4);
  Result<size_t> got = engine_->Reap(1, out, 10 * kNanosPerMilli);
  ASSERT_OK(got);
  EXPECT_EQ(*got, 0u);
  got = engine_->Reap(0, out, 0);
  ASSERT_OK(got);
  EXPECT_EQ(*got, 0u);
}

TEST_P(EngineTest, ReadPastEndOfFileIsAShortReadOfZero) {
  OpenEngine(2, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs(1);
  reqs[0].op = IoOp::kRead;
  reqs[0].offset = kFileSize + 8 * kBlock;
  reqs[0].length = kBlock;
  reqs[0].buffer = buf.get();
  reqs[0].user_data = 7;
  std::vector<IoCompletion> done = RunAll(*engine_, reqs);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].user_data, 7u);
  EXPECT_EQ(done[0].result, 0);
}

TEST_P(EngineTest, ErrorsComeBackAsNegativeResults) {
  OpenEngine(2, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs(2);
  reqs[0].op = IoOp::kRead;  // a file index that was never opened
  reqs[0].file = 5;
  reqs[0].length = kBlock;
  reqs[0].buffer = buf.get();
  reqs[0].user_data = 1;
  reqs[1] = reqs[0];
  reqs[1].file = 0;
  reqs[1].user_data = 2;
  std::vector<IoCompletion> done = RunAll(*engine_, reqs);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(ResultFor(done, 1), -EBADF);
  EXPECT_EQ(ResultFor(done, 2), kBlock);  // the engine keeps working
}

TEST_P(EngineTest, WriteToReadOnlyFileFails) {
  OpenEngine(2, NeedsDirect(), 1, O_RDONLY);
  SKIP_IF_NO_DIRECT();
  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs(1);
  reqs[0].op = IoOp::kWrite;
  reqs[0].length = kBlock;
  reqs[0].buffer = buf.get();
  reqs[0].user_data = 3;
  std::vector<IoCompletion> done = RunAll(*engine_, reqs);
  ASSERT_EQ(done.size(), 1u);
  // EBADF from pwrite; Windows' WriteFile answers ERROR_ACCESS_DENIED (the
  // iocp and mmap engines refuse the read-only file themselves, as EBADF).
  EXPECT_EQ(done[0].result, LOADCELL_WINDOWS && GetParam() == "sync" ? -EACCES : -EBADF);
}

TEST_P(EngineTest, MisalignedDirectBufferIsAnErrorNotACrash) {
  if (GetParam() == "mmap") {
    GTEST_SKIP() << "mmap copies through the page cache: no O_DIRECT rule";
  }
  OpenEngine(2, /*direct=*/true, 1);
  SKIP_IF_NO_DIRECT();
  Buffer buf = NewBuffer(2 * kBlock);
  // Give the block real storage first: reading a hole never reaches the
  // device, so the kernel does not check the buffer's alignment for it.
  std::vector<IoRequest> fill(1);
  fill[0].op = IoOp::kWrite;
  fill[0].length = kBlock;
  fill[0].buffer = buf.get();
  std::vector<IoCompletion> filled = RunAll(*engine_, fill);
  ASSERT_EQ(filled.size(), 1u);
  ASSERT_EQ(filled[0].result, kBlock);

  std::vector<IoRequest> reqs(2);
  reqs[0].op = IoOp::kRead;
  reqs[0].length = kBlock;
  reqs[0].buffer = buf.get() + 1;  // misaligned address
  reqs[0].user_data = 1;
  reqs[1] = reqs[0];
  reqs[1].op = IoOp::kWrite;
  reqs[1].user_data = 2;
  std::vector<IoCompletion> done = RunAll(*engine_, reqs);
  ASSERT_EQ(done.size(), 2u);
  // Block-device filesystems refuse the buffer; memory-backed ones (tmpfs)
  // have no alignment rule and do the transfer.
  const std::string fs_type = DefaultFileSystem().FsType(dir_.path());
  const bool strict = fs_type == "ext4" || fs_type == "xfs";
  for (uint64_t id : {1, 2}) {
    int64_t result = ResultFor(done, id);
    if (strict) {
      EXPECT_EQ(result, -EINVAL) << fs_type << " request " << id;
    } else {
      EXPECT_TRUE(result == -EINVAL || result == kBlock) << fs_type << ": " << result;
    }
  }
}

TEST_P(EngineTest, CloseWaitsForRequestsInFlight) {
  OpenEngine(4, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  std::vector<Buffer> bufs;
  std::vector<IoRequest> reqs(4);
  for (size_t i = 0; i < reqs.size(); ++i) {
    bufs.push_back(NewBuffer(kBlock));
    reqs[i].op = IoOp::kRead;
    reqs[i].offset = i * 5 * kBlock;
    reqs[i].length = kBlock;
    reqs[i].buffer = bufs.back().get();
  }
  Result<size_t> n = engine_->Submit(reqs);
  ASSERT_OK(n);
  EXPECT_EQ(*n, reqs.size());
  EXPECT_OK(engine_->Close());
  EXPECT_EQ(engine_->InFlight(), 0u);
}

TEST_P(EngineTest, OpenOnOneThreadRunOnAnother) {
  // A worker may be set up on the main thread and run on its own.
  OpenEngine(4, NeedsDirect(), 1);
  SKIP_IF_NO_DIRECT();
  Buffer buf = NewBuffer(kBlock);
  Fill(buf.get(), kBlock, 42);
  std::vector<IoCompletion> done;
  std::thread worker([&] {
    std::vector<IoRequest> reqs(2);
    reqs[0].op = IoOp::kWrite;
    reqs[0].length = kBlock;
    reqs[0].buffer = buf.get();
    reqs[0].user_data = 1;
    reqs[1].op = IoOp::kFsync;
    reqs[1].user_data = 2;
    done = RunAll(*engine_, reqs);
  });
  worker.join();
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(ResultFor(done, 1), kBlock);
  EXPECT_EQ(ResultFor(done, 2), 0);
}

// Every engine compiled in that touches files (all four unless a build
// option left one out); null has its own tests (null_engine_test.cpp).
std::vector<std::string> FileEngines() {
  std::vector<std::string> names = IoEngineNames();
  std::erase(names, "null");
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllEngines, EngineTest, ::testing::ValuesIn(FileEngines()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// The engines this build should have, from its optional parts.
std::vector<std::string> ExpectedEngines() {
  std::vector<std::string> names = {"sync"};
  for (const char* optional : {"io_uring", "libaio"}) {
    if (!IsLeftOut(optional)) names.emplace_back(optional);
  }
  if (LOADCELL_WINDOWS) names.emplace_back("iocp");
  names.emplace_back("mmap");
  names.emplace_back("null");
  return names;
}

TEST(IoEngineFactoryTest, NamesAndUnknownName) {
  const std::vector<std::string> expected = ExpectedEngines();
  EXPECT_EQ(IoEngineNames(), expected);
  std::string valid;
  for (const std::string& n : expected) valid += (valid.empty() ? "" : ", ") + n;
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("bogus", DefaultFileSystem());
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(e.status().message(), "unknown --file-io-mode 'bogus'; valid: " + valid);
  EXPECT_TRUE(CheckIoEngine("sync", "--file-io-mode=sync").ok());
}

TEST(IoEngineFactoryTest, AnEngineLeftOutSaysSoInOneLine) {
  for (const char* optional : {"io_uring", "libaio"}) {
    Status s = CheckIoEngine(optional, "--asked");
    if (!IsLeftOut(optional)) {
      EXPECT_TRUE(s.ok()) << s.ToString();
      continue;
    }
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    const std::string why = LOADCELL_WINDOWS ? " is a Linux engine" : " is not in this build";
    EXPECT_EQ(s.message().rfind(std::string("--asked: ") + optional + why, 0), 0u) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
    Result<std::unique_ptr<IoEngine>> e = MakeIoEngine(optional, DefaultFileSystem());
    EXPECT_EQ(e.status().code(), StatusCode::kInvalidArgument);
  }
}

TEST(IoEngineFactoryTest, LibaioWithoutDirectIsRefusedAtOpen) {
  if (IsLeftOut("libaio")) GTEST_SKIP() << "libaio is not in this build";
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("libaio", DefaultFileSystem());
  ASSERT_OK(e);
  EngineOptions opts;
  opts.direct = false;
  Status s = (*e)->Open({}, opts);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--file-extra-flags=direct"), std::string::npos);
}

TEST(AllocateIoBufferTest, AlignedAndZeroed) {
  for (size_t len : {size_t{1}, size_t{4096}, size_t{10000}}) {
    Buffer b = NewBuffer(len);
    ASSERT_NE(b.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b.get()) % 4096, 0u);
    for (size_t i = 0; i < len; ++i) ASSERT_EQ(b.get()[i], 0) << i;
  }
  void* p = AllocateIoBuffer(100, 512);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 512, 0u);
  FreeIoBuffer(p);
}

// From kIoBufferHugeFrom on, whole huge pages: 2 MiB-aligned, zeroed, and
// the rounded-up tail writable.
TEST(AllocateIoBufferTest, LargeBuffersLieInWholeHugePages) {
  for (size_t len :
       {kIoBufferHugeFrom - 4096, kIoBufferHugeFrom, size_t{1} << 20, kIoBufferHugePage + 1}) {
    Buffer b = NewBuffer(len);
    ASSERT_NE(b.get(), nullptr);
    const auto at = reinterpret_cast<uintptr_t>(b.get());
    if (len < kIoBufferHugeFrom) {
      EXPECT_EQ(at % 4096, 0u) << len;
      continue;
    }
    EXPECT_EQ(at % kIoBufferHugePage, 0u) << len;
    const size_t whole = (len + kIoBufferHugePage - 1) / kIoBufferHugePage * kIoBufferHugePage;
    for (size_t i = 0; i < whole; i += 4096) ASSERT_EQ(b.get()[i], 0) << len << " " << i;
    b.get()[whole - 1] = 1;  // the tail up to the page's end is the buffer's
  }
}

TEST(SyncEngineFaultTest, InjectedFaultsBecomeNegativeResults) {
  TempDir dir;
  FaultInjectingFileSystem fault(DefaultFileSystem());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("sync", fault);
  ASSERT_OK(e);
  IoFile f;
  f.path = dir.File("f");
  Result<int> fd = fault.Open(f.path, O_RDWR | O_CREAT);
  ASSERT_OK(fd);
  f.fd = *fd;
  std::vector<IoFile> files{f};
  ASSERT_OK((*e)->Open(files, EngineOptions{}));

  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs(4);
  for (int i = 0; i < 4; ++i) {
    reqs[i].op = IoOp::kWrite;
    reqs[i].offset = uint64_t(i) * kBlock;
    reqs[i].length = kBlock;
    reqs[i].buffer = buf.get();
    reqs[i].user_data = static_cast<uint64_t>(i);
  }
  reqs[3].op = IoOp::kFsync;
  fault.FailWritesAfter(1, ENOSPC);
  fault.FailFsync(EIO);
  std::vector<IoCompletion> done = RunAll(**e, reqs);
  ASSERT_EQ(done.size(), 4u);
  EXPECT_EQ(ResultFor(done, 0), kBlock);
  EXPECT_EQ(ResultFor(done, 1), -ENOSPC);
  EXPECT_EQ(ResultFor(done, 2), -ENOSPC);
  EXPECT_EQ(ResultFor(done, 3), -EIO);

  fault.Clear();
  fault.FailReadsAfter(0, EIO);
  std::vector<IoRequest> read(1, reqs[0]);
  read[0].op = IoOp::kRead;
  done = RunAll(**e, read);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].result, -EIO);
  EXPECT_OK((*e)->Close());
  EXPECT_OK(fault.Close(f.fd));
}

}  // namespace
}  // namespace loadcell
