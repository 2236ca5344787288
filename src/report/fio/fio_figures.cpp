// fio's figures of a result (report/fio/fio_report.h): pure functions.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <tuple>

#include "os/system_info.h"
#include "report/fio/fio_report.h"

namespace loadcell {
namespace {

constexpr std::array<double, 10> kFioBounds = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};

// Mean and population standard deviation of `v` (0, 0 when empty).
std::pair<double, double> MeanDev(const std::vector<double>& v) {
  if (v.empty()) return {0, 0};
  double sum = 0;
  for (double x : v) sum += x;
  const double mean = sum / static_cast<double>(v.size());
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  // fio's deviation of samples divides by n - 1.
  const double n1 = v.size() > 1 ? static_cast<double>(v.size() - 1) : 1;
  return {mean, std::sqrt(sq / n1)};
}

size_t CounterIndex(const std::vector<std::string>& names, const std::string& name) {
  return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

}  // namespace

uint64_t FioCounter(const RunResult& r, const std::string& name) {
  const size_t i = CounterIndex(r.counter_names, name);
  return i < r.counters.size() ? r.counters[i] : 0;
}

FioDirFigures FioFigures(const RunResult& r, FioDir3 d) {
  static const char* const kBytes[] = {"bytes_read", "bytes_written", "bytes_trimmed"};
  static const char* const kIos[] = {"reads", "writes", "trims"};
  static const char* const kShort[] = {"short_reads", "short_writes", "short_trims"};
  static const char* const kKinds[] = {"read", "write", "trim"};
  static const char* const kClat[] = {"clat_read", "clat_write", ""};
  static const char* const kSlat[] = {"slat_read", "slat_write", ""};
  // The directions `d` stands for: one, or all three (kMixed).
  const int first = d == FioDir3::kMixed ? 0 : static_cast<int>(d);
  const int last = d == FioDir3::kMixed ? 2 : first;
  FioDirFigures f;
  std::vector<const LatencyHistogram*> hists, clats, slats;
  bool split = false;  // the engine timed its submissions: clat is not lat
  for (int k = first; k <= last; ++k) {
    f.io_bytes += FioCounter(r, kBytes[k]);
    f.total_ios += FioCounter(r, kIos[k]);
    f.short_ios += FioCounter(r, kShort[k]);
    const LatencyHistogram* lat = nullptr;
    const LatencyHistogram* clat = nullptr;
    for (const LatencyStats& l : r.latency) {
      if (l.kind == kKinds[k] && (l.histogram.Count() > 0 || first == last)) lat = &l.histogram;
      if (l.histogram.Count() == 0) continue;
      if (l.kind == kClat[k]) clat = &l.histogram;
      if (l.kind == kSlat[k]) slats.push_back(&l.histogram);
    }
    if (lat != nullptr) hists.push_back(lat);
    split = split || clat != nullptr;
    if (clat != nullptr || lat != nullptr) clats.push_back(clat != nullptr ? clat : lat);
  }
  const auto merge = [](const std::vector<const LatencyHistogram*>& from,
                        std::shared_ptr<const LatencyHistogram>* keep) -> const LatencyHistogram* {
    if (from.size() <= 1) return from.empty() ? nullptr : from.front();
    auto m = std::make_shared<LatencyHistogram>();
    for (const LatencyHistogram* h : from) m->Merge(*h);
    *keep = m;
    return m.get();
  };
  f.latency = merge(hists, &f.merged);
  f.clat = split ? merge(clats, &f.merged_clat) : f.latency;
  f.slat = merge(slats, &f.merged_slat);
  if (f.total_ios == 0 || r.total_time_s <= 0) return f;
  f.runtime_ms = static_cast<uint64_t>(std::llround(r.total_time_s * 1000));
  f.iops = static_cast<double>(f.total_ios) / r.total_time_s;
  f.bw_bytes = static_cast<uint64_t>(static_cast<double>(f.io_bytes) / r.total_time_s);
  std::vector<double> bw, iops;
  for (const IntervalSnapshot& s : r.intervals) {
    if (s.duration_s <= 0) continue;
    uint64_t bytes = 0, ios = 0;
    bool have = true;
    for (int k = first; k <= last; ++k) {
      const size_t bi = CounterIndex(r.counter_names, kBytes[k]);
      const size_t ii = CounterIndex(r.counter_names, kIos[k]);
      if (bi >= s.counters.size() || ii >= s.counters.size()) {
        have = have && first != last;  // a mixed figure sums what there is
        continue;
      }
      bytes += s.counters[bi];
      ios += s.counters[ii];
    }
    if (!have) continue;
    // Whole KiB/s and I/Os per second, cut down as fio keeps its samples:
    // the min, the max and the mean printed are then of the same numbers
    // (a min of 1999.6 printed as 2000 stood above a mean of 1999.91).
    bw.push_back(std::floor(static_cast<double>(bytes) / 1024 / s.duration_s));
    iops.push_back(std::floor(static_cast<double>(ios) / s.duration_s));
  }
  f.samples = bw.size();
  if (!bw.empty()) {
    f.bw_min = *std::min_element(bw.begin(), bw.end());
    f.bw_max = *std::max_element(bw.begin(), bw.end());
    std::tie(f.bw_mean, f.bw_dev) = MeanDev(bw);
    f.iops_min = *std::min_element(iops.begin(), iops.end());
    f.iops_max = *std::max_element(iops.begin(), iops.end());
    std::tie(f.iops_mean, f.iops_dev) = MeanDev(iops);
  }
  return f;
}

std::vector<std::pair<const char*, FioDir3>> FioReportDirs(FioUnified u) {
  std::vector<std::pair<const char*, FioDir3>> dirs;
  if (u != FioUnified::kMixed) {
    dirs = {{"read", FioDir3::kRead}, {"write", FioDir3::kWrite}, {"trim", FioDir3::kTrim}};
  }
  if (u != FioUnified::kNone) dirs.emplace_back("mixed", FioDir3::kMixed);
  return dirs;
}

FioLatencyTable FioLatencyTableOf(const LatencyHistogram& h) {
  FioLatencyTable t;
  const double total = static_cast<double>(h.Count());
  if (total <= 0) return t;
  const std::vector<uint64_t>& b = h.buckets();
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    // The bucket's midpoint (as the json+ bins name it), in whole ns.
    const uint64_t lo = HistogramBucketLow(i);
    const uint64_t mid = lo + (HistogramBucketHigh(i) - lo) / 2;
    const double v = static_cast<double>(mid);
    const double share = static_cast<double>(b[i]) * 100 / total;
    const auto place = [&](auto& row, double x) {
      for (size_t k = 0; k < kFioBounds.size(); ++k) {
        if (x < kFioBounds[k]) {
          row[k] += share;
          return true;
        }
      }
      return false;
    };
    if (v < 1e3) {
      place(t.ns, v);
    } else if (v < 1e6) {
      place(t.us, v / 1e3);
    } else if (!place(t.ms, v / 1e6)) {
      t.ms[v < 2e9 ? 10 : 11] += share;
    }
  }
  // fio's rule: a range that holds any I/O shows at least 0.01%.
  const auto floor = [](auto& row) {
    for (double& x : row) {
      if (x > 0 && x < 0.01) x = 0.01;
    }
  };
  floor(t.ns);
  floor(t.us);
  floor(t.ms);
  return t;
}

FioLatencyTable FioJobLatencyTable(const RunResult& r) {
  const FioDirFigures all = FioFigures(r, FioDir3::kMixed);
  return all.clat != nullptr ? FioLatencyTableOf(*all.clat) : FioLatencyTable{};
}

uint64_t FioGroupBw(const FioReport& report, int groupid, FioDir3 d) {
  for (const auto& [id, r] : report.groups) {
    if (id == groupid && r != nullptr) return FioFigures(*r, d).bw_bytes;
  }
  return 0;
}

std::string FioTimeText(int64_t ms) {
  const std::tm t = LocalTime(static_cast<std::time_t>(ms / 1000));
  static const char* const kDays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* const kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  return fmt::format("{} {} {:2} {:02}:{:02}:{:02} {}", kDays[t.tm_wday % 7],
                     kMonths[t.tm_mon % 12], t.tm_mday, t.tm_hour, t.tm_min, t.tm_sec,
                     t.tm_year + 1900);
}

}  // namespace loadcell
