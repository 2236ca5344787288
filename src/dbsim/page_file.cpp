#include "dbsim/page_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace loadcell {

DbPageFile::DbPageFile(FileSystem& fs, int fd, const DbPageFileSettings& settings)
    : fs_(fs),
      fd_(fd),
      settings_(settings),
      keys_(settings.pages),
      latches_(std::make_unique<std::mutex[]>(kLatches)) {}

Status DbPageFile::WriteVersion(uint64_t page, uint64_t key, std::span<uint8_t> buf,
                                uint64_t timestamp_ns) {
  const uint32_t file = settings_.file_id;
  StampDbPage(buf,
              {file, page, key, DbContentSeed(settings_.run_seed, file, page, key), timestamp_ns});
  return WriteFully(fs_, fd_, buf.data(), buf.size(), Offset(page),
                    "file " + std::to_string(file) + " page " + std::to_string(page));
}

Status DbPageFile::StampAll(std::span<uint8_t> buf) {
  for (uint64_t page = 0; page < settings_.pages; ++page) {
    LC_RETURN_IF_ERROR(WriteVersion(page, 0, buf, 0));
  }
  return fs_.Fdatasync(fd_);
}

Status DbPageFile::WritePage(uint64_t page, std::span<uint8_t> buf, uint64_t timestamp_ns) {
  std::lock_guard latch(Latch(page));
  const uint64_t key = keys_.Acked(page) + 1;
  LC_RETURN_IF_ERROR(WriteVersion(page, key, buf, timestamp_ns));
  keys_.Acknowledge(page, key, settings_.write_through);
  Count(kWrites, 1);
  Count(kBytesWritten, buf.size());
  return Status::Ok();
}

DbPageExpectation DbPageFile::Expect(uint64_t page, uint64_t stamp) const {
  DbPageExpectation want;
  want.file_id = settings_.file_id;
  want.page_no = page;
  want.acked_key = keys_.Acked(page);
  want.durable_key = keys_.Durable(page);
  want.read_stamp = stamp;
  return want;
}

Result<DbPageCheck> DbPageFile::ReadPage(uint64_t page, std::span<uint8_t> buf, uint64_t serial,
                                         uint32_t thread) {
  const uint64_t stamp = DbReadStamp(serial, thread);
  FillDbReadStamp(buf, stamp);
  std::lock_guard latch(Latch(page));
  LC_RETURN_IF_ERROR(
      ReadFully(fs_, fd_, buf.data(), buf.size(), Offset(page),
                "file " + std::to_string(settings_.file_id) + " page " + std::to_string(page)));
  Count(kReads, 1);
  Count(kBytesRead, buf.size());
  return CheckDbPage(buf, Expect(page, stamp));
}

std::vector<std::unique_lock<std::mutex>> DbPageFile::LatchRun(uint64_t first, size_t count) {
  std::vector<size_t> stripes;
  stripes.reserve(count);
  for (size_t i = 0; i < count; ++i) stripes.push_back((first + i) % kLatches);
  std::sort(stripes.begin(), stripes.end());
  std::vector<std::unique_lock<std::mutex>> held;
  held.reserve(stripes.size());
  for (size_t stripe : stripes) held.emplace_back(latches_[stripe]);
  return held;
}

Status DbPageFile::CheckRun(uint64_t first, size_t count) const {
  if (count == 0 || count > kMaxRun || first + count > settings_.pages) {
    return Status::Internal(fmt::format("file {}: a run of {} pages from page {} (of {})",
                                        settings_.file_id, count, first, settings_.pages));
  }
  return Status::Ok();
}

Status DbPageFile::ReadPages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                             uint64_t serial, uint32_t thread, std::vector<DbPageCheck>& checks) {
  LC_RETURN_IF_ERROR(CheckRun(first, bufs.size()));
  const uint64_t stamp = DbReadStamp(serial, thread);
  std::vector<IoSlice> slices;
  slices.reserve(bufs.size());
  for (const auto& buf : bufs) {
    FillDbReadStamp(buf, stamp);
    slices.push_back({buf.data(), buf.size()});
  }
  auto held = LatchRun(first, bufs.size());
  LC_ASSIGN_OR_RETURN(size_t n, fs_.PReadV(fd_, slices, Offset(first)));
  if (n != bufs.size() * settings_.page_size) {
    return Status::IoError(
        fmt::format("file {}: a scatter read of {} pages from page {} read {} "
                    "bytes",
                    settings_.file_id, bufs.size(), first, n));
  }
  Count(kScatterReads, 1);
  Count(kBytesRead, n);
  checks.clear();
  checks.reserve(bufs.size());
  for (size_t i = 0; i < bufs.size(); ++i) {
    checks.push_back(CheckDbPage(bufs[i], Expect(first + i, stamp)));
  }
  return Status::Ok();
}

Status DbPageFile::WritePages(uint64_t first, std::span<const std::span<uint8_t>> bufs,
                              uint64_t timestamp_ns) {
  LC_RETURN_IF_ERROR(CheckRun(first, bufs.size()));
  auto held = LatchRun(first, bufs.size());
  std::vector<IoSlice> slices;
  slices.reserve(bufs.size());
  const uint32_t file = settings_.file_id;
  for (size_t i = 0; i < bufs.size(); ++i) {
    const uint64_t page = first + i;
    const uint64_t key = keys_.Acked(page) + 1;
    StampDbPage(bufs[i], {file, page, key, DbContentSeed(settings_.run_seed, file, page, key),
                          timestamp_ns});
    slices.push_back({bufs[i].data(), bufs[i].size()});
  }
  LC_ASSIGN_OR_RETURN(size_t n, fs_.PWriteV(fd_, slices, Offset(first)));
  if (n != bufs.size() * settings_.page_size) {
    return Status::IoError(
        fmt::format("file {}: a gather write of {} pages from page {} wrote "
                    "{} bytes",
                    file, bufs.size(), first, n));
  }
  for (size_t i = 0; i < bufs.size(); ++i) {
    keys_.Acknowledge(first + i, keys_.Acked(first + i) + 1, settings_.write_through);
  }
  Count(kGatherWrites, 1);
  Count(kBytesWritten, n);
  return Status::Ok();
}

Status DbPageFile::Flush() {
  const auto before = keys_.Snapshot();
  LC_RETURN_IF_ERROR(fs_.Fdatasync(fd_));
  keys_.MarkDurable(before);
  Count(kFlushes, 1);
  return Status::Ok();
}

DbPageFileCounts DbPageFile::counts() const {
  DbPageFileCounts c;
  c.reads = counts_[kReads].load();
  c.scatter_reads = counts_[kScatterReads].load();
  c.writes = counts_[kWrites].load();
  c.gather_writes = counts_[kGatherWrites].load();
  c.bytes_read = counts_[kBytesRead].load();
  c.bytes_written = counts_[kBytesWritten].load();
  c.flushes = counts_[kFlushes].load();
  return c;
}

}  // namespace loadcell
