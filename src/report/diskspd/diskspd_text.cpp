// DiskSpd 2.2's text report, section for section and column for column.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "report/diskspd/diskspd_report.h"
#include "report/format.h"

namespace loadcell {
namespace {

using diskspd::DiskspdCache;
using diskspd::DiskspdDistribution;
using diskspd::DiskspdSwitches;
using diskspd::DiskspdWriteData;

double DiskspdMs(double ns) { return ns / 1e6; }

// DiskSpd's "%10.3lf" of a latency in ms, or N/A.
std::string LatencyCell(const LatencyHistogram& h, double ns) {
  return h.Count() > 0 ? fmt::format("{:10.3f}", DiskspdMs(ns)) : "N/A";
}

void InputTarget(const DiskspdReport& r, const DiskspdReportTarget& t, std::string& o) {
  const DiskspdSwitches& sw = t.sw != nullptr ? *t.sw : *r.sw;
  o += fmt::format("\tpath: '{}'\n", t.path);
  o += fmt::format("\t\tthink time: {}ms\n", sw.think_ms);
  o += fmt::format("\t\tburst size: {}\n", sw.burst);
  if (sw.remote_cache_only) {
    o += "\t\tlocal software cache disabled, remote cache enabled\n";
  } else {
    o += sw.cache == DiskspdCache::kUnbuffered ? "\t\tsoftware cache disabled\n"
                                               : "\t\tusing software cache\n";
  }
  if (sw.write_through) {
    o += sw.cache == DiskspdCache::kUnbuffered
             ? "\t\thardware write cache disabled, writethrough on\n"
             : "\t\thardware and software write caches disabled, writethrough on\n";
  } else {
    o += "\t\tusing hardware write cache, writethrough off\n";
  }
  if (sw.memory_mapped) {
    o += sw.mapped_flush == 'v' ? "\t\tmemory mapped I/O enabled, flush mode: FlushViewOfFile\n"
                                : "\t\tmemory mapped I/O enabled\n";
  }
  if (sw.write_data == DiskspdWriteData::kZero) o += "\t\tzeroing write buffers\n";
  if (sw.write_data == DiskspdWriteData::kRandomBuffer) {
    o += "\t\twrite buffer size: " + DiskspdSizeText(sw.write_buffer_size) + "\n";
    o += sw.write_buffer_file.empty()
             ? "\t\twrite buffer source: random fill\n"
             : fmt::format("\t\twrite buffer source: '{}'\n", sw.write_buffer_file);
  }
  if (sw.parallel_async) o += "\t\tusing parallel async I/O\n";
  if (sw.write_ratio == 0) {
    o += "\t\tperforming read test\n";
  } else if (sw.write_ratio == 100) {
    o += "\t\tperforming write test\n";
  } else {
    o += fmt::format("\t\tperforming mix test (read/write ratio: {}/{})\n", 100 - sw.write_ratio,
                     sw.write_ratio);
  }
  o += "\t\tblock size: " + DiskspdSizeText(sw.block_size) + "\n";
  if (sw.random_ratio == 100) {
    o += "\t\tusing random I/O (alignment: ";
  } else if (sw.random_ratio > 0) {
    o += fmt::format("\t\tusing mixed random/sequential I/O ({}% random) (alignment/stride: ",
                     sw.random_ratio);
  } else {
    o += fmt::format("\t\tusing{} sequential I/O (stride: ", sw.interlocked ? " interlocked" : "");
  }
  o += DiskspdSizeText(sw.Alignment()) + ")\n";
  o += fmt::format("\t\tnumber of outstanding I/O operations per thread: {}\n", sw.requests);
  if (sw.base_offset != 0) o += "\t\tbase file offset: " + DiskspdSizeText(sw.base_offset) + "\n";
  if (sw.max_offset != 0) o += "\t\tmax file size: " + DiskspdSizeText(sw.max_offset) + "\n";
  if (sw.thread_stride != 0) {
    o += "\t\tthread stride size: " + DiskspdSizeText(sw.thread_stride) + "\n";
  }
  if (sw.large_pages) o += "\t\tloadcell: I/O buffers in huge pages (-l)\n";
  if (sw.hint_sequential) o += "\t\tusing FILE_FLAG_SEQUENTIAL_SCAN hint\n";
  if (sw.hint_random) o += "\t\tusing FILE_FLAG_RANDOM_ACCESS hint\n";
  if (sw.hint_temporary) o += "\t\tusing FILE_ATTRIBUTE_TEMPORARY hint\n";
  if (sw.total_threads == 0) o += fmt::format("\t\tthreads per file: {}\n", sw.threads_per_target);
  if (sw.requests > 1 && sw.total_threads == 0) {
    o += sw.completion_routines ? "\t\tusing completion routines (ReadFileEx/WriteFileEx)\n"
                                : "\t\tusing I/O Completion Ports\n";
  }
  static const char* const kPriority[] = {"normal", "very low", "low", "normal"};
  o += fmt::format("\t\tIO priority: {}\n", kPriority[sw.io_priority <= 3 ? sw.io_priority : 0]);
  if (sw.throughput_iops != 0) {
    o += fmt::format("\t\tthroughput rate-limited to {} IOPS\n", sw.throughput_iops);
  } else if (sw.throughput_bytes_per_ms != 0) {
    o += fmt::format("\t\tthroughput rate-limited to {} B/ms\n", sw.throughput_bytes_per_ms);
  }
  if (sw.distribution != DiskspdDistribution::kUniform) {
    o += "\t\tIO Distribution:\n";
    uint32_t io = 0;
    uint64_t span = 0;
    for (const diskspd::DiskspdRange& g : sw.ranges) {
      if (sw.distribution == DiskspdDistribution::kPercent) {
        o += fmt::format("\t\t  {:3}% of IO => [{:3}% - {:3}%) of target\n", g.io_pct, span,
                         span + g.span);
      } else {
        o += fmt::format("\t\t  {:3}% of IO => [{} - {}) of target\n", g.io_pct,
                         DiskspdSizeText(span), DiskspdSizeText(span + g.span));
      }
      io += g.io_pct;
      span += g.span;
    }
    (void)io;
  }
  // loadcell's own lines: how the target was opened and run.
  const std::string& engine = t.engine.empty() ? r.engine : t.engine;
  const std::string& flags = t.engine.empty() ? r.open_flags : t.open_flags;
  if (engine.empty()) return;  // -Rp: nothing planned
  const char* hint = sw.hint_random       ? ", posix_fadvise(RANDOM)"
                     : sw.hint_sequential ? ", posix_fadvise(SEQUENTIAL)"
                                          : "";
  o += fmt::format("\t\tloadcell: engine {}, open flags {}{}{}\n", engine,
                   flags.empty() ? "none" : flags, hint,
                   t.created ? fmt::format(", created fully written ({} bytes)", t.size) : "");
  for (const std::string& note : t.notes) o += "\t\tloadcell: " + note + "\n";
}

void InputTimespan(const DiskspdReport& r, size_t number, std::string& o) {
  const DiskspdSwitches& sw = *r.sw;
  o += fmt::format("\ttimespan: {:3}\n", number);
  o += "\t-------------\n";
  o += fmt::format("\tduration: {}s\n", sw.duration_s);
  o += fmt::format("\twarm up time: {}s\n", sw.warmup_s);
  o += fmt::format("\tcool down time: {}s\n", sw.cooldown_s);
  if (sw.disable_affinity) o += "\taffinity disabled\n";
  if (sw.latency) o += "\tmeasuring latency\n";
  if (sw.iops_stddev) o += fmt::format("\tgathering IOPS at intervals of {}ms\n", sw.bucket_ms);
  o += fmt::format("\trandom seed: {}\n", r.seed);
  if (sw.total_threads != 0) {
    o += fmt::format("\tthread pool with {} threads\n", sw.total_threads);
    o += fmt::format("\tnumber of outstanding I/O operations per thread: {}\n",
                     sw.requests_per_thread);
  }
  if (!sw.affinity.empty()) {
    o += "\tadvanced affinity round robin (group/core): ";
    for (size_t i = 0; i < sw.affinity.size(); ++i) {
      o += fmt::format("{}{}/{}", i > 0 ? ", " : "", sw.affinity[i].group, sw.affinity[i].cpu);
    }
    o += "\n";
  }
  if (!r.pinned_cpus.empty()) {
    o += "\tloadcell: threads pinned round robin to CPU";
    for (size_t i = 0; i < r.pinned_cpus.size(); ++i) {
      o += fmt::format("{} {}", i > 0 ? "," : (r.pinned_cpus.size() > 1 ? "s" : ""),
                       r.pinned_cpus[i]);
    }
    o += "\n";
  }
  if (sw.write_data == DiskspdWriteData::kRandomPerIo) {
    o += "\tgenerating random data for each write IO\n";
    o += "\t  WARNING: this increases the CPU cost of issuing writes and should only\n";
    o += "\t           be compared to other results using the -Zr flag\n";
  }
  for (const DiskspdReportTarget& t : r.targets) InputTarget(r, t, o);
  o += "\n";
}

void InputParameters(const std::vector<DiskspdReport>& spans, std::string& o) {
  const DiskspdSwitches& sw = *spans.front().sw;
  o += fmt::format("\nCommand Line: {}\n\n", sw.command_line);
  o += "Input parameters:\n\n";
  if (sw.verbose) o += "\tusing verbose mode\n";
  for (size_t i = 0; i < spans.size(); ++i) InputTimespan(spans[i], i + 1, o);
}

void SystemInformation(const DiskspdReport& r, std::string& o) {
  o += "System information:\n\n";
  o += fmt::format("\tcomputer name: {}\n", r.computer);
  o += fmt::format("\tstart time: {}\n", r.start_time_utc);
  const CpuTopology& t = r.topology;
  o += fmt::format("\n\tcpu count:\t\t{}\n", r.cpu_count);
  o += fmt::format("\tcore count:\t\t{}\n", t.cores.size());
  o += fmt::format("\tgroup count:\t\t{}\n", t.groups.size());
  o += fmt::format("\tnode count:\t\t{}\n", t.nodes.size());
  o += fmt::format("\tsocket count:\t\t{}\n", t.sockets.size());
  o += fmt::format("\theterogeneous cores:\t{}\n", t.heterogeneous ? "y" : "n");
  o += "\n\tactive power scheme:\tn/a\n";
  o += fmt::format("\ttool:\t\t\tloadcell {} (DiskSpd 2.2 command line)\n", r.version);
  if (r.ranks > 0) {
    o += fmt::format(
        "\tloadcell: {} MPI ranks merged, {} targets; rank R's thread T is thread R x {} + T\n",
        r.ranks, r.mpi_files, r.thread_count / r.ranks);
  }
}

// DiskSpd's CPU table: a column each for the socket, NUMA node, group,
// core (with SMT) and efficiency class when the machine has more than one
// of them, then the group-relative CPU number and its times.
void CpuTable(const DiskspdReport& r, std::string& o) {
  const CpuTopology& t = r.topology;
  const bool sockets = t.sockets.size() > 1, nodes = t.nodes.size() > 1,
             groups = t.groups.size() > 1, smt = t.Smt(), classes = t.heterogeneous;
  int best_class = 0;
  for (const CpuTopologyUnit& c : t.cores) best_class = std::max(best_class, c.efficiency_class);
  std::string rule;
  std::string blank;
  auto column = [&](bool on, const char* head, size_t width) {
    if (!on) return;
    o += head;
    rule += std::string(width, '-');
    blank += std::string(width, ' ');
  };
  o += "\n";
  column(sockets, "Socket | ", 9);
  column(nodes, "Node | ", 7);
  column(groups, "Group | ", 8);
  column(smt, "Core | ", 7);
  column(classes, "Class | ", 8);
  o += "CPU |  Usage |  User  | Kernel |  Idle\n";
  rule += "----------------------------------------\n";
  o += rule;
  double usage = 0, user = 0, kernel = 0, idle = 0;
  for (size_t i = 0; i < r.cpus.size(); ++i) {
    const DiskspdCpu& c = r.cpus[i];
    const CpuTopology::Place p = t.PlaceOf(i);
    if (sockets) o += fmt::format("{:7}| ", p.socket);
    if (nodes) o += fmt::format("{:5}| ", p.node);
    if (groups) o += fmt::format("{:6}| ", p.group);
    if (smt) o += fmt::format("{:5}| ", p.core);
    if (classes) {
      o +=
          fmt::format("{:5}{}| ", p.efficiency_class, p.efficiency_class == best_class ? 'P' : ' ');
    }
    o += fmt::format("{:4}| {:6.2f}%| {:6.2f}%| {:6.2f}%| {:6.2f}%\n",
                     t.groups.empty() ? c.id : p.processor, c.usage, c.user, c.kernel, c.idle);
    usage += c.usage;
    user += c.user;
    kernel += c.kernel;
    idle += c.idle;
  }
  o += rule;
  o += blank;
  if (r.cpus.empty()) {
    o += "avg.|    N/A |    N/A |    N/A |    N/A (per-CPU times are not gathered on this "
         "platform)\n";
    return;
  }
  const double n = static_cast<double>(r.cpus.size());
  o += fmt::format("avg.| {:6.2f}%| {:6.2f}%| {:6.2f}%| {:6.2f}%\n", usage / n, user / n,
                   kernel / n, idle / n);
}

enum class Section { kTotal, kRead, kWrite };

bool Has(Section s, size_t d) {
  return s == Section::kTotal || (s == Section::kRead ? d == kDiskspdRead : d == kDiskspdWrite);
}

// DiskSpd's IoBucketizer: the population standard deviation of the I/Os per
// bucket, over the buckets.
double IopsStdDev(const std::vector<uint64_t>& buckets, double bucket_s) {
  if (buckets.empty() || bucket_s <= 0) return 0;
  const double n = static_cast<double>(buckets.size());
  double mean = 0;
  for (uint64_t b : buckets) mean += static_cast<double>(b) / n;
  double ssd = 0;
  for (uint64_t b : buckets)
    ssd += (static_cast<double>(b) - mean) * (static_cast<double>(b) - mean);
  return std::sqrt(ssd / n) / bucket_s;
}

void AddBuckets(std::vector<uint64_t>& into, const std::vector<uint64_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

void SectionTable(const DiskspdReport& r, Section s, std::string& o) {
  const DiskspdSwitches& sw = *r.sw;
  const double t = r.test_time_s > 0 ? r.test_time_s : 1;
  const double bucket_s = sw.bucket_ms / 1000.0;
  o += fmt::format(
      "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s {}{}{}|  file\n",
      sw.latency ? "|  AvgLat  " : "", sw.iops_stddev ? "| IopsStdDev " : "",
      sw.latency ? "| LatStdDev " : "");
  const std::string border = fmt::format(
      "------------------------------------------------------------------{}{}{}------------\n",
      sw.latency ? "-----------" : "", sw.iops_stddev ? "-------------" : "",
      sw.latency ? "------------" : "");
  o += border;
  uint64_t total_bytes = 0, total_ios = 0;
  LatencyHistogram total_lat;
  std::vector<uint64_t> total_buckets;
  auto columns = [&](uint64_t bytes, uint64_t ios, const LatencyHistogram& lat,
                     const std::vector<uint64_t>& buckets) {
    std::string c =
        fmt::format("{:15} | {:12} | {:10.2f} | {:10.2f}", bytes, ios,
                    static_cast<double>(bytes) / 1024 / 1024 / t, static_cast<double>(ios) / t);
    if (sw.latency) c += fmt::format(" | {:8.3f}", DiskspdMs(lat.moments().Mean()));
    if (sw.iops_stddev) c += fmt::format(" | {:10.2f}", IopsStdDev(buckets, bucket_s));
    if (sw.latency) {
      c += lat.Count() > 0 ? fmt::format(" |  {:8.3f}", DiskspdMs(lat.moments().StdDev()))
                           : " |       N/A";
    }
    return c;
  };
  for (const DiskspdRow& row : r.rows) {
    uint64_t bytes = 0, ios = 0;
    LatencyHistogram lat;
    std::vector<uint64_t> buckets;
    for (size_t d = 0; d < 2; ++d) {
      if (!Has(s, d)) continue;
      bytes += row.dirs[d].bytes;
      ios += row.dirs[d].ios;
      lat.Merge(row.dirs[d].latency);
      AddBuckets(buckets, row.dirs[d].bucket_ios);
    }
    o += fmt::format("{:6} | ", row.thread) + columns(bytes, ios, lat, buckets) +
         fmt::format(" | {} ({})\n", row.path, DiskspdSizeText(row.file_size));
    total_bytes += bytes;
    total_ios += ios;
    total_lat.Merge(lat);
    AddBuckets(total_buckets, buckets);
  }
  o += border;
  o += "total:   " + columns(total_bytes, total_ios, total_lat, total_buckets) + "\n";
}

void LatencyChart(const LatencyHistogram& read, const LatencyHistogram& write,
                  const LatencyHistogram& total, std::string& o) {
  o += "  %-ile |  Read (ms) | Write (ms) | Total (ms)\n";
  o += "----------------------------------------------\n";
  o += fmt::format("    min | {:>10} | {:>10} | {:10.3f}\n",
                   LatencyCell(read, static_cast<double>(read.Min())),
                   LatencyCell(write, static_cast<double>(write.Min())),
                   DiskspdMs(static_cast<double>(total.Min())));
  static const struct {
    double p;
    const char* name;
  } kRows[] = {{25, "25th"},           {50, "50th"},          {75, "75th"},
               {90, "90th"},           {95, "95th"},          {99, "99th"},
               {99.9, "3-nines"},      {99.99, "4-nines"},    {99.999, "5-nines"},
               {99.9999, "6-nines"},   {99.99999, "7-nines"}, {99.999999, "8-nines"},
               {99.9999999, "9-nines"}};
  for (const auto& row : kRows) {
    o += fmt::format("{:>7} | {:>10} | {:>10} | {:10.3f}\n", row.name,
                     LatencyCell(read, static_cast<double>(read.Percentile(row.p))),
                     LatencyCell(write, static_cast<double>(write.Percentile(row.p))),
                     DiskspdMs(static_cast<double>(total.Percentile(row.p))));
  }
  o += fmt::format("    max | {:>10} | {:>10} | {:10.3f}\n",
                   LatencyCell(read, static_cast<double>(read.Max())),
                   LatencyCell(write, static_cast<double>(write.Max())),
                   DiskspdMs(static_cast<double>(total.Max())));
}

void LatencyPercentiles(const DiskspdReport& r, std::string& o) {
  // Per target when there are several, then all targets.
  std::map<std::string, std::array<LatencyHistogram, 3>> per_target;
  std::vector<std::string> order;
  std::array<LatencyHistogram, 3> all;
  for (const DiskspdRow& row : r.rows) {
    if (!per_target.contains(row.path)) order.push_back(row.path);
    auto& h = per_target[row.path];
    for (size_t d = 0; d < 2; ++d) {
      h[d].Merge(row.dirs[d].latency);
      h[2].Merge(row.dirs[d].latency);
      all[d].Merge(row.dirs[d].latency);
      all[2].Merge(row.dirs[d].latency);
    }
  }
  if (per_target.size() > 1) {
    for (const std::string& path : order) {
      o += fmt::format("\nLatency distribution: {}\n", path);
      const auto& h = per_target[path];
      LatencyChart(h[0], h[1], h[2], o);
    }
  }
  o += "\nTotal latency distribution:\n";
  LatencyChart(all[0], all[1], all[2], o);
}

// -vs: DiskSpd's Wait Statistics table, a row per thread.
void WaitStatistics(const DiskspdReport& r, std::string& o) {
  o += "\nWait Statistics\n";
  o += "thread | completion wait | throttle wait  -  sleep | lookaside | 0 - 7+ complete per "
       "lookaside\n";
  o += std::string(95, '-') + "\n";
  for (const DiskspdThreadWait& t : DiskspdThreadWaits(r)) {
    const auto& w = t.second;
    o += fmt::format("{:6} | {:15} | {:13}  - {:6} | {:9} | {}\n", t.first, w[0], w[1], w[2], w[3],
                     fmt::join(w.begin() + 4, w.end(), " "));
  }
}

void TimespanResults(const DiskspdReport& r, size_t number, std::string& o) {
  o += fmt::format("\nResults for timespan {}:\n", number);
  o += "*******************************************************************************\n";
  if (r.test_time_s < 0.0000001) {
    o += "The test was interrupted before the measurements began. No results are displayed.\n";
  } else {
    o += fmt::format("\nactual test time:\t{:.2f}s\n", r.test_time_s);
    o += fmt::format("thread count:\t\t{}\n", r.thread_count);
    CpuTable(r, o);
    o += "\nTotal IO\n";
    SectionTable(r, Section::kTotal, o);
    o += "\nRead IO\n";
    SectionTable(r, Section::kRead, o);
    o += "\nWrite IO\n";
    SectionTable(r, Section::kWrite, o);
    if (r.sw->latency) LatencyPercentiles(r, o);
    if (r.sw->verbose_stats) WaitStatistics(r, o);
  }
  // The verdict after DiskSpd's own report, a blank line between.
  for (const DiskspdTargetVerdict& v : r.verdicts) {
    if (!v.validity.judged) continue;
    o += fmt::format("\nVerdict for target '{}':\n", v.path);
    o += report_internal::VerdictBlock(v.validity);
  }
}

}  // namespace

void WriteDiskspdText(const std::vector<DiskspdReport>& spans, std::ostream& out) {
  if (spans.empty()) return;
  std::string o;
  InputParameters(spans, o);
  SystemInformation(spans.front(), o);
  for (size_t i = 0; i < spans.size(); ++i) TimespanResults(spans[i], i + 1, o);
  out << o;
}

void WriteDiskspdText(const DiskspdReport& r, std::ostream& out) {
  WriteDiskspdText(std::vector<DiskspdReport>{r}, out);
}

void WriteDiskspdProfileText(const std::vector<DiskspdReport>& spans, std::ostream& out) {
  if (spans.empty()) return;
  std::string o;
  InputParameters(spans, o);
  out << o;
}

}  // namespace loadcell
