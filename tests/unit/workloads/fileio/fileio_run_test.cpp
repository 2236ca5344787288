// fileio: prepare, cleanup and runs through the runner in a temp directory,
// with faults injected through the FileSystem seam.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/pages.h"
#include "io/io_engine.h"
#include "os/file_system.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"
#include "workloads/fileio/fileio_files.h"

namespace loadcell {
namespace {

using testing::BufferedAsyncEngine;
using testing::Configure;
using testing::Counter;
using testing::FileIoArgs;
using testing::KindCount;
using testing::Prepared;
using testing::PrepareWith;
using testing::QuietConsole;
using testing::RunEvents;
using testing::TempDir;
using testing::WithSmallFiles;

uint64_t SizeOf(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? ~uint64_t{0} : static_cast<uint64_t>(n);
}

TEST(FileIoPrepare, WritesEveryBlockAndKeepsAManifest) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir, {});
  for (int i = 0; i < 4; ++i) {
    const std::string path = dir.File("test_file." + std::to_string(i));
    EXPECT_EQ(SizeOf(path), 256u * 1024) << path;
    Result<FileInfo> info = DefaultFileSystem().Stat(path);
    ASSERT_OK(info);
    EXPECT_GE(info->allocated_bytes, info->size) << "sparse file " << path;
  }
  Result<std::optional<FileManifest>> m = ReadManifest(DefaultFileSystem(), dir.path());
  ASSERT_TRUE(m.ok() && m->has_value());
  ASSERT_EQ((*m)->files.size(), 4u);
  EXPECT_TRUE((*m)->stamped);
  for (const ManifestFile& f : (*m)->files) EXPECT_EQ(f.state, FileState::kComplete);
  // A second prepare reuses the complete files.
  QuietConsole again;
  ASSERT_OK(PrepareWith(w, again));
  EXPECT_NE(again.out.str().find("nothing to write"), std::string::npos) << again.out.str();
}

TEST(FileIoPrepare, RefusesToOverwriteAFileItDidNotCreate) {
  TempDir dir;
  {
    std::ofstream user(dir.File("test_file.2"));
    user << "precious";
  }
  FileIoWorkload w;
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {})));
  QuietConsole console;
  Status s = PrepareWith(w, console);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("test_file.2"), std::string::npos);
  EXPECT_EQ(SizeOf(dir.File("test_file.2")), 8u);
  EXPECT_FALSE(
      std::filesystem::exists(dir.File("test_file.0")));  // nothing written before the check
}

TEST(FileIoCleanup, RemovesExactlyTheManifestsFiles) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir, {});
  {
    std::ofstream user(dir.File("test_file.9"));
    user << "mine";
    std::ofstream other(dir.File("notes.txt"));
    other << "mine too";
  }
  QuietConsole console;
  console.Attach(w);
  ASSERT_OK(w.Cleanup(PrepareContext{}));
  for (int i = 0; i < 4; ++i)
    EXPECT_FALSE(std::filesystem::exists(dir.File("test_file." + std::to_string(i))));
  EXPECT_FALSE(std::filesystem::exists(dir.File(kFileIoManifestName)));
  EXPECT_TRUE(std::filesystem::exists(dir.File("test_file.9")));
  EXPECT_TRUE(std::filesystem::exists(dir.File("notes.txt")));
  EXPECT_NE(console.out.str().find("\nRemoved 4 files and the manifest.\n"), std::string::npos)
      << console.out.str();
  // Again: nothing to do, not an error.
  EXPECT_OK(w.Cleanup(PrepareContext{}));
}

TEST(FileIoPrepare, OneFileIsSaidInTheSingular) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-num", "1"}})));
  QuietConsole prepare;
  Status st = PrepareWith(w, prepare);
  ASSERT_OK(st);
  EXPECT_EQ(prepare.out.str().rfind("1 file of 1MiB\n", 0), 0u) << prepare.out.str();
  QuietConsole again;
  ASSERT_OK(PrepareWith(w, again));
  EXPECT_NE(again.out.str().find("\nThe file exists from an earlier prepare"), std::string::npos)
      << again.out.str();
  QuietConsole cleanup;
  cleanup.Attach(w);
  ASSERT_OK(w.Cleanup(PrepareContext{}));
  EXPECT_NE(cleanup.out.str().find("\nRemoved 1 file and the manifest.\n"), std::string::npos)
      << cleanup.out.str();
  w.SetConsole(nullptr, nullptr, false);
}

