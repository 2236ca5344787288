// DiskSpd 2.2's -Rxml results: <Results> with <System>, <Profile> and one
// <TimeSpan>, DiskSpd's element names and units (milliseconds, percents).

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "report/diskspd/diskspd_report.h"

namespace loadcell {
namespace {

using diskspd::DiskspdCache;
using diskspd::DiskspdDistribution;
using diskspd::DiskspdSwitches;
using diskspd::DiskspdWriteData;

std::string XmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        o += c;
    }
  }
  return o;
}

class Xml {
 public:
  void Line(const std::string& s) { o_ += std::string(indent_, ' ') + s + "\n"; }
  void Open(const std::string& tag) {
    Line("<" + tag + ">");
    indent_ += 2;
  }
  void Close(const std::string& tag) {
    indent_ -= 2;
    Line("</" + tag + ">");
  }
  template <typename T>
  void Element(const std::string& tag, const T& value) {
    Line(fmt::format("<{}>{}</{}>", tag, value, tag));
  }
  void Bool(const std::string& tag, bool v) { Element(tag, v ? "true" : "false"); }
  void Millis(const std::string& tag, double ns) { Element(tag, fmt::format("{:.3f}", ns / 1e6)); }
  std::string Take() { return std::move(o_); }

 private:
  std::string o_;
  int indent_ = 0;
};

// A group's processors as DiskSpd prints an affinity mask: "0x" and hex
// digits, bit N for processor N (wider than 64 bits on a Linux machine of
// more CPUs, which has one group).
std::string ProcessorMask(const std::vector<int>& processors) {
  std::vector<uint64_t> words;
  for (int p : processors) {
    if (p < 0) continue;
    const auto word = static_cast<size_t>(p / 64);
    if (words.size() <= word) words.resize(word + 1, 0);
    words[word] |= uint64_t{1} << (p % 64);
  }
  while (words.size() > 1 && words.back() == 0) words.pop_back();
  if (words.empty()) return "0x0";
  std::string hex = fmt::format("0x{:x}", words.back());
  for (size_t i = words.size() - 1; i-- > 0;) hex += fmt::format("{:016x}", words[i]);
  return hex;
}

void SystemXml(const DiskspdReport& r, Xml& x) {
  x.Open("System");
  x.Element("ComputerName", XmlEscape(r.computer));
  x.Open("Tool");
  x.Element("Version", XmlEscape("loadcell " + r.version + " (DiskSpd 2.2 command line)"));
  x.Element("VersionDate", "");
  x.Close("Tool");
  x.Element("RunTime", r.start_time_utc);
  x.Line("<PowerScheme Name=\"n/a\" Guid=\"\"/>");
  const CpuTopology& t = r.topology;
  x.Open(fmt::format("ProcessorTopology Heterogeneous=\"{}\"", t.heterogeneous));
  for (const CpuTopologyGroup& g : t.groups) {
    x.Line(
        fmt::format("<Group Group=\"{}\" MaximumProcessors=\"{}\" ActiveProcessors=\"{}\" "
                    "ActiveProcessorMask=\"{}\"/>",
                    g.number, g.maximum_processors, g.active.size(), ProcessorMask(g.active)));
  }
  // Nodes and sockets: each group's share of their processors.
  for (const auto& [kind, units] : {std::pair{"Node", &t.nodes}, std::pair{"Socket", &t.sockets}}) {
    for (const CpuTopologyUnit& u : *units) {
      x.Open(fmt::format("{0} {0}=\"{1}\"", kind, u.number));
      for (const CpuGroupMembers& m : u.members) {
        x.Line(
            fmt::format("<Group Group=\"{}\" Mask=\"{}\"/>", m.group, ProcessorMask(m.processors)));
      }
      x.Close(kind);
    }
  }
  for (const CpuTopologyUnit& c : t.cores) {
    const CpuGroupMembers& m = c.members.front();
    x.Line(fmt::format("<Core Group=\"{}\" Core=\"{}\" Mask=\"{}\" EfficiencyClass=\"{}\"/>",
                       m.group, c.number, ProcessorMask(m.processors), c.efficiency_class));
  }
  x.Close("ProcessorTopology");
  x.Close("System");
}

