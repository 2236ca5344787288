#include "workloads/fileio/fileio.h"

#include <fmt/format.h>

#include <cerrno>
#include <filesystem>
#include <iostream>

#include "io/io_engine.h"
#include "os/folder_check.h"
#include "os/system_info.h"
#include "workloads/fileio/fileio_existing.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {

FileIoWorkload::FileIoWorkload() : FileIoWorkload(DefaultFileSystem()) {}

FileIoWorkload::FileIoWorkload(FileSystem& fs) : fs_(fs) {}

FileIoWorkload::~FileIoWorkload() { (void)CloseFiles(); }

void FileIoWorkload::SetConsole(std::ostream* out, std::ostream* progress, bool progress_tty) {
  console_ = FileIoConsole{out, progress, progress_tty};
  console_.warnings = progress;
  console_set_ = true;
}

void FileIoWorkload::EnsureConsole() {
  if (console_set_) return;
  const bool notices = style_.verbosity >= ConsoleStyle::kNotices;
  SetConsole(notices ? &std::cout : nullptr,
             notices && !style_.sysbench_output ? &std::cerr : nullptr, StderrIsTerminal());
  const bool warnings = style_.verbosity >= ConsoleStyle::kWarnings && !style_.sysbench_output;
  console_.warnings = warnings ? &std::cerr : nullptr;
  console_.sysbench = style_.sysbench_output;
}

WorkloadInfo FileIoWorkload::Info() const {
  WorkloadInfo info;
  info.name = "fileio";
  info.summary = "file I/O: sequential and random reads, writes and fsyncs on test files";
  info.event_definition =
      "one event is one completed request, as in sysbench 1.0: one read or one write of "
      "--file-block-size bytes (sequential modes: --file-block-size x "
      "--file-merged-requests), or one fsync of one file; with --file-fsync-all a write and "
      "the fsync that follows it. Each request is timed from its submission to its "
      "completion; under --rate also from its intended start";
  info.supports_prepare = true;
  info.files_per_process = true;
  info.files_shared = true;
  info.self_timed = true;
  info.self_paced = true;
  info.reports_busy_time = true;
  info.latency_kinds = {"read", "write", "fsync"};
  info.counter_names = {kFileIoCounterNames.begin(), kFileIoCounterNames.end()};
  return info;
}

void FileIoWorkload::RegisterOptions(OptionSet& opts) { options_.Register(opts); }

Status FileIoWorkload::Validate(int /*threads*/) { return options_.Resolve(fs_); }

std::vector<std::string> FileIoWorkload::Warnings(int /*threads*/) const {
  const FileIoSettings& s = settings();
  std::vector<std::string> out;
  if (options_.queue_depth_set() && !s.asynchronous() && s.queue_depth_asked > 1) {
    out.push_back(fmt::format(
        "--file-queue-depth={} has no effect with --file-io-mode={}: a synchronous engine runs "
        "one request at a time per thread (use an asynchronous engine: io_uring or libaio on "
        "Linux, iocp on Windows; or more --threads)",
        s.queue_depth_asked, s.engine_asked));
  }
  if (!s.asynchronous() && s.submit_batch > 1) {
    out.push_back(fmt::format(
        "--file-submit-batch={} has no effect with --file-io-mode={}: only the asynchronous "
        "engines (io_uring, libaio, iocp) submit several requests per call",
        s.submit_batch, s.engine_asked));
  }
  return out;
}

Status FileIoWorkload::TakeProcessFolder(const std::string& name) {
  FileIoSettings& s = options_.mutable_settings();
  const std::string parent = s.dir;
  s.dir = (std::filesystem::path(s.dir) / name).string();
  process_folder_ = true;
  // Something else in the sub-folder's place: refused before any rank does
  // anything, as --file-dir naming it would be (a missing one is prepare's
  // to create, and a run's to refuse as not prepared).
  if (Result<FileInfo> info = fs_.Stat(s.dir); info.ok() && info->exists && !info->is_directory) {
    return Status::InvalidArgument(fmt::format(
        "--file-dir={}: {}, this rank's sub-folder (--mpi-files=per-rank), is not a directory",
        parent, name));
  }
  return Status::Ok();
}

