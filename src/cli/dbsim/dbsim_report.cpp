#include "cli/dbsim/dbsim_report.h"

#include <fmt/format.h>

#include <array>
#include <map>

#include "dbsim/page_check.h"
#include "report/format.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {

namespace {

constexpr std::array<std::string_view, 9> kKindWords = {"events",  "reads",         "scatter reads",
                                                        "writes",  "gather writes", "log writes",
                                                        "flushes", "grows",         "shrinks"};

double Mib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

std::string Micros(uint64_t ns) { return fmt::format("{:.1f}", static_cast<double>(ns) / 1000.0); }

uint64_t CounterOf(const RunResult& r, int index) {
  return index < static_cast<int>(r.counters.size()) ? r.counters[index] : 0;
}

// The time a user waited at the throttle, and what only some users do
// (at a depth above 1: the I/Os in flight, mean and most at once).
void WriteUserExtras(const RunResult& r, const DbsimUserWorkload* user, std::ostream& out) {
  std::string line = fmt::format("throttled {:.1f} ms",
                                 static_cast<double>(CounterOf(r, kDbsimThrottledNs)) / 1e6);
  if (user != nullptr && user->depth() > 1) {
    line += fmt::format("; depth {} per thread: {:.2f} I/Os in flight on average, {} at most",
                        user->depth(), DbsimMeanInFlight(r), user->peak_in_flight());
  }
  const std::pair<int, std::string_view> extras[] = {{kDbsimRollbacks, "rollbacks"},
                                                     {kDbsimLazyWrites, "lazy writes"},
                                                     {kDbsimPagesGrown, "pages grown"},
                                                     {kDbsimPagesShrunk, "pages shrunk"},
                                                     {kDbsimYields, "yields"}};
  for (const auto& [counter, words] : extras) {
    if (const uint64_t n = CounterOf(r, counter); n > 0) line += fmt::format("; {} {}", words, n);
  }
  out << "    " << line << "\n";
}

// One user's lines: what it did, how long each kind of I/O took, its
// failed checks.
void WriteUser(const JobRunResult& job, const DbsimUserWorkload* user, std::ostream& out) {
  const RunResult& r = job.result;
  out << fmt::format("  {} ({} thread{}):\n", job.name, r.threads.size(),
                     r.threads.size() == 1 ? "" : "s");
  uint64_t ios = 0;
  std::string counts;
  for (size_t k = 1; k < r.latency.size() && k < kKindWords.size(); ++k) {
    const uint64_t n = r.latency[k].histogram.Count();
    if (n == 0) continue;
    ios += n;
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", kKindWords[k], n);
  }
  const double iops = r.total_time_s > 0 ? static_cast<double>(ios) / r.total_time_s : 0;
  out << fmt::format("    {}; {:.2f} MiB read, {:.2f} MiB written; {:.1f} IOPS\n",
                     counts.empty() ? "no I/O" : counts, Mib(CounterOf(r, kDbsimBytesRead)),
                     Mib(CounterOf(r, kDbsimBytesWritten)), iops);
  for (size_t k = 1; k < r.latency.size() && k < kKindWords.size(); ++k) {
    const LatencyHistogram& h = r.latency[k].histogram;
    if (h.Count() == 0) continue;
    out << fmt::format("    {} latency (us): p50 {}, p95 {}, p99 {}, max {}\n", kKindWords[k],
                       Micros(h.Percentile(50)), Micros(h.Percentile(95)), Micros(h.Percentile(99)),
                       Micros(h.Max()));
  }
  std::string failed;
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    const uint64_t n = CounterOf(r, kDbsimFaultCounters + k - 1);
    if (n == 0) continue;
    failed += fmt::format("{}{} {}", failed.empty() ? "" : ", ",
                          DbPageFaultName(static_cast<DbPageFault>(k)), n);
  }
  WriteUserExtras(r, user, out);
  out << fmt::format("    pages checked {}, failed checks: {}", CounterOf(r, kDbsimPagesChecked),
                     failed.empty() ? "none" : failed);
  if (!failed.empty()) {
    out << fmt::format(" (re-reads {}, good {})", CounterOf(r, kDbsimRereads),
                       CounterOf(r, kDbsimGoodRereads));
  }
  out << "\n";
  if (!r.failure.ok() && !IsEndOfWork(r.failure)) {
    out << "    run failed: " << r.failure.message() << "\n";
  }
}

// ", sparse", ", grown 2 times and shrunk 3 times from 512 pages".
std::string Resized(const DbPageFile& f, const DbsimFileResize& resize) {
  std::string words = f.settings().sparse ? ", sparse" : "";
  if (!resize.shrinkable) return words;
  const DbPageFileCounts c = f.counts();
  return words + fmt::format(", grown {} and shrunk {} times from {} pages", c.grows, c.shrinks,
                             f.settings().pages);
}

// A data file's I/O as every user timed it (the run's total: each job's
// result merged): IOPS over the run's time, the latency percentiles and the
// longest I/O; the time its I/Os waited at the throttle; its failed pages
// by kind.
void WriteFileFigures(const DbsimReportInput& in, size_t i, std::ostream& out) {
  const DbsimFileFigures f = DbsimFileFiguresOf(in.result->total, i);
  std::string line = fmt::format("    {} I/Os, {:.1f} IOPS", f.ios, f.iops);
  if (f.latency != nullptr && f.ios > 0) {
    const LatencyHistogram& h = *f.latency;
    line +=
        fmt::format("; latency (us): p50 {}, p95 {}, p99 {}, longest {}", Micros(h.Percentile(50)),
                    Micros(h.Percentile(95)), Micros(h.Percentile(99)), Micros(h.Max()));
  }
  line += fmt::format("; throttled {:.1f} ms", static_cast<double>(f.throttled_ns) / 1e6);
  std::string failed;
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    if (f.failed[k] == 0) continue;
    failed += fmt::format("{}{} {}", failed.empty() ? "" : ", ",
                          DbPageFaultName(static_cast<DbPageFault>(k)), f.failed[k]);
  }
  out << line << "; failed checks: " << (failed.empty() ? "none" : failed) << "\n";
}

