// Windows only (the Windows build's unit_io, run under Wine): the iocp and
// mmap engines on real files in a temp folder through the Win32 FileSystem,
// the iocp engine's two ways for a request to complete (pending through the
// port, and at once, which Wine never does by itself: a test start call
// makes it), the mmap engine's fault guard, and the volume's sector size.
#include <gtest/gtest.h>
#include <io.h>
#include <windows.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/engines_win32.h"
#include "io/io_engine.h"
#include "os/file_system.h"
#include "os/open_flags.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "unit/io/engine_test_util.h"

namespace loadcell {
namespace {

using io_internal::IocpTestHooks;
using testing::Buffer;
using testing::kBlock;
using testing::NewBuffer;
using testing::TempDir;

constexpr uint64_t kWinEngineFileSize = 64 * kBlock;

char PatternByte(uint64_t block, size_t i) {
  return static_cast<char>((block * 37 + i * 11) & 0xff);
}

// An engine over one file of kWinEngineFileSize zero bytes.
class WinEngineTest : public ::testing::Test {
 protected:
  FileSystem& fs() { return DefaultFileSystem(); }

  void OpenFile(int flags = O_RDWR) {
    file_.path = dir_.File("data.bin");
    Result<int> create = fs().Open(file_.path, O_RDWR | O_CREAT, 0644);
    ASSERT_OK(create);
    ASSERT_OK(fs().Truncate(*create, kWinEngineFileSize));
    ASSERT_OK(fs().Close(*create));
    Result<int> fd = fs().Open(file_.path, flags);
    ASSERT_OK(fd);
    file_.fd = *fd;
    file_.size = kWinEngineFileSize;
  }

  void OpenEngine(std::unique_ptr<IoEngine> engine, uint32_t depth, bool writable = true) {
    engine_ = std::move(engine);
    EngineOptions opts;
    opts.queue_depth = depth;
    opts.writable = writable;
    opts.open_flags = O_RDWR;
    ASSERT_OK(engine_->Open(std::span<const IoFile>(&file_, 1), opts));
  }

  void TearDown() override {
    if (engine_) {
      EXPECT_OK(engine_->Close());
    }
    if (file_.fd >= 0) {
      EXPECT_OK(fs().Close(file_.fd));
    }
  }

  // Keeps `depth` requests in flight until all of `reqs` completed, as the
  // fileio worker does; returns each request's result by user_data (its
  // index). *max_in_flight: the most InFlight() showed.
  std::vector<int64_t> RunKeepingFull(std::vector<IoRequest>& reqs, size_t* max_in_flight) {
    std::vector<int64_t> results(reqs.size(), -9999);
    std::vector<IoCompletion> out(16);
    size_t next = 0, done = 0;
    *max_in_flight = 0;
    while (done < reqs.size()) {
      if (next < reqs.size()) {
        Result<size_t> n = engine_->Submit(std::span<IoRequest>(reqs).subspan(next));
        EXPECT_OK(n);
        if (!n.ok()) break;
        next += *n;
      }
      *max_in_flight = std::max(*max_in_flight, engine_->InFlight());
      Result<size_t> got = engine_->Reap(1, out, 5 * kNanosPerSecond);
      EXPECT_OK(got);
      if (!got.ok() || *got == 0) break;
      for (size_t i = 0; i < *got; ++i) results[out[i].user_data] = out[i].result;
      done += *got;
    }
    return results;
  }

  // Writes every block with its own pattern at depth `depth` (each request
  // its own buffer), fsyncs, reads them all back and compares.
  void WriteReadBack(size_t depth) {
    const size_t blocks = kWinEngineFileSize / kBlock;
    Buffer bufs = NewBuffer(blocks * kBlock);
    std::vector<IoRequest> writes(blocks);
    for (size_t b = 0; b < blocks; ++b) {
      char* p = bufs.get() + b * kBlock;
      for (size_t i = 0; i < kBlock; ++i) p[i] = PatternByte(b, i);
      // Out of order, so that requests in flight are far apart.
      const uint64_t block = (b * 7) % blocks;
      writes[b] = IoRequest{IoOp::kWrite, 0, block * kBlock, kBlock, p, b, 0};
    }
    size_t max_in_flight = 0;
    std::vector<int64_t> wrote = RunKeepingFull(writes, &max_in_flight);
    for (size_t b = 0; b < blocks; ++b) ASSERT_EQ(wrote[b], kBlock) << "write " << b;
    EXPECT_EQ(max_in_flight, depth);

    std::vector<IoRequest> fsync(1);
    fsync[0].op = IoOp::kFsync;
    std::vector<int64_t> synced = RunKeepingFull(fsync, &max_in_flight);
    EXPECT_EQ(synced[0], 0);

    Buffer back = NewBuffer(blocks * kBlock);
    std::vector<IoRequest> reads = writes;
    for (size_t b = 0; b < blocks; ++b) {
      reads[b].op = IoOp::kRead;
      reads[b].buffer = back.get() + b * kBlock;
    }
    std::vector<int64_t> read = RunKeepingFull(reads, &max_in_flight);
    for (size_t b = 0; b < blocks; ++b) {
      ASSERT_EQ(read[b], kBlock) << "read " << b;
      ASSERT_EQ(std::memcmp(back.get() + b * kBlock, bufs.get() + b * kBlock, kBlock), 0)
          << "block " << (b * 7) % blocks;
    }
    EXPECT_EQ(engine_->InFlight(), 0u);
  }