Status FileIoWorkload::ShareFiles(int rank, int ranks) {
  FileIoSettings& s = options_.mutable_settings();
  if (s.mode_given && s.mode == FileTestMode::kSeqWrite) {
    return Status::InvalidArgument(
        "--mpi-files=shared: --file-test-mode=seqwr re-creates the files, which ranks sharing "
        "them cannot do; prepare them once and run seqrewr, or use --mpi-files=per-rank");
  }
  if (s.validate && s.mode_given && ModeWrites(s.mode) && !IsSequential(s.mode)) {
    return Status::InvalidArgument(fmt::format(
        "--validate: with --mpi-files=shared the ranks of --file-test-mode={} write the same "
        "blocks, so none knows a block's last write; use a sequential mode (one segment per "
        "rank) or --mpi-files=per-rank",
        FileTestModeName(s.mode)));
  }
  s.share_rank = static_cast<uint32_t>(rank);
  s.share_ranks = static_cast<uint32_t>(ranks);
  return Status::Ok();
}

Status FileIoWorkload::Prepare(const PrepareContext& ctx) {
  EnsureConsole();
  if (ctx.sysbench_output) {
    console_.sysbench = true;
    console_.progress = nullptr;
  }
  if (settings().null_engine()) {
    // Its runs need no file: writing gigabytes nobody reads would surprise.
    if (console_.out != nullptr) {
      *console_.out << "--file-io-mode=null touches no file: nothing to prepare\n";
    }
    return Status::Ok();
  }
  if (process_folder_) {
    // Only the sub-folder itself: its parent is the --file-dir that was checked.
    std::error_code ec;
    std::filesystem::create_directory(settings().dir, ec);
    if (ec) {
      // The errno's text is the Status's own (ToString): not in the message too.
      return Status::IoError(fmt::format("cannot create the folder {}", settings().dir),
                             ec.value());
    }
  }
  if (settings().use_existing != UseExisting::kOff) {
    return PrepareWithExisting(fs_, settings(), console_);
  }
  // A folder that cannot take files is the user's setup (exit 2); a failure
  // once files are being written is a failed prepare (exit 1).
  LC_RETURN_IF_ERROR(CheckFolderTakesFiles(fs_, settings().dir, "--file-dir=" + settings().dir));
  LC_ASSIGN_OR_RETURN(FolderLock lock,
                      LockTestFolder(fs_, settings().dir, "loadcell fileio prepare"));
  return PrepareFiles(fs_, settings(), ctx.seed, console_);
}

Status FileIoWorkload::Cleanup(const PrepareContext& ctx) {
  EnsureConsole();
  if (ctx.sysbench_output) console_.sysbench = true;
  std::error_code ec;
  // This process' sub-folder was never prepared (or is cleaned already).
  if (process_folder_ && !std::filesystem::exists(settings().dir, ec)) return Status::Ok();
  {
    LC_ASSIGN_OR_RETURN(FolderLock lock,
                        LockTestFolder(fs_, settings().dir, "loadcell fileio cleanup"));
    LC_RETURN_IF_ERROR(CleanupFiles(fs_, settings().dir, console_));
    SayForeignLeft(fs_, settings(), console_);
  }
  // Once the lock is gone: removes the sub-folder only when nothing else is
  // left in it (what was not ours stays, and so does its folder).
  if (process_folder_) std::filesystem::remove(settings().dir, ec);
  return Status::Ok();
}

Status FileIoWorkload::CloseFiles() {
  Status first;
  for (const IoFile& f : files_) {
    Status st = fs_.Close(f.fd);
    if (!st.ok() && first.ok()) first = st;
  }
  files_.clear();
  return first;
}

