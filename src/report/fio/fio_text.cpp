// fio 3.33's normal text output (report/fio/fio_report.h).

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <string>
#include <string_view>

#include "report/fio/fio_report.h"
#include "report/format.h"

namespace loadcell {
namespace {

// fio's short numbers: as they are below 10000, else scaled by `base` to
// the first prefix that brings them below it, with three significant digits
// when that leaves a fraction ("4800", "29.3k", "18.8MiB", "2000KiB").
std::string Short(double v, double base, const char* const* prefixes, int nprefixes) {
  if (v < 10000) return fmt::format("{}", static_cast<uint64_t>(std::llround(v)));
  int p = 0;
  while (v >= 10000 && p + 1 < nprefixes) {
    v /= base;
    ++p;
  }
  const int decimals = v >= 100 ? 0 : (v >= 10 ? 1 : 2);
  return fmt::format("{:.{}f}{}", v, decimals, prefixes[p]);
}

std::string Iops(double v) {
  static const char* const kP[] = {"", "k", "M", "G"};
  return Short(v, 1000, kP, 4);
}
// Bytes in binary (KiB, MiB) or decimal (kB, MB) units from a byte count.
std::string Bin(double bytes) {
  static const char* const kP[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 10000) return fmt::format("{}B", static_cast<uint64_t>(bytes));
  return Short(bytes, 1024, kP, 5);
}
std::string Dec(double bytes) {
  static const char* const kP[] = {"B", "kB", "MB", "GB", "TB"};
  if (bytes < 10000) return fmt::format("{}B", static_cast<uint64_t>(bytes));
  return Short(bytes, 1000, kP, 5);
}

// fio's numbers of at most six characters (a latency line's min and max):
// as they are up to six digits, else divided by 1000 to the first prefix
// that leaves six at most, with the decimals that still fit ("16450k",
// "1234.6k").
std::string Six(uint64_t num) {
  static const char* const kP[] = {"", "k", "M", "G", "T", "P", "E"};
  const auto digits = [](uint64_t v) { return fmt::format("{}", v).size(); };
  size_t p = 0;
  int64_t modulo = -1;
  while (p < std::size(kP) && digits(num) > 6) {
    modulo = static_cast<int64_t>(num % 1000);
    num /= 1000;
    ++p;
  }
  if (p >= std::size(kP)) p = 0;
  if (modulo < 0) return fmt::format("{}{}", num, kP[p]);
  const size_t len = digits(num);
  if (len + 1 >= 6) return fmt::format("{}{}", num + (modulo >= 500 ? 1 : 0), kP[p]);
  const std::string frac =
      fmt::format("{:.{}f}", static_cast<double>(modulo) / 1000, static_cast<int>(6 - len - 1));
  if (frac[0] == '1') ++num;
  return fmt::format("{}.{}{}", num, frac.substr(2), kP[p]);
}

// fio's latency unit: nsec, scaled to usec then msec while the minimum is
// above 9999.
std::pair<const char*, double> LatencyUnit(uint64_t min_ns) {
  if (min_ns <= 9999) return {"nsec", 1};
  if (min_ns / 1000 <= 9999) return {"usec", 1e3};
  return {"msec", 1e6};
}

void StatLine(std::ostream& out, const char* label, const LatencyHistogram& h) {
  const auto [unit, div] = LatencyUnit(h.Min());
  out << fmt::format("    {} ({}): min={}, max={}, avg={:5.2f}, stdev={:5.2f}\n", label, unit,
                     Six(static_cast<uint64_t>(static_cast<double>(h.Min()) / div)),
                     Six(static_cast<uint64_t>(static_cast<double>(h.Max()) / div)),
                     h.moments().Mean() / div, h.moments().StdDev() / div);
}

void PercentileTable(std::ostream& out, const char* label, const LatencyHistogram& h,
                     const std::vector<double>& list) {
  const auto [unit, div] = LatencyUnit(h.Min());
  out << fmt::format("    {} percentiles ({}):\n", label, unit);
  for (size_t i = 0; i < list.size(); ++i) {
    if (i % 4 == 0) out << "     |";
    const uint64_t v = static_cast<uint64_t>(static_cast<double>(h.Percentile(list[i])) / div);
    out << fmt::format(" {:5.2f}th=[{:5}]", list[i], v);
    const bool last = i + 1 == list.size();
    out << (last ? "\n" : (i % 4 == 3 ? ",\n" : ","));
  }
}

void TextDirection(std::ostream& out, const char* label, const FioDirFigures& f,
                   const FioReportJob& job, uint64_t group_bw) {
  if (f.total_ios == 0) return;
  // fio 3.33 ends a write line with its zoned-device resets (none here).
  const bool write = std::string_view(label) == "write";
  out << fmt::format("  {}: IOPS={}, BW={}/s ({}/s)({}/{}msec){}\n", label, Iops(f.iops),
                     Bin(static_cast<double>(f.bw_bytes)), Dec(static_cast<double>(f.bw_bytes)),
                     Bin(static_cast<double>(f.io_bytes)), f.runtime_ms,
                     write ? "; 0 zone resets" : "");
  if (f.latency == nullptr || f.latency->Count() == 0) return;
  if (f.slat != nullptr) StatLine(out, "slat", *f.slat);
  StatLine(out, "clat", *f.clat);
  StatLine(out, " lat", *f.latency);
  if (job.clat_percentiles) PercentileTable(out, "clat", *f.clat, job.percentiles);
  if (job.lat_percentiles) PercentileTable(out, " lat", *f.latency, job.percentiles);
  if (f.samples > 0) {
    out << fmt::format(
        "   bw (  KiB/s): min={:5.0f}, max={:5.0f}, per={:.2f}%, avg={:5.2f}, stdev={:5.2f}, "
        "samples={}\n",
        f.bw_min, f.bw_max,
        group_bw > 0 ? f.bw_mean * 1024 * 100 / static_cast<double>(group_bw) : 0, f.bw_mean,
        f.bw_dev, f.samples);
    out << fmt::format(
        "   iops        : min={:5.0f}, max={:5.0f}, avg={:5.2f}, stdev={:5.2f}, samples={}\n",
        f.iops_min, f.iops_max, f.iops_mean, f.iops_dev, f.samples);
  }
}

template <size_t N>
void LatencyRow(std::ostream& out, const char* unit, const std::array<double, N>& row,
                const std::vector<std::string>& keys) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < keys.size() && i < N; ++i) {
    if (row[i] >= 0.01) parts.push_back(fmt::format("{}={:.2f}%", keys[i], row[i]));
  }
  for (size_t i = 0; i < parts.size(); i += 5) {
    out << fmt::format("  lat ({})   : ", unit);
    for (size_t k = i; k < std::min(parts.size(), i + 5); ++k) {
      out << (k == i ? "" : ", ") << parts[k];
    }
    out << "\n";
  }
}