  TempDir dir_;
  IoFile file_;
  std::unique_ptr<IoEngine> engine_;
};

TEST_F(WinEngineTest, TheEnginesOfTheWindowsBuild) {
  EXPECT_EQ(IoEngineNames(), (std::vector<std::string>{"sync", "iocp", "mmap", "null"}));
  EXPECT_EQ(AsyncIoEngineName(), "iocp");
  Status s = CheckIoEngine("io_uring", "--file-io-mode=io_uring");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("io_uring is a Linux engine; on Windows use iocp"), std::string::npos)
      << s.message();
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  EXPECT_EQ((*e)->Name(), "iocp");
  EXPECT_TRUE((*e)->Capabilities().asynchronous);
}

TEST_F(WinEngineTest, IocpWritesAndReadsBackAtQueueDepthOne) {
  ASSERT_NO_FATAL_FAILURE(OpenFile());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 1));
  WriteReadBack(1);
}

TEST_F(WinEngineTest, IocpWritesAndReadsBackAtQueueDepthEight) {
  ASSERT_NO_FATAL_FAILURE(OpenFile());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 8));
  WriteReadBack(8);
}

TEST_F(WinEngineTest, IocpHoldsAtMostItsDepthAndReportsEdgeCases) {
  ASSERT_NO_FATAL_FAILURE(OpenFile());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 4));
  Buffer buf = NewBuffer(5 * kBlock);
  std::vector<IoRequest> reqs(5);
  for (size_t i = 0; i < reqs.size(); ++i) {
    reqs[i] = IoRequest{IoOp::kRead, 0, i * kBlock, kBlock, buf.get() + i * kBlock, i, 0};
  }
  reqs[1].offset = kWinEngineFileSize;  // at the end: 0 bytes
  reqs[2].file = 3;                     // no such file
  Result<size_t> n = engine_->Submit(reqs);
  ASSERT_OK(n);
  EXPECT_EQ(*n, 4u);  // the fifth waits for room
  EXPECT_EQ(engine_->InFlight(), 4u);
  std::vector<IoCompletion> out(8);
  size_t got = 0;
  std::vector<int64_t> results(4, -9999);
  while (got < 4) {
    Result<size_t> r = engine_->Reap(4 - got, std::span<IoCompletion>(out).subspan(got), -1);
    ASSERT_OK(r);
    ASSERT_GT(*r, 0u);
    got += *r;
  }
  for (size_t i = 0; i < got; ++i) results[out[i].user_data] = out[i].result;
  EXPECT_EQ(results[0], kBlock);
  EXPECT_EQ(results[1], 0);
  EXPECT_EQ(results[2], -EBADF);
  EXPECT_EQ(results[3], kBlock);
  Result<size_t> none = engine_->Reap(1, out, 0);
  ASSERT_OK(none);
  EXPECT_EQ(*none, 0u);
}

TEST_F(WinEngineTest, IocpOnAReadOnlyFileRefusesWrites) {
  ASSERT_NO_FATAL_FAILURE(OpenFile(O_RDONLY));
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 2, /*writable=*/false));
  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs = {IoRequest{IoOp::kWrite, 0, 0, kBlock, buf.get(), 0, 0},
                                 IoRequest{IoOp::kRead, 0, 0, kBlock, buf.get(), 1, 0}};
  size_t max_in_flight = 0;
  std::vector<int64_t> results = RunKeepingFull(reqs, &max_in_flight);
  EXPECT_EQ(results[0], -EBADF);
  EXPECT_EQ(results[1], kBlock);
}

