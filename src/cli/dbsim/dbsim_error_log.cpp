#include "cli/dbsim/dbsim_error_log.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <ctime>

#include "core/clock.h"
#include "core/version.h"
#include "report/html/html_svg.h"

namespace loadcell {

namespace {

// Text safe in an XML attribute or element: control bytes spelled out, the
// markup characters as entities.
std::string XmlText(std::string_view s) { return html::Escape(EscapeControlBytes(s)); }

std::string Hex(uint64_t v) { return fmt::format("0x{:x}", v); }

// A user's thread number, the last word of its name ("random user 3": 3);
// 0 when it has none.
int ThreadNumberOf(const std::string& user) {
  const auto space = user.find_last_of(' ');
  const std::string last = space == std::string::npos ? user : user.substr(space + 1);
  int n = 0;
  for (const char c : last) {
    if (c < '0' || c > '9' || n > 100'000'000) return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

Status DbsimErrorLog::Open(const std::string& option, const std::string& path) {
  return file_.Open(option, path);
}

std::string DbsimErrorLog::EntryStart(const EntryHead& e, uint64_t at_ns) const {
  // SQLIOSim's attributes (its stylesheet's columns): the wall clock's time
  // and date, the thread, the user, where in the program and the result
  // code with its words; then loadcell's own: the time since the start.
  const std::tm now = fmt::localtime(std::time(nullptr));
  return fmt::format(
      "<ENTRY TYPE=\"{}\" TIME=\"{:%H:%M:%S}\" DATE=\"{:%m/%d/%y}\" TID=\"{}\" User=\"{}\" "
      "File=\"{}\" Line=\"{}\" Func=\"{}\" HRESULT=\"{}\" SYSTEXT=\"{}\" TIME_MS=\"{:.3f}\"",
      e.type, now, now, e.tid, XmlText(e.user), e.file, e.line, e.func, e.hresult,
      XmlText(e.systext), static_cast<double>(at_ns) / 1e6);
}

void DbsimErrorLog::Begin(const std::string& what, int64_t start_ns) {
  if (!is_open()) return;
  start_ns_ = start_ns;
  std::ostream& out = file_.stream();
  // SQLIOSim's stylesheet, when it lies beside the log, renders it.
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<?xml-stylesheet type=\"text/xsl\" href=\"ErrorLog.xslt\"?>\n"
      << fmt::format(
             "<LOG TOOL=\"loadcell dbsim\" VERSION=\"{}\" FORMAT=\"2\" START=\"{:%Y-%m-%d "
             "%H:%M:%S} UTC\">\n",
             XmlText(kVersion), fmt::gmtime(std::time(nullptr)));
  Entry("INFO", "main", what);
}

void DbsimErrorLog::Entry(const std::string& type, const std::string& user,
                          const std::string& text) {
  if (!is_open()) return;
  const auto at_ns = static_cast<uint64_t>(std::max<int64_t>(0, MonotonicNow() - start_ns_));
  EntryHead e;
  e.type = type;
  e.user = user;
  e.func = "RunDbsimCommand";
  e.file = "src/cli/dbsim/dbsim_command.cpp";
  file_.stream() << EntryStart(e, at_ns) << ">\n"
                 << "  <EXTENDED_DESCRIPTION>" << XmlText(text) << "</EXTENDED_DESCRIPTION>\n"
                 << "</ENTRY>\n";
}

void DbsimErrorLog::Fault(const DbsimFaultRecord& f) {
  if (!is_open()) return;
  const DbPageExpectation& want = f.check.want;
  const DbPageHeader& seen = f.check.seen;
  std::ostream& out = file_.stream();
  EntryHead e;
  e.type = "ERROR";
  e.user = f.user;
  e.tid = ThreadNumberOf(f.user);
  e.file = "src/dbsim/page_check.cpp";
  e.func = "CheckDbPage";
  // As SQLIOSim's for a page that failed its check:
  // ERROR_DISK_OPERATION_FAILED, the disk failed even after retries.
  e.hresult = "0x80070467";
  e.systext = fmt::format("{}: the page read back is not the version last written",
                          DbPageFaultName(f.check.fault));
  out << EntryStart(e, f.at_ns)
      << fmt::format(
             " KIND=\"{}\" DATA_FILE=\"{}\" FILE_ID=\"{}\" PAGE=\"{}\" OFFSET=\"{}\" "
             "PAGE_SIZE=\"{}\">\n",
             DbPageFaultName(f.check.fault), XmlText(f.file), want.file_id, want.page_no,
             want.page_no * f.page_size, f.page_size);
  out << fmt::format(
      "  <EXPECTED FILE_ID=\"{}\" PAGE=\"{}\" KEY=\"{}\" DURABLE_KEY=\"{}\" READ_STAMP=\"{}\"/>\n",
      want.file_id, want.page_no, want.acked_key, want.durable_key, Hex(want.read_stamp));
  out << fmt::format(
      "  <SEEN MAGIC=\"{}\" VERSION=\"{}\" SECTOR_SIZE=\"{}\" PAGE_SIZE=\"{}\" FILE_ID=\"{}\" "
      "PAGE=\"{}\" KEY=\"{}\" SEED=\"{}\" TIMESTAMP_NS=\"{}\" CHECKSUM=\"{}\"/>\n",
      Hex(seen.magic), seen.version, seen.sector_size, seen.page_size, seen.file_id, seen.page_no,
      seen.write_key, Hex(seen.seed), seen.timestamp_ns, Hex(seen.checksum));
  // The first sector that failed: a torn page's holds another key, an
  // unread one still the read stamp.
  const uint64_t sector_offset = want.page_no * f.page_size + f.check.sector * kDbSectorSize;
  if (f.check.fault == DbPageFault::kTornPage) {
    out << fmt::format("  <SECTOR NUMBER=\"{}\" OFFSET=\"{}\" KEY=\"{}\"/>\n", f.check.sector,
                       sector_offset, f.sector_key);
  } else if (f.check.fault == DbPageFault::kBytesNotRead) {
    out << fmt::format("  <SECTOR NUMBER=\"{}\" OFFSET=\"{}\" READ_STAMP=\"{}\"/>\n",
                       f.check.sector, sector_offset, Hex(want.read_stamp));
  }
  if (f.differing_bytes > 0) {
    out << fmt::format("  <DIFFERING_BYTES COUNT=\"{}\"/>\n", f.differing_bytes);
  }
  out << "  <RETRY>" << XmlText(f.retry) << "</RETRY>\n"
      << "  <EXTENDED_DESCRIPTION>" << XmlText(f.line) << "</EXTENDED_DESCRIPTION>\n"
      << "</ENTRY>\n";
}

Status DbsimErrorLog::Finish(const std::string& summary) {
  if (!is_open()) return Status::Ok();
  Entry("INFO", "main", summary);
  file_.stream() << "</LOG>\n";
  return file_.Commit();
}

}  // namespace loadcell