void TargetProfileXml(const DiskspdReport& r, const DiskspdReportTarget& t, Xml& x) {
  const DiskspdSwitches& sw = t.sw != nullptr ? *t.sw : *r.sw;
  x.Open("Target");
  x.Element("Path", XmlEscape(t.path));
  x.Element("BlockSize", sw.block_size);
  x.Element("BaseFileOffset", sw.base_offset);
  x.Bool("SequentialScan", sw.hint_sequential);
  x.Bool("RandomAccess", sw.hint_random);
  x.Bool("TemporaryFile", sw.hint_temporary);
  x.Bool("UseLargePages", sw.large_pages);
  if (sw.remote_cache_only) x.Bool("DisableLocalCache", true);
  if (sw.cache == DiskspdCache::kUnbuffered) x.Bool("DisableOSCache", true);
  if (sw.write_through) x.Bool("WriteThrough", true);
  if (sw.memory_mapped) x.Bool("MemoryMappedIo", true);
  if (sw.mapped_flush == 'v') x.Element("FlushType", "ViewOfFile");
  x.Open("WriteBufferContent");
  switch (sw.write_data) {
    case DiskspdWriteData::kZero:
      x.Element("Pattern", "zero");
      break;
    case DiskspdWriteData::kSequence:
    case DiskspdWriteData::kRandomPerIo:
      x.Element("Pattern", "sequential");
      break;
    case DiskspdWriteData::kRandomBuffer:
      x.Element("Pattern", "random");
      x.Open("RandomDataSource");
      x.Element("SizeInBytes", sw.write_buffer_size);
      if (!sw.write_buffer_file.empty()) x.Element("FilePath", XmlEscape(sw.write_buffer_file));
      x.Close("RandomDataSource");
      break;
  }
  x.Close("WriteBufferContent");
  x.Bool("ParallelAsyncIO", sw.parallel_async);
  if (sw.burst > 0) x.Element("BurstSize", sw.burst);
  if (sw.think_ms > 0) x.Element("ThinkTime", sw.think_ms);
  if (sw.create) x.Element("FileSize", sw.create_size);
  if (sw.random_ratio > 0) {
    x.Element("Random", sw.Alignment());
    if (sw.random_ratio < 100) x.Element("RandomRatio", sw.random_ratio);
    if (sw.distribution != DiskspdDistribution::kUniform) {
      const char* kind = sw.distribution == DiskspdDistribution::kPercent ? "Percent" : "Absolute";
      x.Open("Distribution");
      x.Open(kind);
      for (const diskspd::DiskspdRange& g : sw.ranges) {
        x.Line(fmt::format("<Range IO=\"{}\">{}</Range>", g.io_pct, g.span));
      }
      x.Close(kind);
      x.Close("Distribution");
    }
  } else {
    x.Element("StrideSize", sw.Alignment());
    x.Bool("InterlockedSequential", sw.interlocked);
  }
  x.Element("ThreadStride", sw.thread_stride);
  x.Element("MaxFileSize", sw.max_offset);
  x.Element("RequestCount", sw.requests);
  x.Element("WriteRatio", sw.write_ratio);
  if (sw.throughput_iops > 0) {
    x.Line(fmt::format("<Throughput unit=\"IOPS\">{}</Throughput>", sw.throughput_iops));
  } else {
    x.Element("Throughput", sw.throughput_bytes_per_ms);
  }
  x.Element("ThreadsPerFile", sw.total_threads > 0 ? 1 : sw.threads_per_target);
  x.Element("IOPriority", sw.io_priority);
  x.Element("Weight", sw.weight);
  x.Close("Target");
}

