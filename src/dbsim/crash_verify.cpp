#include "dbsim/crash_verify.h"

#include <algorithm>
#include <string>

namespace loadcell {

namespace {
constexpr size_t kMaxCrashLines = 20;
}  // namespace

uint64_t DbCrashVerdict::TotalErrors() const {
  uint64_t total = 0;
  for (uint64_t n : errors) total += n;
  return total;
}

Status VerifyDbFileAfterCrash(FileSystem& fs, const DbCrashFile& file,
                              const DbJournalState& journal, DbCrashVerdict& out) {
  std::vector<uint8_t> buf(file.page_size);
  for (uint64_t page = 0; page < file.pages; ++page) {
    const uint64_t stamp = DbReadStamp(page, 0xC0FFEE);
    FillDbReadStamp(buf, stamp);
    LC_RETURN_IF_ERROR(
        ReadFully(fs, file.fd, buf.data(), buf.size(), page * file.page_size,
                  "file " + std::to_string(file.file_id) + " page " + std::to_string(page)));
    DbPageExpectation want;
    want.file_id = file.file_id;
    want.page_no = page;
    want.read_stamp = stamp;
    if (auto it = journal.find({file.file_id, page}); it != journal.end()) {
      want.acked_key = it->second.intended;
      want.durable_key = std::min(it->second.durable, it->second.intended);
    }
    const DbPageCheck check = CheckDbPage(buf, want);
    ++out.pages;
    const bool unflushed = want.acked_key > want.durable_key;
    if (check.ok()) {
      ++out.intact;
    } else if (check.fault == DbPageFault::kStalePage) {
      ++out.unflushed_lost;
    } else if (check.fault == DbPageFault::kTornPage && unflushed) {
      ++out.torn_unflushed;
    } else {
      ++out.errors[static_cast<size_t>(check.fault)];
      if (out.lines.size() < kMaxCrashLines)
        out.lines.push_back(DescribeDbPageCheck(buf, want, check));
    }
  }
  return Status::Ok();
}

}  // namespace loadcell