std::string TextTable(const RunResult& r, const char* prefix,
                      const std::array<const char*, 7>& keys) {
  static const char* const kLevels[] = {"1", "2", "4", "8", "16", "32", "ge64"};
  std::array<uint64_t, 7> n{};
  uint64_t total = 0;
  for (size_t i = 0; i < 7; ++i) {
    n[i] = FioCounter(r, std::string(prefix) + kLevels[i]);
    total += n[i];
  }
  std::string s;
  for (size_t i = 0; i < 7; ++i) {
    const double pct = total > 0 ? static_cast<double>(n[i]) * 100 / static_cast<double>(total) : 0;
    s += fmt::format("{}{}={:.1f}%", i == 0 ? "" : ", ", keys[i], pct);
  }
  return s;
}

void TextJob(std::ostream& out, const FioReport& report, const FioReportJob& job) {
  const RunResult& r = *job.result;
  const std::string when = FioTimeText(report.timestamp_ms);
  out << fmt::format("{}: (groupid={}, jobs={}): err={:2}: {}\n", job.name, job.groupid, job.jobs,
                     job.error, when);
  if (!job.description.empty()) out << "  Description  : [" << job.description << "]\n";
  for (const auto& [label, d] : FioReportDirs(job.unified)) {
    TextDirection(out, label, FioFigures(r, d), job, FioGroupBw(report, job.groupid, d));
  }
  if (!r.latency.empty() && r.latency[0].histogram.Count() > 0) {
    const FioLatencyTable t = FioJobLatencyTable(r);
    const std::vector<std::string> keys = {"2",   "4",   "10",  "20",  "50",
                                           "100", "250", "500", "750", "1000"};
    std::vector<std::string> ms_keys = keys;
    ms_keys.push_back("2000");
    ms_keys.push_back(">=2000");
    LatencyRow(out, "nsec", t.ns, keys);
    LatencyRow(out, "usec", t.us, keys);
    LatencyRow(out, "msec", t.ms, ms_keys);
  }
  const double runtime_ns = r.total_time_s * 1e9;
  const auto cpu = [&](const char* c) {
    return runtime_ns > 0 ? static_cast<double>(FioCounter(r, c)) * 100 / runtime_ns : 0;
  };
  out << fmt::format("  cpu          : usr={:.2f}%, sys={:.2f}%, ctx={}, majf={}, minf={}\n",
                     cpu("cpu_user_ns"), cpu("cpu_sys_ns"), FioCounter(r, "context_switches"),
                     FioCounter(r, "major_faults"), FioCounter(r, "minor_faults"));
  static const std::array<const char*, 7> kDepth = {"1", "2", "4", "8", "16", "32", ">=64"};
  static const std::array<const char*, 7> kBatch = {"0", "4", "8", "16", "32", "64", ">=64"};
  out << "  IO depths    : " << TextTable(r, "iodepth_", kDepth) << "\n";
  out << "     submit    : " << TextTable(r, "submit_", kBatch) << "\n";
  out << "     complete  : " << TextTable(r, "complete_", kBatch) << "\n";
  // unified_rw_reporting=mixed: fio counts every I/O in the first field.
  // dropped= is always 0: fio counts there only what its network engine
  // loses (UDP datagrams missing from the sequence), and loadcell has no
  // network engine.
  const bool mixed = job.unified == FioUnified::kMixed;
  const auto per_dir = [&](const std::array<const char*, 3>& names) {
    std::array<uint64_t, 3> n{};
    for (size_t k = 0; k < names.size(); ++k) n[mixed ? 0 : k] += FioCounter(r, names[k]);
    return fmt::format("{},{},{},0", n[0], n[1], n[2]);
  };
  out << "     issued rwts: total=" << per_dir({"reads", "writes", "trims"})
      << " short=" << per_dir({"short_reads", "short_writes", "short_trims"})
      << " dropped=0,0,0,0\n";
  out << fmt::format("     latency   : target=0, window=0, percentile=100.00%, depth={}\n",
                     job.iodepth);
  if (!job.failure.empty()) out << "  loadcell: job failed: " << job.failure << "\n";
  // loadcell's verdict of the job (or of its group's jobs as one), after
  // fio's lines; nothing with --verdict=off.
  out << report_internal::VerdictBlock(r.validity);
}

}  // namespace