void TimeSpanProfileXml(const DiskspdReport& r, Xml& x) {
  const DiskspdSwitches& sw = *r.sw;
  x.Open("TimeSpan");
  x.Bool("CompletionRoutines", sw.completion_routines);
  x.Bool("MeasureLatency", sw.latency);
  x.Bool("CalculateIopsStdDev", sw.iops_stddev);
  x.Bool("DisableAffinity", sw.disable_affinity);
  x.Element("Duration", sw.duration_s);
  x.Element("Warmup", sw.warmup_s);
  x.Element("Cooldown", sw.cooldown_s);
  x.Element("ThreadCount", sw.total_threads);
  x.Element("RequestCount", sw.requests_per_thread);
  x.Element("IoBucketDuration", sw.bucket_ms);
  x.Element("RandSeed", r.seed);
  if (!sw.affinity.empty()) {
    x.Open("Affinity");
    for (const diskspd::DiskspdAffinityCpu& c : sw.affinity) {
      x.Line(
          fmt::format("<AffinityGroupAssignment Group=\"{}\" Processor=\"{}\"/>", c.group, c.cpu));
    }
    x.Close("Affinity");
  }
  bool random_writes = false;
  for (const DiskspdReportTarget& t : r.targets) {
    const DiskspdSwitches& ts = t.sw != nullptr ? *t.sw : sw;
    random_writes = random_writes || ts.write_data == DiskspdWriteData::kRandomPerIo;
  }
  if (random_writes) x.Bool("RandomWriteData", true);
  x.Open("Targets");
  for (const DiskspdReportTarget& t : r.targets) TargetProfileXml(r, t, x);
  x.Close("Targets");
  x.Close("TimeSpan");
}

void ProfileXml(const std::vector<DiskspdReport>& spans, Xml& x) {
  const DiskspdSwitches& sw = *spans.front().sw;
  x.Open("Profile");
  x.Element("Progress", sw.progress_every);
  x.Element("ResultFormat", sw.xml ? "xml" : "text");
  x.Bool("Verbose", sw.verbose);
  if (sw.verbose_stats) x.Bool("VerboseStats", true);  // only when set, as DiskSpd
  x.Open("TimeSpans");
  for (const DiskspdReport& r : spans) TimeSpanProfileXml(r, x);
  x.Close("TimeSpans");
  x.Close("Profile");
}

void CpuXml(const DiskspdReport& r, Xml& x) {
  x.Open("CpuUtilization");
  double usage = 0, user = 0, kernel = 0, idle = 0;
  for (size_t i = 0; i < r.cpus.size(); ++i) {
    const DiskspdCpu& c = r.cpus[i];
    const CpuTopology::Place p = r.topology.PlaceOf(i);
    x.Open("CPU");
    x.Element("Socket", p.socket);
    x.Element("Node", p.node);
    x.Element("Group", p.group);
    x.Element("Core", p.core);
    x.Element("EfficiencyClass", p.efficiency_class);
    x.Element("Id", r.topology.groups.empty() ? c.id : p.processor);
    x.Element("UsagePercent", fmt::format("{:.2f}", c.usage));
    x.Element("UserPercent", fmt::format("{:.2f}", c.user));
    x.Element("KernelPercent", fmt::format("{:.2f}", c.kernel));
    x.Element("IdlePercent", fmt::format("{:.2f}", c.idle));
    x.Close("CPU");
    usage += c.usage;
    user += c.user;
    kernel += c.kernel;
    idle += c.idle;
  }
  const double n = r.cpus.empty() ? 1 : static_cast<double>(r.cpus.size());
  x.Open("Average");
  x.Element("UsagePercent", fmt::format("{:.2f}", usage / n));
  x.Element("UserPercent", fmt::format("{:.2f}", user / n));
  x.Element("KernelPercent", fmt::format("{:.2f}", kernel / n));
  x.Element("IdlePercent", fmt::format("{:.2f}", idle / n));
  x.Close("Average");
  x.Close("CpuUtilization");
}

size_t UsedBuckets(const LatencyHistogram& h) {
  size_t n = 0;
  for (uint64_t b : h.buckets()) n += b != 0 ? 1 : 0;
  return n;
}