TEST(FileIoPrepare, EnospcRemovesThePartialFileAndSaysSo) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  // 4 files of 2 MiB, written 1 MiB per call: fail in the middle of file 1.
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-total-size", "8M"}})));
  fs.FailWritesAfter(5, ENOSPC);
  QuietConsole console;
  Status s = PrepareWith(w, console);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition) << s.ToString();
  EXPECT_NE(s.message().find("the filesystem is full"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("removed the partial file"), std::string::npos) << s.message();
  EXPECT_EQ(s.ToString().find('\n'), std::string::npos);
  int present = 0;
  for (int i = 0; i < 4; ++i) {
    const std::string path = dir.File("test_file." + std::to_string(i));
    if (!std::filesystem::exists(path)) continue;
    ++present;
    EXPECT_EQ(SizeOf(path), 2u << 20) << "a partial file was left: " << path;
  }
  EXPECT_EQ(present, 1);
  // Space again: the prepare resumes and completes.
  fs.Clear();
  QuietConsole again;
  ASSERT_OK(PrepareWith(w, again));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(SizeOf(dir.File("test_file." + std::to_string(i))), 2u << 20);
}

TEST(FileIoPrepare, EfbigIsAClearError) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {})));
  fs.FailWritesAfter(1, EFBIG);  // the manifest entry, then the first data write
  QuietConsole console;
  Status s = PrepareWith(w, console);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("file size limit"), std::string::npos) << s.message();
}

// Not usage errors: the run fails (exit 1, as sysbench's).
TEST(FileIoRun, RunBeforePrepareAndWrongSizesAreNotReady) {
  TempDir dir;
  FileIoWorkload w;
  ASSERT_OK(Configure(w, WithSmallFiles(dir.path(), {{"file-test-mode", "rndrd"}})));
  Result<RunResult> r = RunEvents(w, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotReady);
  EXPECT_FALSE(r.status().IsUsageError());
  EXPECT_NE(r.status().message().find("prepare' first"), std::string::npos);

  Prepared(w, dir, {{"file-test-mode", "rndrd"}});
  FileIoWorkload bigger;
  ASSERT_OK(Configure(bigger, WithSmallFiles(dir.path(), {{"file-test-mode", "rndrd"},
                                                          {"file-total-size", "2M"}})));
  r = RunEvents(bigger, 10);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotReady);
  EXPECT_NE(r.status().message().find("has size 262144, expected 524288"), std::string::npos)
      << r.status().message();
  EXPECT_EQ(SizeOf(dir.File("test_file.0")), 256u * 1024);  // nothing re-created
}

TEST(FileIoRun, EachEventIsOneRequest) {
  TempDir dir;
  for (const std::string& engine :
       {std::string("sync"), BufferedAsyncEngine(), std::string("mmap")}) {
    FileIoWorkload w;
    Prepared(w, dir,
             {{"file-test-mode", "rndrw"},
              {"file-io-mode", engine},
              {"file-queue-depth", "8"},
              {"file-fsync-freq", "10"}});
    Result<RunResult> r = RunEvents(w, 300);
    ASSERT_OK(r);
    ASSERT_OK(r->failure) << engine << ": " << r->failure.ToString();
    EXPECT_EQ(r->events, 300u) << engine;
    const uint64_t reads = Counter(*r, "reads"), writes = Counter(*r, "writes");
    const uint64_t fsyncs_in_events = KindCount(*r, "fsync");
    EXPECT_EQ(reads + writes + fsyncs_in_events, 300u) << engine;
    EXPECT_EQ(KindCount(*r, "read"), reads);
    EXPECT_EQ(KindCount(*r, "write"), writes);
    EXPECT_GT(fsyncs_in_events, 0u);
    // The end-of-run fsyncs (one per file) are counted, not events.
    EXPECT_EQ(Counter(*r, "fsyncs"), fsyncs_in_events + 4) << engine;
    EXPECT_EQ(Counter(*r, "bytes_read"), reads * 4096);
    // sysbench's ratio: reads / writes near 1.5.
    EXPECT_NEAR(static_cast<double>(reads) / static_cast<double>(writes), 1.5, 0.1) << engine;
  }
}