TEST_F(WinEngineTest, IocpCloseWaitsForRequestsInFlight) {
  ASSERT_NO_FATAL_FAILURE(OpenFile());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("iocp", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 8));
  Buffer buf = NewBuffer(8 * kBlock);
  std::vector<IoRequest> reqs(8);
  for (size_t i = 0; i < reqs.size(); ++i) {
    reqs[i] = IoRequest{IoOp::kRead, 0, i * 3 * kBlock, kBlock, buf.get() + i * kBlock, i, 0};
  }
  Result<size_t> n = engine_->Submit(reqs);
  ASSERT_OK(n);
  EXPECT_EQ(*n, 8u);
  EXPECT_OK(engine_->Close());
  EXPECT_EQ(engine_->InFlight(), 0u);
}

// ---- A request that completes at once (ReadFile/WriteFile return TRUE).

// The test's start call: the transfer done now on a synchronous handle of
// its own to the same file, reported as Windows reports a transfer that
// completed at once. Every other request; the rest start as usual.
HANDLE g_sync_handle = INVALID_HANDLE_VALUE;
int g_started = 0;
int g_completed_at_once = 0;

BOOL Transfer(bool write, HANDLE file, void* buffer, DWORD length, DWORD* done, OVERLAPPED* ov) {
  return write ? WriteFile(file, buffer, length, done, ov)
               : ReadFile(file, buffer, length, done, ov);
}

BOOL StartSomeAtOnce(bool write, HANDLE file, void* buffer, DWORD length, OVERLAPPED* ov) {
  if (g_started++ % 2 == 1) return Transfer(write, file, buffer, length, nullptr, ov);
  OVERLAPPED at = {};
  at.Offset = ov->Offset;
  at.OffsetHigh = ov->OffsetHigh;
  DWORD done = 0;
  if (!Transfer(write, g_sync_handle, buffer, length, &done, &at)) return FALSE;
  ov->Internal = 0;  // STATUS_SUCCESS
  ov->InternalHigh = done;
  ++g_completed_at_once;
  return TRUE;
}

// Where Windows does not skip the port on success: the transfer completed
// at once still sends its completion through the port. The test's start
// call waits for the real transfer and then says it completed at once.
BOOL StartWaitedAtOnce(bool write, HANDLE file, void* buffer, DWORD length, OVERLAPPED* ov) {
  if (!Transfer(write, file, buffer, length, nullptr, ov) && GetLastError() != ERROR_IO_PENDING) {
    return FALSE;
  }
  DWORD done = 0;
  if (!GetOverlappedResult(file, ov, &done, TRUE)) return FALSE;
  ++g_completed_at_once;
  return TRUE;
}

// A transfer that fails to start: a full disk.
BOOL StartDiskFull(bool, HANDLE, void*, DWORD, OVERLAPPED*) {
  SetLastError(ERROR_DISK_FULL);
  return FALSE;
}

class IocpAtOnceTest : public WinEngineTest {
 protected:
  void OpenWithHooks(IocpTestHooks hooks, uint32_t depth) {
    ASSERT_NO_FATAL_FAILURE(OpenFile());
    g_sync_handle = reinterpret_cast<HANDLE>(_get_osfhandle(file_.fd));
    g_started = 0;
    g_completed_at_once = 0;
    Result<std::unique_ptr<IoEngine>> e = io_internal::MakeIocpEngineWithHooks(fs(), hooks);
    ASSERT_OK(e);
    ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), depth));
  }
};

TEST_F(IocpAtOnceTest, CompletedAtOnceIsHandedOutByTheNextReap) {
  IocpTestHooks hooks;
  hooks.start = &StartSomeAtOnce;
  ASSERT_NO_FATAL_FAILURE(OpenWithHooks(hooks, 8));
  WriteReadBack(8);
  EXPECT_GT(g_completed_at_once, 16);  // half of 64 writes and 64 reads
}

TEST_F(IocpAtOnceTest, CompletedAtOnceThroughThePortIsCountedOnce) {
  IocpTestHooks hooks;
  hooks.start = &StartWaitedAtOnce;
  hooks.skip_port_on_success = false;
  ASSERT_NO_FATAL_FAILURE(OpenWithHooks(hooks, 8));
  WriteReadBack(8);
  EXPECT_EQ(g_completed_at_once, 128);
  // No completion is left over in the port.
  std::vector<IoCompletion> out(4);
  Result<size_t> extra = engine_->Reap(1, out, 100 * kNanosPerMilli);
  ASSERT_OK(extra);
  EXPECT_EQ(*extra, 0u);
}