void LatencyXml(const std::array<LatencyHistogram, 3>& h, Xml& x) {
  x.Open(
      fmt::format("Latency ReadHistoBuckets=\"{}\" WriteHistoBuckets=\"{}\" "
                  "TotalHistoBuckets=\"{}\"",
                  UsedBuckets(h[0]), UsedBuckets(h[1]), UsedBuckets(h[2])));
  static const char* const kAvg[] = {"AverageReadMilliseconds", "AverageWriteMilliseconds",
                                     "AverageTotalMilliseconds"};
  static const char* const kStd[] = {"ReadLatencyStdev", "WriteLatencyStdev", "LatencyStdev"};
  static const char* const kMs[] = {"ReadMilliseconds", "WriteMilliseconds", "TotalMilliseconds"};
  for (size_t k = 0; k < 3; ++k) {
    if (h[k].Count() == 0) continue;
    x.Millis(kAvg[k], h[k].moments().Mean());
    x.Millis(kStd[k], h[k].moments().StdDev());
  }
  auto bucket = [&](const std::string& pct, auto value_of) {
    x.Open("Bucket");
    x.Element("Percentile", pct);
    for (size_t k = 0; k < 3; ++k) {
      if (h[k].Count() > 0) x.Millis(kMs[k], static_cast<double>(value_of(h[k])));
    }
    x.Close("Bucket");
  };
  bucket("0", [](const LatencyHistogram& g) { return g.Min(); });
  for (int p = 1; p <= 99; ++p) {
    bucket(std::to_string(p), [p](const LatencyHistogram& g) { return g.Percentile(p); });
  }
  static const struct {
    double p;
    const char* text;
  } kNines[] = {{99.9, "99.9"},
                {99.99, "99.99"},
                {99.999, "99.999"},
                {99.9999, "99.9999"},
                {99.99999, "99.99999"},
                {99.999999, "99.999999"},
                {99.9999999, "99.9999999"}};
  for (const auto& n : kNines) {
    bucket(n.text, [&](const LatencyHistogram& g) { return g.Percentile(n.p); });
  }
  bucket("100", [](const LatencyHistogram& g) { return g.Max(); });
  x.Close("Latency");
}

double StdDevOf(const std::vector<uint64_t>& b, double bucket_s) {
  if (b.empty()) return 0;
  const double n = static_cast<double>(b.size());
  double mean = 0;
  for (uint64_t v : b) mean += static_cast<double>(v) / n;
  double ssd = 0;
  for (uint64_t v : b) ssd += (static_cast<double>(v) - mean) * (static_cast<double>(v) - mean);
  return std::sqrt(ssd / n) / bucket_s;
}

// <Iops>: the standard deviations and one <Bucket> per -D interval.
void IopsXml(const std::array<DiskspdDirection, 2>& d, uint32_t bucket_ms, Xml& x) {
  const double bucket_s = bucket_ms / 1000.0;
  x.Open("Iops");
  std::vector<uint64_t> total = d[0].bucket_ios;
  if (total.size() < d[1].bucket_ios.size()) total.resize(d[1].bucket_ios.size(), 0);
  for (size_t i = 0; i < d[1].bucket_ios.size(); ++i) total[i] += d[1].bucket_ios[i];
  if (!d[0].bucket_ios.empty()) {
    x.Element("ReadIopsStdDev", fmt::format("{:.3f}", StdDevOf(d[0].bucket_ios, bucket_s)));
  }
  if (!d[1].bucket_ios.empty()) {
    x.Element("WriteIopsStdDev", fmt::format("{:.3f}", StdDevOf(d[1].bucket_ios, bucket_s)));
  }
  if (!total.empty()) x.Element("IopsStdDev", fmt::format("{:.3f}", StdDevOf(total, bucket_s)));
  for (size_t i = 0; i < total.size(); ++i) {
    double rv[2] = {0, 0};
    double mn[2] = {0, 0}, mx[2] = {0, 0}, avg[2] = {0, 0}, sd[2] = {0, 0};
    for (size_t k = 0; k < 2; ++k) {
      if (i < d[k].bucket_ios.size()) rv[k] = static_cast<double>(d[k].bucket_ios[i]) / bucket_s;
      if (i < d[k].bucket_latency.size() && d[k].bucket_latency[i].Count() > 0) {
        const LatencyHistogram& h = d[k].bucket_latency[i];
        mn[k] = static_cast<double>(h.Min()) / 1e6;
        mx[k] = static_cast<double>(h.Max()) / 1e6;
        avg[k] = h.moments().Mean() / 1e6;
        sd[k] = h.moments().StdDev() / 1e6;
      }
    }
    x.Line(fmt::format(
        "<Bucket SampleMillisecond=\"{}\" Read=\"{:.0f}\" Write=\"{:.0f}\" Total=\"{:.0f}\" "
        "ReadMinLatencyMilliseconds=\"{:.3f}\" ReadMaxLatencyMilliseconds=\"{:.3f}\" "
        "ReadAvgLatencyMilliseconds=\"{:.3f}\" ReadLatencyStdDev=\"{:.3f}\" "
        "WriteMinLatencyMilliseconds=\"{:.3f}\" WriteMaxLatencyMilliseconds=\"{:.3f}\" "
        "WriteAvgLatencyMilliseconds=\"{:.3f}\" WriteLatencyStdDev=\"{:.3f}\"/>",
        static_cast<uint64_t>(bucket_ms) * (i + 1), rv[0], rv[1], rv[0] + rv[1], mn[0], mx[0],
        avg[0], sd[0], mn[1], mx[1], avg[1], sd[1]));
  }
  x.Close("Iops");
}

