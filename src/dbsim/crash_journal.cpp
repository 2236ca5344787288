#include "dbsim/crash_journal.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <vector>

namespace loadcell {

namespace {

bool ReadNumber(std::string_view& rest, uint64_t& value) {
  while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (ec != std::errc() || p == rest.data()) return false;
  rest.remove_prefix(static_cast<size_t>(p - rest.data()));
  return true;
}

// One "I f p k" or "D f p k" line into `state`; false when malformed.
bool ApplyJournalLine(std::string_view line, DbJournalState& state) {
  if (line.size() < 2 || (line[0] != 'I' && line[0] != 'D') || line[1] != ' ') return false;
  std::string_view rest = line.substr(1);
  uint64_t file = 0;
  uint64_t page = 0;
  uint64_t key = 0;
  if (!ReadNumber(rest, file) || !ReadNumber(rest, page) || !ReadNumber(rest, key) ||
      !rest.empty() || file > UINT32_MAX) {
    return false;
  }
  DbJournalKeys& keys = state[{static_cast<uint32_t>(file), page}];
  uint64_t& slot = line[0] == 'I' ? keys.intended : keys.durable;
  slot = std::max(slot, key);
  return true;
}

}  // namespace

Result<DbJournalState> ParseDbJournal(std::string_view text, const std::string& path) {
  const size_t first_end = text.find('\n');
  if (text.substr(0, first_end) != kDbJournalFirstLine) {
    return Status::InvalidArgument(
        fmt::format("{}: not a loadcell dbsim journal (its first line is not '{}')", path,
                    kDbJournalFirstLine));
  }
  DbJournalState state;
  size_t start = first_end == std::string_view::npos ? text.size() : first_end + 1;
  for (int number = 2; start < text.size(); ++number) {
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) break;  // cut short by the crash
    if (!ApplyJournalLine(text.substr(start, end - start), state)) {
      return Status::InvalidArgument(fmt::format("{}:{}: not a journal line", path, number));
    }
    start = end + 1;
  }
  return state;
}

Result<DbCrashJournal> DbCrashJournal::Create(FileSystem& fs, const std::string& path) {
  LC_ASSIGN_OR_RETURN(int fd, fs.Open(path, O_WRONLY | O_CREAT | O_TRUNC));
  DbCrashJournal journal(fs, fd, path);
  const std::string first = std::string(kDbJournalFirstLine) + "\n";
  LC_RETURN_IF_ERROR(WriteFully(fs, fd, first.data(), first.size(), 0, path));
  journal.offset_ = first.size();
  LC_RETURN_IF_ERROR(fs.Fdatasync(fd));
  return journal;
}

DbCrashJournal::DbCrashJournal(DbCrashJournal&& other) noexcept
    : fs_(other.fs_),
      fd_(other.fd_),
      path_(std::move(other.path_)),
      offset_(other.offset_),
      unflushed_(other.unflushed_) {
  other.fd_ = -1;
}

DbCrashJournal::~DbCrashJournal() {
  if (fd_ >= 0) (void)fs_->Close(fd_);
}

Status DbCrashJournal::Append(char kind, std::span<const DbJournalPage> pages) {
  std::string lines;
  for (const DbJournalPage& p : pages) {
    lines += fmt::format("{} {} {} {}\n", kind, p.file_id, p.page, p.key);
  }
  LC_RETURN_IF_ERROR(WriteFully(*fs_, fd_, lines.data(), lines.size(), offset_, path_));
  offset_ += lines.size();
  return Status::Ok();
}

Status DbCrashJournal::Intend(std::span<const DbJournalPage> pages) {
  LC_RETURN_IF_ERROR(Append('I', pages));
  unflushed_ = false;
  return fs_->Fdatasync(fd_);
}

Status DbCrashJournal::Durable(std::span<const DbJournalPage> pages) {
  LC_RETURN_IF_ERROR(Append('D', pages));
  unflushed_ = true;
  return Status::Ok();
}

Status DbCrashJournal::Finish() {
  if (!unflushed_) return Status::Ok();
  unflushed_ = false;
  return fs_->Fdatasync(fd_);
}

}  // namespace loadcell
