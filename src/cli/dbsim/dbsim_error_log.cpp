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

}  // namespace

Status DbsimErrorLog::Open(const std::string& option, const std::string& path) {
  return file_.Open(option, path);
}

std::string DbsimErrorLog::EntryStart(const std::string& type, const std::string& user,
                                      uint64_t at_ns) const {
  return fmt::format("<ENTRY TYPE=\"{}\" USER=\"{}\" TIME_MS=\"{:.3f}\"", type, XmlText(user),
                     static_cast<double>(at_ns) / 1e6);
}

void DbsimErrorLog::Begin(const std::string& what, int64_t start_ns) {
  if (!is_open()) return;
  start_ns_ = start_ns;
  std::ostream& out = file_.stream();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << fmt::format(
             "<LOG TOOL=\"loadcell dbsim\" VERSION=\"{}\" FORMAT=\"1\" START=\"{:%Y-%m-%d "
             "%H:%M:%S} UTC\">\n",
             XmlText(kVersion), fmt::gmtime(std::time(nullptr)));
  Entry("INFO", "main", what);
}

void DbsimErrorLog::Entry(const std::string& type, const std::string& user,
                          const std::string& text) {
  if (!is_open()) return;
  const auto at_ns = static_cast<uint64_t>(std::max<int64_t>(0, MonotonicNow() - start_ns_));
  file_.stream() << EntryStart(type, user, at_ns) << ">\n"
                 << "  <EXTENDED_DESCRIPTION>" << XmlText(text) << "</EXTENDED_DESCRIPTION>\n"
                 << "</ENTRY>\n";
}

void DbsimErrorLog::Fault(const DbsimFaultRecord& f) {
  if (!is_open()) return;
  const DbPageExpectation& want = f.check.want;
  const DbPageHeader& seen = f.check.seen;
  std::ostream& out = file_.stream();
  out << EntryStart("ERROR", f.user, f.at_ns)
      << fmt::format(
             " KIND=\"{}\" FILE=\"{}\" FILE_ID=\"{}\" PAGE=\"{}\" OFFSET=\"{}\" "
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