// -vs: a thread's <WaitStatistics>, DiskSpd's elements.
void WaitStatisticsXml(const std::array<uint64_t, kDiskspdWaitCounts>& w, Xml& x) {
  x.Open("WaitStatistics");
  x.Element("CompletionWait", w[0]);
  x.Element("ThrottleWait", w[1]);
  x.Element("ThrottleSleep", w[2]);
  x.Element("Lookaside", w[3]);
  x.Element("LookasideCompletion", fmt::format("{}", fmt::join(w.begin() + 4, w.end(), " ")));
  x.Close("WaitStatistics");
}

void TargetResultXml(const DiskspdSwitches& sw, const DiskspdRow& row, Xml& x) {
  x.Open("Target");
  x.Element("Path", XmlEscape(row.path));
  const DiskspdDirection& rd = row.dirs[kDiskspdRead];
  const DiskspdDirection& wr = row.dirs[kDiskspdWrite];
  x.Element("BytesCount", rd.bytes + wr.bytes);
  x.Element("FileSize", row.file_size);
  x.Element("IOCount", rd.ios + wr.ios);
  x.Element("ReadBytes", rd.bytes);
  x.Element("ReadCount", rd.ios);
  x.Element("WriteBytes", wr.bytes);
  x.Element("WriteCount", wr.ios);
  if (sw.latency) {
    LatencyHistogram total = rd.latency;
    total.Merge(wr.latency);
    if (rd.latency.Count() > 0) {
      x.Millis("AverageReadLatencyMilliseconds", rd.latency.moments().Mean());
      x.Millis("ReadLatencyStdev", rd.latency.moments().StdDev());
    }
    if (wr.latency.Count() > 0) {
      x.Millis("AverageWriteLatencyMilliseconds", wr.latency.moments().Mean());
      x.Millis("WriteLatencyStdev", wr.latency.moments().StdDev());
    }
    if (total.Count() > 0) {
      x.Millis("AverageLatencyMilliseconds", total.moments().Mean());
      x.Millis("LatencyStdev", total.moments().StdDev());
    }
  }
  if (sw.iops_stddev) IopsXml(row.dirs, sw.bucket_ms, x);
  x.Close("Target");
}

// loadcell's verdict of each target (docs/diskspd.md), after DiskSpd's
// <Thread> elements: names of its own, with the figures in attributes, so
// that what reads DiskSpd's elements finds none of them changed.
void VerdictXml(const DiskspdReport& r, Xml& x) {
  for (const DiskspdTargetVerdict& v : r.verdicts) {
    if (!v.validity.judged) continue;
    const Validity& d = v.validity;
    x.Open(fmt::format(
        R"(LoadcellVerdict Target="{}" Overall="{}" Warnings="{}" Invalid="{}" NotChecked="{}")",
        XmlEscape(v.path), OverallName(d.overall()), d.Count(CheckLevel::kWarn),
        d.Count(CheckLevel::kInvalid), d.Count(CheckLevel::kNotChecked)));
    for (const CheckOutcome& c : d.checks) {
      const std::string check =
          fmt::format(R"(Check Id="{}" Level="{}" Seen="{}" Advice="{}")", XmlEscape(c.id),
                      CheckLevelName(c.level), XmlEscape(c.seen), XmlEscape(c.advice));
      if (c.figures.empty()) {
        x.Line("<" + check + "/>");
        continue;
      }
      x.Open(check);
      for (const CheckFigure& f : c.figures) {
        x.Line(fmt::format(R"(<Figure Name="{}" Value="{}"/>)", XmlEscape(f.name), f.value));
      }
      x.Close("Check");
    }
    x.Close("LoadcellVerdict");
  }
}