namespace {

// The engine must work here; no silent fallback: an unavailable engine is
// replaced only with --file-io-fallback=on, and the note says so.
Status ChooseEngine(FileSystem& fs, FileIoSettings& s) {
  Result<std::unique_ptr<IoEngine>> probe = MakeIoEngine(s.engine, fs);
  if (probe.ok()) return Status::Ok();
  if (probe.status().code() != StatusCode::kUnavailable) return probe.status();
  if (!s.allow_fallback) {
    return Status::FailedPrecondition(probe.status().ToString() +
                                      "; choose another --file-io-mode, or allow "
                                      "--file-io-fallback=on");
  }
  const std::string from = s.engine;
  const bool libaio = s.direct && from != "libaio" && CheckIoEngine("libaio", "").ok();
  s.engine = libaio ? "libaio" : "sync";
  s.engine_note = fmt::format("{} is unavailable here ({}); --file-io-fallback=on chose {}", from,
                              probe.status().message(), s.engine);
  s.queue_depth = s.asynchronous() ? s.queue_depth_asked : 1;
  return Status::Ok();
}

// --validate needs room: at most half of the blocks may be in flight.
Status CheckValidateRoom(const FileIoSettings& s, int threads) {
  if (!s.validate) return Status::Ok();
  const uint64_t per_request =
      IsSequential(s.mode) ? (s.request_size + s.block_size - 1) / s.block_size : 1;
  const uint64_t in_flight = static_cast<uint64_t>(threads) * s.queue_depth * per_request;
  if (in_flight * 2 > s.total_blocks) {
    return Status::InvalidArgument(
        fmt::format("--validate: {} blocks in the files are too few for {} requests in flight "
                    "(--threads x --file-queue-depth); use larger files or fewer requests",
                    s.total_blocks, in_flight));
  }
  return Status::Ok();
}

}  // namespace

Status FileIoWorkload::ReadyManifest(const FileIoSettings& s) {
  if (s.mode == FileTestMode::kSeqWrite) {
    LC_ASSIGN_OR_RETURN(manifest_, RecreateForSeqWrite(fs_, s));
    return Status::Ok();
  }
  LC_ASSIGN_OR_RETURN(manifest_, CheckFilesForRun(fs_, s));
  if (!ModeWrites(s.mode)) return Status::Ok();
  // This run's writes decide what the blocks hold from now on.
  bool changed = false;
  if (manifest_.stamped && !s.stamp_writes) {
    manifest_.stamped = false;
    changed = true;
  }
  if (manifest_.pattern != WritePatternName(s.pattern) && manifest_.pattern != "mixed") {
    manifest_.pattern = "mixed";
    changed = true;
  }
  // Files that loadcell did not create are never listed.
  // Under --mpi-files=shared rank 0 writes it (the others would write the same).
  if (changed && !manifest_.files.empty() && s.share_rank == 0) {
    LC_RETURN_IF_ERROR(WriteManifest(fs_, s.dir, manifest_));
  }
  return Status::Ok();
}

void FileIoWorkload::WarnIfCached(const FileIoSettings& s) {
  const uint64_t ram = ReadSystemInfo().memory_bytes;
  const uint64_t total = s.file_size * s.num_files;
  if (!ModeReads(s.mode) || s.direct || ram == 0 || total >= ram) return;
  EnsureConsole();
  if (console_.warnings != nullptr) {
    *console_.warnings << fmt::format(
        "loadcell: warning: the test files ({}) fit in memory ({}): buffered reads may be "
        "served from the page cache, not the device; use --file-extra-flags=direct or a "
        "--file-total-size larger than memory to measure the device\n",
        HumanBytes(total), HumanBytes(ram));
  }
}

Status FileIoWorkload::OpenFiles(const FileIoSettings& s) {
  (void)CloseFiles();
  for (uint64_t i = 0; i < s.num_files; ++i) {
    Result<int> fd = OpenTestFile(fs_, s.dir, s.FileName(i), O_RDWR | s.open_flags,
                                  manifest_.Find(s.FileName(i)));
    if (!fd.ok()) {
      (void)CloseFiles();
      if (fd.status().err() == EINVAL && s.direct) {
        return Status::FailedPrecondition(
            fmt::format("{}: the filesystem does not support O_DIRECT (--file-extra-flags=direct)",
                        s.FilePath(i)));
      }
      const int err = fd.status().err();
      if (err == EROFS || err == EACCES || err == EPERM) {
        // The user's setup, found before the run starts: exit 2.
        return Status::FailedPrecondition(fmt::format("{}: cannot be opened for the test: {}",
                                                      s.FilePath(i), FileErrnoInWords(err)));
      }
      return fd.status();
    }
    IoFile f;
    f.path = s.FilePath(i);
    f.fd = *fd;
    f.size = s.file_size;
    files_.push_back(f);
    if (s.mode == FileTestMode::kSeqWrite && s.engine == "mmap") {
      // A mapping needs the file's final size (as sysbench does).
      if (Status st = fs_.Truncate(*fd, s.file_size); !st.ok()) {
        (void)CloseFiles();
        return st;
      }
    }
  }
  return Status::Ok();
}