TEST_F(IocpAtOnceTest, AWin32ErrorBecomesTheMatchingErrno) {
  IocpTestHooks hooks;
  hooks.start = &StartDiskFull;
  ASSERT_NO_FATAL_FAILURE(OpenWithHooks(hooks, 2));
  Buffer buf = NewBuffer(kBlock);
  std::vector<IoRequest> reqs = {IoRequest{IoOp::kWrite, 0, 0, kBlock, buf.get(), 0, 0}};
  size_t max_in_flight = 0;
  std::vector<int64_t> results = RunKeepingFull(reqs, &max_in_flight);
  EXPECT_EQ(results[0], -ENOSPC);
}

// ---- mmap

TEST_F(WinEngineTest, MmapWritesFlushesAndReadsBack) {
  ASSERT_NO_FATAL_FAILURE(OpenFile());
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("mmap", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 1));
  WriteReadBack(1);
  // What the view wrote is in the file, as ReadFile sees it.
  Buffer direct = NewBuffer(kBlock);
  Result<size_t> n = fs().PRead(file_.fd, direct.get(), kBlock, 7 * kBlock);
  ASSERT_OK(n);
  ASSERT_EQ(*n, kBlock);
  for (size_t i = 0; i < kBlock; ++i) ASSERT_EQ(direct.get()[i], PatternByte(1, i)) << i;
}

TEST_F(WinEngineTest, MmapClipsAtTheEndAndRefusesWritesWhenReadOnly) {
  ASSERT_NO_FATAL_FAILURE(OpenFile(O_RDONLY));
  Result<std::unique_ptr<IoEngine>> e = MakeIoEngine("mmap", fs());
  ASSERT_OK(e);
  ASSERT_NO_FATAL_FAILURE(OpenEngine(std::move(*e), 4, /*writable=*/false));
  Buffer buf = NewBuffer(2 * kBlock);
  std::vector<IoRequest> reqs = {
      IoRequest{IoOp::kRead, 0, kWinEngineFileSize - kBlock / 2, kBlock, buf.get(), 0, 0},
      IoRequest{IoOp::kRead, 0, kWinEngineFileSize, kBlock, buf.get(), 1, 0},
      IoRequest{IoOp::kWrite, 0, 0, kBlock, buf.get(), 2, 0},
      IoRequest{IoOp::kRead, 5, 0, kBlock, buf.get(), 3, 0}};
  size_t max_in_flight = 0;
  std::vector<int64_t> results = RunKeepingFull(reqs, &max_in_flight);
  EXPECT_EQ(results[0], kBlock / 2);
  EXPECT_EQ(results[1], 0);
  EXPECT_EQ(results[2], -EBADF);
  EXPECT_EQ(results[3], -EBADF);
}

TEST(MmapGuardTest, AFaultInsideTheCopyIsFalseNotACrash) {
  // Reserved address space with its first 64 KiB committed: a copy that
  // runs into the rest faults (EXCEPTION_ACCESS_VIOLATION).
  constexpr size_t kReserved = 1 << 20, kCommitted = 1 << 16;
  char* base = static_cast<char*>(VirtualAlloc(nullptr, kReserved, MEM_RESERVE, PAGE_NOACCESS));
  ASSERT_NE(base, nullptr);
  ASSERT_NE(VirtualAlloc(base, kCommitted, MEM_COMMIT, PAGE_READWRITE), nullptr);
  Buffer buf = NewBuffer(kCommitted);
  for (int round = 0; round < 3; ++round) {
    EXPECT_FALSE(io_internal::GuardedCopy(buf.get(), base + kCommitted / 2, kCommitted));
    EXPECT_FALSE(io_internal::GuardedCopy(base + kCommitted / 2, buf.get(), kCommitted));
    EXPECT_TRUE(io_internal::GuardedCopy(buf.get(), base, kCommitted));
  }
  VirtualFree(base, 0, MEM_RELEASE);
}

// ---- The sector size unbuffered I/O must be a multiple of.

TEST(SectorSizeTest, TheVolumeSaysItAndAMisfitIsOneLine) {
  TempDir dir;
  Result<uint32_t> sector = DefaultFileSystem().SectorSize(dir.path());
  ASSERT_OK(sector);
  EXPECT_GE(*sector, 512u);
  EXPECT_EQ(*sector & (*sector - 1), 0u) << *sector;
  EXPECT_OK(CheckSectorMultiple(DefaultFileSystem(), dir.path(), 16 * *sector, "-b16", "-BH"));
  Status s = CheckSectorMultiple(DefaultFileSystem(), dir.path(), *sector + 1000, "--x=1", "-BH");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("--x=1 must be a multiple of " + std::to_string(*sector) + " bytes"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace loadcell