void TimeSpanXml(const DiskspdReport& r, Xml& x) {
  const DiskspdSwitches& sw = *r.sw;
  x.Open("TimeSpan");
  if (r.test_time_s < 0.0000001) {
    x.Element("Error",
              "The test was interrupted before the measurements began. No results are displayed.");
    x.Close("TimeSpan");
    return;
  }
  x.Element("TestTimeSeconds", fmt::format("{:.2f}", r.test_time_s));
  x.Element("ThreadCount", r.thread_count);
  x.Element("RequestCount", sw.requests_per_thread);
  x.Element("ProcCount", r.cpu_count);
  CpuXml(r, x);
  if (sw.latency) {
    std::array<LatencyHistogram, 3> h;
    for (const DiskspdRow& row : r.rows) {
      for (size_t d = 0; d < 2; ++d) {
        h[d].Merge(row.dirs[d].latency);
        h[2].Merge(row.dirs[d].latency);
      }
    }
    LatencyXml(h, x);
  }
  if (sw.iops_stddev) {
    std::array<DiskspdDirection, 2> all;
    for (const DiskspdRow& row : r.rows) {
      for (size_t d = 0; d < 2; ++d) {
        std::vector<uint64_t>& into = all[d].bucket_ios;
        const std::vector<uint64_t>& from = row.dirs[d].bucket_ios;
        if (into.size() < from.size()) into.resize(from.size(), 0);
        for (size_t i = 0; i < from.size(); ++i) into[i] += from[i];
        if (all[d].bucket_latency.size() < row.dirs[d].bucket_latency.size()) {
          all[d].bucket_latency.resize(row.dirs[d].bucket_latency.size());
        }
        for (size_t i = 0; i < row.dirs[d].bucket_latency.size(); ++i) {
          all[d].bucket_latency[i].Merge(row.dirs[d].bucket_latency[i]);
        }
      }
    }
    IopsXml(all, sw.bucket_ms, x);
  }
  // One <Thread> per DiskSpd thread, its targets inside, then with -vs its
  // wait statistics.
  const std::vector<DiskspdThreadWait> waits = DiskspdThreadWaits(r);
  for (size_t i = 0, t = 0; i < r.rows.size(); ++t) {
    const int thread = r.rows[i].thread;
    x.Open("Thread");
    x.Element("Id", thread);
    for (; i < r.rows.size() && r.rows[i].thread == thread; ++i) TargetResultXml(sw, r.rows[i], x);
    if (sw.verbose_stats) WaitStatisticsXml(waits[t].second, x);
    x.Close("Thread");
  }
  VerdictXml(r, x);
  x.Close("TimeSpan");
}

}  // namespace

void WriteDiskspdXml(const std::vector<DiskspdReport>& spans, std::ostream& out) {
  if (spans.empty()) return;
  Xml x;
  x.Open("Results");
  SystemXml(spans.front(), x);
  ProfileXml(spans, x);
  for (const DiskspdReport& r : spans) TimeSpanXml(r, x);
  x.Close("Results");
  out << x.Take();
}

void WriteDiskspdXml(const DiskspdReport& r, std::ostream& out) {
  WriteDiskspdXml(std::vector<DiskspdReport>{r}, out);
}

void WriteDiskspdProfileXml(const std::vector<DiskspdReport>& spans, std::ostream& out) {
  if (spans.empty()) return;
  Xml x;
  ProfileXml(spans, x);
  out << x.Take();
}

}  // namespace loadcell