TEST(FileIoRun, AsyncEngineKeepsTheQueueFullAndCountsItsBusyTimeOnce) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir,
           {{"file-test-mode", "rndrd"},
            {"file-io-mode", BufferedAsyncEngine()},
            {"file-queue-depth", "16"}});
  Result<RunResult> r = RunEvents(w, 2000, 2);
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  EXPECT_EQ(r->events, 2000u);
  EXPECT_EQ(Counter(*r, "reads"), 2000u);  // requests drained at the end are not counted
  double depth = 0;
  for (const Metric& m : r->metrics) {
    if (m.key == "queue_depth_achieved") depth = m.value;
  }
  EXPECT_GT(depth, 8.0);
  EXPECT_LE(depth, 16.0);
  // The requests in flight overlap: a thread's busy time counts their wall
  // time once, below the sum of their latencies.
  // (A thread that started late may have run few events or none.)
  ASSERT_EQ(r->threads.size(), 2u);
  int checked = 0;
  for (const ThreadFigures& t : r->threads) {
    EXPECT_LE(t.busy_time_s, r->total_time_s);
    if (t.events < 100) continue;
    ++checked;
    EXPECT_GT(t.busy_time_s, 0);
    EXPECT_LT(t.busy_time_s, t.exec_time_s) << t.busy_time_s << " vs " << t.exec_time_s;
  }
  EXPECT_GE(checked, 1);
}

TEST(FileIoRun, BusyTimeIsTheLatencySumOneRequestAtATime) {
  TempDir dir;
  for (const char* mode : {"rndrd", "rndwr"}) {
    FileIoWorkload w;
    // rndwr with --file-fsync-all: an event is a write and then its fsync.
    Prepared(w, dir,
             {{"file-test-mode", mode},
              {"file-io-mode", "sync"},
              {"file-fsync-all", std::string(mode) == "rndwr" ? "on" : "off"}});
    Result<RunResult> r = RunEvents(w, 200, 2);
    ASSERT_OK(r);
    ASSERT_OK(r->failure);
    for (const ThreadFigures& t : r->threads) {
      EXPECT_NEAR(t.busy_time_s, t.exec_time_s, 1e-9 * (1 + t.exec_time_s)) << mode;
    }
  }
}

TEST(FileIoRun, FsyncAllMakesEachWriteEventIncludeItsFsync) {
  TempDir dir;
  for (const std::string& engine : {std::string("sync"), BufferedAsyncEngine()}) {
    FileIoWorkload w;
    Prepared(w, dir,
             {{"file-test-mode", "rndwr"},
              {"file-io-mode", engine},
              {"file-queue-depth", "4"},
              {"file-fsync-all", "on"}});
    Result<RunResult> r = RunEvents(w, 40);
    ASSERT_OK(r);
    ASSERT_OK(r->failure);
    EXPECT_EQ(r->events, 40u);
    EXPECT_EQ(Counter(*r, "writes"), 40u) << engine;
    EXPECT_EQ(Counter(*r, "fsyncs"), 40u) << engine;
    EXPECT_EQ(KindCount(*r, "fsync"), 40u);
    // The event spans the write and its fsync.
    EXPECT_GE(r->latency[0].histogram.moments().sum,
              KindCount(*r, "write") > 0 ? r->latency[2].histogram.moments().sum : 0);
  }
}

TEST(FileIoRun, ValidationCatchesABlockCorruptedBehindItsBack) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir, {{"file-test-mode", "seqrd"}, {"validate", "on"}});
  // Damage one byte of block 3 of file 1.
  {
    std::fstream f(dir.File("test_file.1"), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(3 * 4096 + 200);
    f.put('\x5a');
  }
  Result<RunResult> r = RunEvents(w, 200);
  ASSERT_OK(r);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_EQ(ExitCodeFor(r->failure), 1);
  const std::string msg = r->failure.ToString();
  EXPECT_NE(msg.find("test_file.1 at offset 12288"), std::string::npos) << msg;
  EXPECT_NE(msg.find("checksum"), std::string::npos) << msg;
  // Blocks before the damaged one were read and counted.
  EXPECT_EQ(r->events, 64u + 3u);
  EXPECT_FALSE(w.TextSection(*r).empty());
}

TEST(FileIoRun, ValidatedWritesAreReadBackWithTheirSequence) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir,
           {{"file-test-mode", "rndrw"},
            {"validate", "on"},
            {"file-io-mode", BufferedAsyncEngine()},
            {"file-queue-depth", "4"}});
  Result<RunResult> r = RunEvents(w, 3000, 2);
  ASSERT_OK(r);
  EXPECT_OK(r->failure);
  EXPECT_EQ(r->events, 3000u);
}

TEST(FileIoRun, EintrOnReadFailsTheRunAndIsNoInterrupt) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  Prepared(w, dir, {{"file-test-mode", "rndrd"}});
  fs.FailReadsAfter(10, EINTR);
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_FALSE(r->interrupted);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_EQ(r->failure.code(), StatusCode::kIoError) << r->failure.ToString();
  EXPECT_EQ(r->failure.err(), EINTR);
  EXPECT_EQ(ExitCodeFor(r->failure), 1);
}

