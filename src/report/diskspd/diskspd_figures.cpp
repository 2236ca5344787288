// The figures of DiskSpd's reports, computed once from each job's result.

#include <fmt/format.h>

#include <algorithm>

#include "report/diskspd/diskspd_report.h"

namespace loadcell {
namespace {

// FioJobWorkload's counters and latency kinds (workloads/fio/fio_job.h),
// found by name: the report layer does not include the workload.
size_t CounterAt(const std::vector<std::string>& names, const char* name) {
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return i;
  }
  return names.size();
}

const LatencyHistogram* KindOf(const std::vector<LatencyStats>& kinds, const char* kind) {
  for (const LatencyStats& k : kinds) {
    if (k.kind == kind) return &k.histogram;
  }
  return nullptr;
}

}  // namespace

DiskspdRow DiskspdRowOf(const RunResult& r, int thread, size_t target, const std::string& path,
                        uint64_t file_size) {
  DiskspdRow row;
  row.thread = thread;
  row.target = target;
  row.path = path;
  row.file_size = file_size;
  static const char* const kBytes[] = {"bytes_read", "bytes_written"};
  static const char* const kIos[] = {"reads", "writes"};
  static const char* const kKinds[] = {"read", "write"};
  for (size_t d = 0; d < 2; ++d) {
    DiskspdDirection& dir = row.dirs[d];
    const size_t bi = CounterAt(r.counter_names, kBytes[d]);
    const size_t ii = CounterAt(r.counter_names, kIos[d]);
    if (bi < r.counters.size()) dir.bytes = r.counters[bi];
    if (ii < r.counters.size()) dir.ios = r.counters[ii];
    if (const LatencyHistogram* h = KindOf(r.latency, kKinds[d])) dir.latency = *h;
    for (const IntervalSnapshot& iv : r.intervals) {
      dir.bucket_ios.push_back(ii < iv.counters.size() ? iv.counters[ii] : 0);
      const LatencyHistogram* h = KindOf(iv.latency, kKinds[d]);
      dir.bucket_latency.push_back(h != nullptr ? *h : LatencyHistogram());
    }
  }
  static const char* const kWaits[kDiskspdWaitCounts] = {
      "wait_completion", "wait_throttle", "sleep_throttle", "lookaside",
      "lookaside_0",     "lookaside_1",   "lookaside_2",    "lookaside_3",
      "lookaside_4",     "lookaside_5",   "lookaside_6",    "lookaside_ge7"};
  for (size_t w = 0; w < kDiskspdWaitCounts; ++w) {
    const size_t at = CounterAt(r.counter_names, kWaits[w]);
    if (at < r.counters.size()) row.waits[w] = r.counters[at];
  }
  return row;
}

std::vector<DiskspdThreadWait> DiskspdThreadWaits(const DiskspdReport& r) {
  std::vector<DiskspdThreadWait> out;
  for (const DiskspdRow& row : r.rows) {
    if (out.empty() || out.back().first != row.thread) out.push_back({row.thread, {}});
    for (size_t w = 0; w < kDiskspdWaitCounts; ++w) out.back().second[w] += row.waits[w];
  }
  return out;
}

std::vector<DiskspdCpu> DiskspdCpuTable(const std::vector<PerCpuTimes>& start,
                                        const std::vector<PerCpuTimes>& end) {
  std::vector<DiskspdCpu> out;
  for (const PerCpuTimes& e : end) {
    const auto s = std::find_if(start.begin(), start.end(),
                                [&](const PerCpuTimes& x) { return x.cpu == e.cpu; });
    if (s == start.end()) continue;
    const auto since = [](uint64_t a, uint64_t b) {
      return b > a ? static_cast<double>(b - a) : 0.0;
    };
    const double user = since(s->user, e.user);
    const double kernel = since(s->kernel, e.kernel);
    const double idle = since(s->idle, e.idle);
    const double all = user + kernel + idle;
    DiskspdCpu c;
    c.id = e.cpu;
    if (all > 0) {
      c.user = 100.0 * user / all;
      c.kernel = 100.0 * kernel / all;
      c.idle = 100.0 * idle / all;
      c.usage = c.user + c.kernel;
    } else {
      c.idle = 100.0;
    }
    out.push_back(c);
  }
  return out;
}

std::string DiskspdSizeText(uint64_t bytes) {
  static const struct {
    int shift;
    const char* name;
  } kUnits[] = {{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}};
  for (const auto& u : kUnits) {
    const uint64_t unit = uint64_t{1} << u.shift;
    if (bytes < unit) continue;
    if ((bytes & (unit - 1)) == 0) return fmt::format("{}{}", bytes >> u.shift, u.name);
    return fmt::format("{:.2f}{}", static_cast<double>(bytes) / static_cast<double>(unit), u.name);
  }
  return std::to_string(bytes);
}

}  // namespace loadcell