Status FileIoWorkload::Init(int threads) {
  FileIoSettings& s = options_.mutable_settings();
  if (!s.mode_given) {
    return Status::FailedPrecondition(
        "run needs --file-test-mode: one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw");
  }
  LC_RETURN_IF_ERROR(ChooseEngine(fs_, s));
  LC_RETURN_IF_ERROR(CheckValidateRoom(s, threads));
  if (s.null_engine()) return ReadyNullFiles(s);
  // Held until Done: no other loadcell prepares or cleans this folder
  // meanwhile. Files shared by ranks: rank 0's lock holds it for them all
  // (a second run is refused there, and then every rank ends at the start).
  lock_.Release();
  if (s.share_rank == 0) {
    const std::string sharing =
        s.share_ranks > 1 ? fmt::format(" (rank 0 of {} sharing these files)", s.share_ranks) : "";
    LC_ASSIGN_OR_RETURN(lock_,
                        LockTestFolder(fs_, s.dir,
                                       fmt::format("loadcell fileio run --file-test-mode={}{}",
                                                   FileTestModeName(s.mode), sharing)));
  }
  Status st = ReadyFiles(s);
  if (!st.ok()) lock_.Release();  // a run that does not start holds nothing
  return st;
}

Status FileIoWorkload::ReadyFiles(FileIoSettings& s) {
  LC_RETURN_IF_ERROR(ReadyManifest(s));
  // Said only once the files are known to be right: a run that cannot
  // start gets its one line of error and nothing else.
  WarnIfCached(s);
  LC_RETURN_IF_ERROR(OpenFiles(s));
  shared_ = std::make_unique<FileIoShared>(s, files_);
  return shared_->Init();
}

Status FileIoWorkload::ReadyNullFiles(const FileIoSettings& s) {
  // The requests are planned over the files as they would be; none is
  // opened (no descriptor, no lock, no manifest: the folder is not read).
  std::vector<IoFile> files;
  for (uint64_t i = 0; i < s.num_files; ++i)
    files.push_back(IoFile{s.FilePath(i), -1, s.file_size});
  shared_ = std::make_unique<FileIoShared>(s, std::move(files));
  return shared_->Init();
}

Result<std::unique_ptr<Worker>> FileIoWorkload::NewWorker(const ThreadContext& ctx) {
  if (shared_ == nullptr) return Status::Internal("fileio: NewWorker before Init");
  LC_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> engine, MakeIoEngine(settings().engine, fs_));
  auto worker = std::make_unique<FileIoWorker>(*shared_, std::move(engine), ctx);
  if (Status st = worker->Open(); !st.ok()) {
    return Status(
        st.code(),
        fmt::format("{} engine on thread {}: {}", settings().engine, ctx.thread_id, st.message()),
        st.err());
  }
  return std::unique_ptr<Worker>(std::move(worker));
}

Status FileIoWorkload::Done() {
  const FileIoSettings& s = settings();
  Status st;
  if (s.mode == FileTestMode::kSeqWrite && shared_ != nullptr && !s.null_engine()) {
    // The files the run wrote whole are complete: every mode can use them;
    // the others keep the size their descriptor shows.
    std::vector<bool> whole(s.num_files);
    std::vector<uint64_t> sizes(s.num_files);
    for (uint64_t i = 0; i < s.num_files; ++i) {
      whole[i] = shared_->FileWritten(i);
      if (i >= files_.size()) continue;
      if (Result<FileInfo> info = fs_.Fstat(files_[i].fd); info.ok()) sizes[i] = info->size;
    }
    Result<uint64_t> complete = FinishSeqWrite(fs_, s, manifest_, whole, sizes);
    st = complete.status();
    seqwr_complete_ = complete.ok() ? *complete : 0;
  }
  shared_.reset();
  Status closed = CloseFiles();
  // Rank 0 of ranks sharing the files keeps the lock until every rank has
  // ended (the workload outlives the merge of their results).
  if (s.share_ranks <= 1) lock_.Release();
  return st.ok() ? closed : st;
}

}  // namespace loadcell
