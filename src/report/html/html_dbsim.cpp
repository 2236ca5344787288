// The tables of a dbsim run's page (docs/html-report.md): a row per user
// of each cycle and per data file, with the figures its JSON's `users` and
// `files` hold (docs/dbsim.md, "JSON"), and a row per kind of I/O each
// user did with its percentiles.

#include <string>
#include <vector>

#include "report/html/html_page.h"
#include "report/html/html_svg.h"

namespace loadcell::html {

namespace {

std::string Count(uint64_t n) { return std::to_string(n); }

std::string Mib(uint64_t bytes) {
  return ShortNumber(static_cast<double>(bytes) / (1024.0 * 1024.0), 4);
}

std::string Duration(uint64_t ns) { return ns > 0 ? ShortDuration(static_cast<double>(ns)) : "-"; }

}  // namespace

std::string DbsimTablesSection(const ResultData& r) {
  if (r.dbsim_users.empty() && r.dbsim_files.empty()) return "";
  std::string out = "<section id=\"dbsim\"><h2>Users and files</h2>";
  std::vector<std::vector<std::string>> users = {
      {"user", "reads", "scatter reads", "writes", "gather writes", "log writes", "MiB read",
       "MiB written", "IOPS", "longest I/O", "throttled", "failed checks"}};
  // Each kind of I/O a user did, as the text report times it.
  std::vector<std::vector<std::string>> kinds = {{"user", "I/O", "count", "p50", "p99", "longest"}};
  for (const DbsimRowFigures& u : r.dbsim_users) {
    users.push_back({u.name, Count(u.reads), Count(u.scatter_reads), Count(u.writes),
                     Count(u.gather_writes), Count(u.log_writes), Mib(u.bytes_read),
                     Mib(u.bytes_written), ShortNumber(u.iops, 4), Duration(u.max_ns),
                     Duration(u.throttled_ns), Count(u.failed_pages)});
    for (const DbsimKindFigures& k : u.kinds) {
      kinds.push_back({u.name, k.kind, Count(k.count), Duration(k.p50_ns), Duration(k.p99_ns),
                       Duration(k.max_ns)});
    }
  }
  std::vector<bool> numeric(users.front().size(), true);
  numeric[0] = false;
  out += "<h3>Users</h3>" + Table(users, numeric, "dbsim-users");
  numeric.assign(kinds.front().size(), true);
  numeric[0] = numeric[1] = false;
  out += "<h3>Users' I/O latency by kind</h3>" + Table(kinds, numeric, "dbsim-user-kinds");
  std::vector<std::vector<std::string>> files = {
      {"file", "reads", "scatter reads", "writes", "gather writes", "flushes", "MiB read",
       "MiB written", "IOPS", "p50", "p99", "longest I/O", "throttled", "failed checks"}};
  for (const DbsimRowFigures& f : r.dbsim_files) {
    files.push_back({f.name, Count(f.reads), Count(f.scatter_reads), Count(f.writes),
                     Count(f.gather_writes), Count(f.flushes), Mib(f.bytes_read),
                     Mib(f.bytes_written), ShortNumber(f.iops, 4), Duration(f.p50_ns),
                     Duration(f.p99_ns), Duration(f.max_ns), Duration(f.throttled_ns),
                     Count(f.failed_pages)});
  }
  numeric.assign(files.front().size(), true);
  numeric[0] = false;
  out += "<h3>Data files</h3>" + Table(files, numeric, "dbsim-files");
  return out + "</section>\n";
}

}  // namespace loadcell::html