void WriteFiles(const DbsimReportInput& in, std::ostream& out) {
  out << "Files:\n";
  const DbsimDatabase& db = *in.db;
  for (size_t i = 0; i < db.data_files(); ++i) {
    const DbPageFile& f = db.file(i);
    const DbPageFileCounts c = f.counts();
    out << fmt::format(
        "  {} (file {}, {} pages{}): reads {}, scatter reads {}, writes {}, gather writes {}, "
        "flushes {}; {:.2f} MiB read, {:.2f} MiB written\n",
        db.file_name(i), f.settings().file_id, f.pages(), Resized(f, db.resize(i)), c.reads,
        c.scatter_reads, c.writes, c.gather_writes, c.flushes, Mib(c.bytes_read),
        Mib(c.bytes_written));
    WriteFileFigures(in, i, out);
  }
  uint64_t log_bytes = 0;
  for (const JobRunResult& job : in.result->jobs)
    log_bytes += CounterOf(job.result, kDbsimLogBytes);
  out << fmt::format("  {} (log): {:.2f} MiB written\n", in.log_name, Mib(log_bytes));
}

// The simulation's own cost per page (docs/dbsim.md, "Speed"), or that no
// page was verified.
void WriteVerifyCost(const DbsimReportInput& in, std::ostream& out) {
  if (in.config != nullptr && !in.config->verify) {
    out << "  not verified (--verify=off): no page stamped or checked, no key table; the audit "
           "users read without checking\n";
    return;
  }
  const DbPageFileCounts c = in.db->TotalCounts();
  const double ns = DbVerifyNsPerPage(c);
  if (ns <= 0) {
    out << "  verification cost: no page verified\n";
    return;
  }
  out << fmt::format(
      "  verification cost: {:.3f} us per page (stamping, read stamp and check, key table; {} "
      "pages, 1 call in {} timed): {:.2f}M pages/s per core\n",
      ns / 1000.0, c.verified_pages, kDbVerifySampleEvery, 1000.0 / ns);
}

void WriteChecks(const DbsimReportInput& in, std::ostream& out) {
  const DbsimDatabase& db = *in.db;
  uint64_t checked = 0;
  out << "Page checks:\n";
  WriteVerifyCost(in, out);
  if (in.injected != nullptr) {
    out << fmt::format("  injected fault ({}): {}\n", in.injected_option,
                       in.injected->Fired() > 0 ? "fired" : "never fired");
  }
  if (in.config != nullptr && !in.config->verify) return;  // nothing was checked
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    const auto kind = static_cast<DbPageFault>(k);
    const uint64_t n = db.FaultCount(kind);
    if (n > 0) {
      const uint64_t pages = db.FaultPages(kind);
      out << fmt::format("  {}: {} failed check{} of {} page{}\n", DbPageFaultName(kind), n,
                         n == 1 ? "" : "s", pages, pages == 1 ? "" : "s");
    }
    checked += n;
  }
  if (checked == 0) {
    out << "  every page read back was the version last written\n";
    return;
  }
  out << "  first failures:\n";
  for (const std::string& line : db.FaultLines()) out << "    " << line << "\n";
}

}  // namespace

DbsimFileFigures DbsimFileFiguresOf(const RunResult& total, size_t file) {
  DbsimFileFigures f;
  const auto kind = static_cast<size_t>(DbsimFileKind(file));
  if (kind < total.latency.size()) {
    f.latency = &total.latency[kind].histogram;
    f.ios = f.latency->Count();
  }
  f.iops = total.total_time_s > 0 ? static_cast<double>(f.ios) / total.total_time_s : 0;
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    f.failed[k] = CounterOf(total, DbsimFileFaultCounter(file, static_cast<DbPageFault>(k)));
  }
  f.throttled_ns = CounterOf(total, DbsimFileThrottledCounter(file));
  return f;
}

CheckOutcome DbsimUnverifiedOutcome() {
  CheckOutcome o;
  o.id = "page-checks";
  o.level = CheckLevel::kWarn;
  o.seen =
      "pages not verified (--verify=off): no page was stamped or checked, the audit users read "
      "every page without checking it; this run says nothing of whether the storage keeps pages";
  o.advice = "drop --verify=off to check every page read back";
  return o;
}

void WriteDbsimHeader(const DbsimReportInput& in, std::ostream& out) {
  std::string mode;
  if (in.config != nullptr && in.config->null_engine) mode += ", null engine (no file I/O)";
  if (in.config != nullptr && !in.config->verify) mode += ", pages not verified";
  out << fmt::format(
      "loadcell dbsim: {} data file{}, 1 log file, {}-byte pages, {} s x {} cycle{}{}\n\n",
      in.db->data_files(), in.db->data_files() == 1 ? "" : "s", in.page_size, in.duration_s,
      in.cycles, in.cycles == 1 ? "" : "s", mode);
}

void WriteDbsimText(const DbsimReportInput& in, std::ostream& out) {
  out << "Users:\n";
  for (size_t i = 0; i < in.result->jobs.size(); ++i) {
    WriteUser(in.result->jobs[i], i < in.users.size() ? in.users[i] : nullptr, out);
  }
  out << "\n";
  WriteFiles(in, out);
  out << "\n";
  WriteChecks(in, out);
  out << "\n";
  // The verdict of the run as a whole: every user's, merged.
  out << report_internal::VerdictBlock(in.verdict);
}

}  // namespace loadcell