TEST(FileIoRun, EioOnReadFailsTheRunWithAReport) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  Prepared(w, dir, {{"file-test-mode", "rndrd"}});
  fs.FailReadsAfter(25, EIO);
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_OK(r);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_EQ(r->failure.err(), EIO);
  EXPECT_NE(r->failure.message().find("read of 4096 bytes from"), std::string::npos)
      << r->failure.ToString();
  // The manifest and each file's first 32 bytes (the mark CheckIdentity
  // looks for) are read through the same seam before the run starts.
  EXPECT_GE(r->events, 15u);
  EXPECT_LT(r->events, 25u);
  EXPECT_EQ(Counter(*r, "reads"), r->events);
  EXPECT_NE(w.TextSection(*r).find("reads/s:"), std::string::npos);
}

TEST(FileIoRun, ShortWriteFailsTheRunWithAReport) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  Prepared(w, dir, {{"file-test-mode", "rndwr"}, {"file-fsync-end", "off"}});
  fs.FailWritesAfter(10, -1);
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_OK(r);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_NE(r->failure.message().find("short write: 2048 of 4096 bytes"), std::string::npos)
      << r->failure.ToString();
  // The run's writes stamp blocks as prepare did, so the manifest is not
  // rewritten before the run; the one write before the run's is the folder
  // lock's line (pid and command).
  EXPECT_EQ(Counter(*r, "writes"), 9u);
  EXPECT_EQ(Counter(*r, "writes"), r->events);
}

TEST(FileIoRun, FsyncFailureFailsTheRun) {
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  // --validate keeps the manifest as it is (no fsync before the run).
  Prepared(w, dir, {{"file-test-mode", "rndwr"}, {"file-fsync-freq", "5"}, {"validate", "on"}});
  fs.FailFsync(EIO);
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_OK(r);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_NE(r->failure.message().find("fsync of"), std::string::npos) << r->failure.ToString();
  EXPECT_EQ(Counter(*r, "writes"), 5u);
}

TEST(FileIoRun, SeqwrRecreatesTheFilesAndPrepareMakesThemWholeAgain) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir, {{"file-test-mode", "seqwr"}, {"file-fsync-end", "off"}});
  Result<RunResult> r = RunEvents(w, 10);
  ASSERT_OK(r);
  ASSERT_OK(r->failure);
  // sysbench's creation test: files start empty and grow in sequence.
  EXPECT_EQ(SizeOf(dir.File("test_file.0")), 10u * 4096 - 0);
  EXPECT_EQ(SizeOf(dir.File("test_file.1")), 0u);
  // Reading modes now want a prepare.
  FileIoWorkload reader;
  ASSERT_OK(Configure(reader, WithSmallFiles(dir.path(), {{"file-test-mode", "rndrd"}})));
  Result<RunResult> rr = RunEvents(reader, 10);
  ASSERT_FALSE(rr.ok());
  EXPECT_EQ(rr.status().code(), StatusCode::kNotReady);
  QuietConsole console;
  ASSERT_OK(PrepareWith(reader, console));
  rr = RunEvents(reader, 10);
  ASSERT_OK(rr);
  EXPECT_OK(rr->failure);
}

TEST(FileIoRun, ReportHasSysbenchsSections) {
  TempDir dir;
  FileIoWorkload w;
  Prepared(w, dir, {{"file-test-mode", "rndrw"}});
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_OK(r);
  const std::string text = w.TextSection(*r);
  for (const char* label :
       {"File operations:\n    reads/s:                      ",
        "\n    writes/s:                     ", "\n    fsyncs/s:                     ",
        "\nThroughput:\n    read, MiB/s:                  ",
        "\n    written, MiB/s:               "}) {
    EXPECT_NE(text.find(label), std::string::npos) << label << "\n" << text;
  }
  IntervalSnapshot iv;
  iv.duration_s = 2;
  iv.counters = {0, 0, 6, 4 << 20, 2 << 20, 0, 0};
  EXPECT_EQ(w.IntervalLine(iv, 95),
            "reads: 2.00 MiB/s writes: 1.00 MiB/s fsyncs: 3.00/s latency (ms,95%): 0.000");
  bool has_files = false, has_cache = false, has_engine = false;
  for (const auto& [k, v] : w.Describe()) {
    has_files |= k == "files created" && v.find("every block written") != std::string::npos;
    has_cache |= k == "page cache";
    has_engine |= k == "I/O engine";
  }
  EXPECT_TRUE(has_files && has_cache && has_engine);
}

