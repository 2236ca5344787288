#include <memory>
#include <sstream>
#include <string>

#include "cli/dbsim/dbsim_report.h"
#include "core/version.h"
#include "dbsim/page_check.h"
#include "report/html/html_report.h"
#include "report/json/json_reader.h"
#include "report/json/json_writer.h"
#include "report/json/validity_json.h"
#include "report/reporter.h"
#include "workloads/dbsim/dbsim_users.h"

namespace loadcell {

namespace {

constexpr const char* kDbsimJsonKinds[] = {"event", "read",         "scatter_read",
                                           "write", "gather_write", "log_write",
                                           "flush", "grow",         "shrink"};

uint64_t JsonCounter(const RunResult& r, int index) {
  return index < static_cast<int>(r.counters.size()) ? r.counters[index] : 0;
}

// {"count", "p50_ns", "p95_ns", "p99_ns", "max_ns"} of `h`.
void WriteJsonHistogram(const LatencyHistogram& h, JsonWriter& w) {
  w.BeginObject();
  w.Key("count").Uint(h.Count());
  w.Key("p50_ns").Uint(h.Percentile(50));
  w.Key("p95_ns").Uint(h.Percentile(95));
  w.Key("p99_ns").Uint(h.Percentile(99));
  w.Key("max_ns").Uint(h.Max());
  w.EndObject();
}

void WriteJsonLatencies(const RunResult& r, JsonWriter& w) {
  w.Key("io").BeginObject();
  for (size_t k = 1; k < r.latency.size() && k < std::size(kDbsimJsonKinds); ++k) {
    w.Key(kDbsimJsonKinds[k]);
    WriteJsonHistogram(r.latency[k].histogram, w);
  }
  w.EndObject();
}

// A count by kind of failure under `key` (a user's or file's failed checks
// by default), every kind named: {"torn page": 0, ...}.
template <typename CountOf>
void WriteJsonFailed(CountOf count_of, JsonWriter& w, const char* key = "failed_pages") {
  w.Key(key).BeginObject();
  for (int k = 1; k < kDbPageFaultKinds; ++k) {
    w.Key(DbPageFaultName(static_cast<DbPageFault>(k))).Uint(count_of(k));
  }
  w.EndObject();
}

void WriteJsonUser(const JobRunResult& job, const DbsimUserWorkload* user, JsonWriter& w) {
  const RunResult& r = job.result;
  w.BeginObject();
  w.Key("name").String(job.name);
  w.Key("cycle").Int(job.group / kDbsimGroupsPerCycle + 1);
  w.Key("threads").Uint(r.threads.size());
  w.Key("time_s").Double(r.total_time_s);
  // The depth each thread keeps, and the depth reached: the mean in flight
  // by Little's law and the most at once (every thread of the user).
  w.Key("io_depth").Int(user != nullptr ? user->depth() : 1);
  w.Key("mean_in_flight").Double(DbsimMeanInFlight(r));
  w.Key("peak_in_flight").Int(user != nullptr ? user->peak_in_flight() : 0);
  WriteJsonLatencies(r, w);
  // Every kind of I/O it timed, per second of its time (the text's IOPS).
  uint64_t ios = 0;
  for (size_t k = 1; k < r.latency.size() && k < std::size(kDbsimJsonKinds); ++k) {
    ios += r.latency[k].histogram.Count();
  }
  w.Key("iops").Double(r.total_time_s > 0 ? static_cast<double>(ios) / r.total_time_s : 0);
  w.Key("bytes_read").Uint(JsonCounter(r, kDbsimBytesRead));
  w.Key("bytes_written").Uint(JsonCounter(r, kDbsimBytesWritten));
  w.Key("pages_checked").Uint(JsonCounter(r, kDbsimPagesChecked));
  w.Key("cache_hits").Uint(JsonCounter(r, kDbsimCacheHits));
  w.Key("good_rereads").Uint(JsonCounter(r, kDbsimGoodRereads));
  w.Key("rereads").Uint(JsonCounter(r, kDbsimRereads));
  w.Key("throttled_ns").Uint(JsonCounter(r, kDbsimThrottledNs));
  w.Key("rollbacks").Uint(JsonCounter(r, kDbsimRollbacks));
  w.Key("lazy_writes").Uint(JsonCounter(r, kDbsimLazyWrites));
  w.Key("pages_grown").Uint(JsonCounter(r, kDbsimPagesGrown));
  w.Key("pages_shrunk").Uint(JsonCounter(r, kDbsimPagesShrunk));
  w.Key("yields").Uint(JsonCounter(r, kDbsimYields));
  WriteJsonFailed([&r](int k) { return JsonCounter(r, kDbsimFaultCounters + k - 1); }, w);
  w.Key("failure");
  if (r.failure.ok() || IsEndOfWork(r.failure)) {
    w.Null();
  } else {
    w.String(r.failure.message());
  }
  if (r.validity.judged) {
    w.Key("validity");
    WriteValidityJson(w, r.validity);
  }
  w.EndObject();
}

void WriteJsonFiles(const DbsimReportInput& in, JsonWriter& w) {
  w.Key("files").BeginArray();
  for (size_t i = 0; i < in.db->data_files(); ++i) {
    const DbPageFile& f = in.db->file(i);
    const DbPageFileCounts c = f.counts();
    w.BeginObject();
    w.Key("name").String(in.db->file_name(i));
    w.Key("file_id").Uint(f.settings().file_id);
    w.Key("pages").Uint(f.pages());
    w.Key("initial_pages").Uint(f.settings().pages);
    w.Key("capacity_pages").Uint(f.capacity());
    w.Key("sparse").Bool(f.settings().sparse);
    w.Key("shrinkable").Bool(in.db->resize(i).shrinkable);
    w.Key("grows").Uint(c.grows);
    w.Key("shrinks").Uint(c.shrinks);
    w.Key("reads").Uint(c.reads);
    w.Key("scatter_reads").Uint(c.scatter_reads);
    w.Key("writes").Uint(c.writes);
    w.Key("gather_writes").Uint(c.gather_writes);
    w.Key("flushes").Uint(c.flushes);
    w.Key("bytes_read").Uint(c.bytes_read);
    w.Key("bytes_written").Uint(c.bytes_written);
    // As every user timed it (the users' results merged, as theirs are).
    const DbsimFileFigures figures = DbsimFileFiguresOf(in.result->total, i);
    w.Key("iops").Double(figures.iops);
    w.Key("throttled_ns").Uint(figures.throttled_ns);
    w.Key("io");
    WriteJsonHistogram(figures.latency != nullptr ? *figures.latency : LatencyHistogram{}, w);
    WriteJsonFailed([&figures](int k) { return figures.failed[k]; }, w);
    w.EndObject();
  }
  w.EndArray();
}

void WriteJsonChecks(const DbsimReportInput& in, JsonWriter& w) {
  const DbsimDatabase& db = *in.db;
  const bool verify = in.config == nullptr || in.config->verify;
  w.Key("page_checks").BeginObject();
  // The simulation's own cost per page (null when nothing was verified).
  const DbPageFileCounts c = db.TotalCounts();
  const double ns = verify ? DbVerifyNsPerPage(c) : 0;
  w.Key("verified").Bool(verify);
  w.Key("verified_pages").Uint(verify ? c.verified_pages : 0);
  w.Key("verify_sampled_pages").Uint(c.verify_sampled_pages);
  w.Key("verify_ns_per_page");
  if (ns > 0) {
    w.Double(ns);
  } else {
    w.Null();
  }
  w.Key("verify_pages_per_second_per_core");
  if (ns > 0) {
    w.Double(1e9 / ns);
  } else {
    w.Null();
  }
  w.Key("failed").Uint(db.TotalFaults());
  WriteJsonFailed([&db](int k) { return db.FaultCount(static_cast<DbPageFault>(k)); }, w,
                  "by_kind");
  // `failed` and `by_kind` count failed checks; these the distinct pages.
  w.Key("pages_failed").Uint(db.TotalFaultPages());
  WriteJsonFailed([&db](int k) { return db.FaultPages(static_cast<DbPageFault>(k)); }, w,
                  "pages_by_kind");
  w.Key("first_failures").BeginArray();
  for (const std::string& line : db.FaultLines()) w.String(line);
  w.EndArray();
  w.Key("injected_fault");
  if (in.injected != nullptr) {
    w.BeginObject();
    w.Key("option").String(in.injected_option);
    w.Key("fired").Bool(in.injected->Fired() > 0);
    w.EndObject();
  } else {
    w.Null();
  }
  w.EndObject();
}

void WriteJsonVerdict(const Validity& v, JsonWriter& w) {
  w.Key("verdict").BeginObject();
  w.Key("judged").Bool(v.judged);
  w.Key("overall").String(OverallName(v.overall()));
  w.Key("not_passed").BeginArray();
  for (const CheckOutcome* c : v.NotPassed()) {
    w.BeginObject();
    w.Key("id").String(c->id);
    w.Key("level").String(CheckLevelName(c->level));
    w.Key("seen").String(c->seen);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// dbsim's own members of the document, beside the schema's.
void WriteDbsimMembers(const DbsimReportInput& in, JsonWriter& w) {
  w.Key("tool").String("loadcell");
  w.Key("version").String(kVersion);
  w.Key("test").String("dbsim");
  w.Key("page_size").Uint(in.page_size);
  w.Key("cycle_s").Double(in.duration_s);
  w.Key("cycles").Int(in.cycles);
  w.Key("engine").String(in.config != nullptr && in.config->null_engine ? "null" : "sync");
  w.Key("verify").Bool(in.config == nullptr || in.config->verify);
  w.Key("users").BeginArray();
  for (size_t i = 0; i < in.result->jobs.size(); ++i) {
    WriteJsonUser(in.result->jobs[i], i < in.users.size() ? in.users[i] : nullptr, w);
  }
  w.EndArray();
  WriteJsonFiles(in, w);
  w.Key("log").BeginObject();
  uint64_t log_bytes = 0;
  for (const JobRunResult& job : in.result->jobs)
    log_bytes += JsonCounter(job.result, kDbsimLogBytes);
  w.Key("name").String(in.log_name);
  w.Key("bytes_written").Uint(log_bytes);
  w.EndObject();
  WriteJsonChecks(in, w);
  // The run's `validity` (each check's advice and figures) is the run
  // schema's, written by the JSON reporter from DbsimRunResult.
  WriteJsonVerdict(in.verdict, w);
}

}  // namespace

void WriteDbsimJson(const DbsimReportInput& in, std::ostream& out) {
  ReportSettings settings;
  settings.percentile = 99;  // the users' own (PlanUser)
  const RunResult run = DbsimRunResult(in);
  std::unique_ptr<Reporter> json = MakeJsonReporter(
      out, *in.workload, settings, [&in](JsonWriter& w) { WriteDbsimMembers(in, w); });
  json->OnEnd(run);
  out << "\n";
}

Status WriteDbsimHtml(const DbsimReportInput& in, std::ostream& out) {
  // The page of the JSON document, read back as `loadcell report` reads it.
  std::ostringstream json;
  WriteDbsimJson(in, json);
  LC_ASSIGN_OR_RETURN(ResultData data, ParseResultJson(json.str(), "the run"));
  out << RenderRunHtml(data);
  return Status::Ok();
}

}  // namespace loadcell