void WriteFioText(const FioReport& report, std::ostream& out) {
  for (const FioReportJob& job : report.jobs) {
    if (job.result != nullptr) TextJob(out, report, job);
  }
  for (const auto& [id, g] : report.groups) {
    if (g == nullptr) continue;
    out << fmt::format("\nRun status group {} (all jobs):\n", id);
    // The group's lines follow its first job's unified_rw_reporting.
    FioUnified unified = FioUnified::kNone;
    for (const FioReportJob& job : report.jobs) {
      if (job.groupid == id) {
        unified = job.unified;
        break;
      }
    }
    for (const auto& [key, d] : FioReportDirs(unified)) {
      std::string label = key;
      for (char& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      label.insert(0, 7 - label.size(), ' ');
      const FioDirFigures f = FioFigures(*g, d);
      if (f.total_ios == 0) continue;
      // The slowest and the fastest job of the group, and their runtimes.
      double lo = 0, hi = 0;
      uint64_t run_lo = 0, run_hi = 0;
      bool first = true;
      for (const FioReportJob& job : report.jobs) {
        if (job.groupid != id || job.result == nullptr) continue;
        const FioDirFigures j = FioFigures(*job.result, d);
        if (j.total_ios == 0) continue;
        const double bw = static_cast<double>(j.bw_bytes);
        lo = first ? bw : std::min(lo, bw);
        hi = first ? bw : std::max(hi, bw);
        run_lo = first ? j.runtime_ms : std::min(run_lo, j.runtime_ms);
        run_hi = first ? j.runtime_ms : std::max(run_hi, j.runtime_ms);
        first = false;
      }
      out << fmt::format("{}: bw={}/s ({}/s), {}/s-{}/s ({}/s-{}/s), io={} ({}), run={}-{}msec\n",
                         label, Bin(static_cast<double>(f.bw_bytes)),
                         Dec(static_cast<double>(f.bw_bytes)), Bin(lo), Bin(hi), Dec(lo), Dec(hi),
                         Bin(static_cast<double>(f.io_bytes)), Dec(static_cast<double>(f.io_bytes)),
                         run_lo, run_hi);
    }
  }
  if (!report.disks.empty()) out << "\nDisk stats (read/write):\n";
  for (const FioDiskUtil& d : report.disks) {
    // A device on others is indented two more, its aggregates after its own.
    out << fmt::format("{}  {}: ios={}/{}, merge={}/{}, ticks={}/{}, in_queue={}, util={:.2f}%",
                       d.slaves > 0 ? "  " : "", d.name, d.read_ios, d.write_ios, d.read_merges,
                       d.write_merges, d.read_ticks_ms, d.write_ticks_ms, d.in_queue_ms,
                       d.util_pct);
    if (d.slaves > 0) {
      out << fmt::format(
          ", aggrios={}/{}, aggrmerge={}/{}, aggrticks={}/{}, aggrin_queue={}, aggrutil={:.2f}%",
          d.aggr_read_ios, d.aggr_write_ios, d.aggr_read_merges, d.aggr_write_merges,
          d.aggr_read_ticks_ms, d.aggr_write_ticks_ms, d.aggr_in_queue_ms, d.aggr_util_pct);
    }
    out << "\n";
  }
}

}  // namespace loadcell