// The line `key` of the run header, for the options given.
std::string HeaderLineFor(const TempDir& dir, const FileIoArgs& args, const std::string& key) {
  FileIoWorkload w;
  Status st = Configure(w, WithSmallFiles(dir.path(), args));
  EXPECT_OK(st);
  for (const auto& [k, v] : w.Describe()) {
    if (k == key) return v;
  }
  return "(no " + key + " line)";
}

std::string FsyncPolicyFor(const TempDir& dir, const FileIoArgs& args) {
  return HeaderLineFor(dir, args, "fsync policy");
}

TEST(FileIoRun, FsyncPolicySaysTheCallAndWhenItIsMade) {
  TempDir dir;
  EXPECT_EQ(FsyncPolicyFor(dir, {{"file-test-mode", "rndwr"}}),
            "uses fsync(): on every file after every 100 requests (counted over all threads, "
            "skipped when nothing was written; each call is an event), not after each write, "
            "and on every file by every thread at its end (counted, not timed)");
  EXPECT_EQ(FsyncPolicyFor(dir, {{"file-test-mode", "seqwr"},
                                 {"file-fsync-freq", "0"},
                                 {"file-fsync-all", "on"},
                                 {"file-fsync-end", "off"},
                                 {"file-fsync-mode", "fdatasync"}}),
            "uses fdatasync(): never periodically, after every write (timed as part of that "
            "write's event), and not at the end");
  EXPECT_EQ(
      FsyncPolicyFor(
          dir, {{"file-test-mode", "rndwr"}, {"file-fsync-freq", "0"}, {"file-fsync-end", "off"}}),
      "none: no periodic fsync(), none after each write, none at the end");
  EXPECT_EQ(FsyncPolicyFor(dir, {{"file-test-mode", "rndrd"}, {"file-fsync-all", "on"}}),
            "none: rndrd does not write, so no fsync() calls are made");
}

// Each thread's buffers: one per slot of the queue, a read and a write
// buffer in each where the mode does both; from 512 KiB on a thread's
// buffers lie in 2 MiB pages advised for transparent huge pages, and the
// line names the system's setting, which decides whether they are.
TEST(FileIoRun, IoBuffersLineSaysTheSlotsTheirSizeAndThePages) {
  TempDir dir;
  const auto buffers = [&](const FileIoArgs& args) {
    return HeaderLineFor(dir, args, "I/O buffers");
  };
  EXPECT_EQ(buffers({{"file-test-mode", "rndrd"}, {"file-block-size", "16K"}}),
            "1 x 16KiB per thread (16KiB), in ordinary pages");
  EXPECT_EQ(buffers({{"file-test-mode", "rndrw"}, {"file-block-size", "4K"}}),
            "1 x 8KiB per thread (8KiB), in ordinary pages");
  EXPECT_EQ(buffers({{"file-test-mode", "rndrd"},
                     {"file-block-size", "16K"},
                     {"file-io-mode", "null"},
                     {"file-queue-depth", "31"}}),
            "31 x 16KiB per thread (496KiB), in ordinary pages");
  const std::string large = buffers({{"file-test-mode", "rndrd"},
                                     {"file-block-size", "16K"},
                                     {"file-io-mode", "null"},
                                     {"file-queue-depth", "32"}});
  // The size is rounded to the alignment first, as AllocateIoBuffer does:
  // 512 KiB less one byte is a 512 KiB buffer; 508 KiB stays ordinary.
  EXPECT_TRUE(IoBufferInHugePages(524287));
  EXPECT_FALSE(IoBufferInHugePages(520192));
  const std::string thp = TransparentHugePages();
  const std::string head = "32 x 16KiB per thread (512KiB), 2 MiB-aligned, ";
  if (thp.empty()) {
    EXPECT_EQ(large, head + "in ordinary pages (no transparent huge pages)");
  } else if (thp == "never") {
    EXPECT_EQ(large, head + "in ordinary pages (transparent huge pages are off: never)");
  } else {
    EXPECT_EQ(large, head + "advised for transparent huge pages (the system's setting: " + thp +
                         "), in huge pages where one is free");
  }
#ifdef __linux__
  // The choice in force, read from the brackets of "always [madvise] never".
  if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
    EXPECT_TRUE(thp == "always" || thp == "madvise" || thp == "never") << thp;
  }
#else
  EXPECT_EQ(thp, "");  // Windows has no transparent huge pages
#endif
}

}  // namespace
}  // namespace loadcell
