#include "diskspd/diskspd_profile.h"

#include <fmt/format.h>

#include <limits>

#include "diskspd/diskspd_xml_reader.h"

namespace loadcell::diskspd {
namespace {

// The types of diskspd.xsd's simple elements.
enum class XsdType { kUInt32, kUInt64, kBool, kString, kComplex };

struct XsdChild {
  const char* name;
  XsdType type;
  bool required;
};

// The profile being read: its file's name for every message.
class ProfileReader {
 public:
  ProfileReader(std::string file, const DiskspdSwitches& cmd) : file_(std::move(file)), cmd_(cmd) {
    used_.assign(cmd.targets.size(), false);
  }

  Result<DiskspdProfile> Read(const XmlElement& root);

 private:
  Status Bad(const XmlElement& e, const std::string& what) const {
    return Status::InvalidArgument(
        fmt::format("diskspd -X {}: <{}> at line {}: {}", file_, e.name, e.line, what));
  }
  Status NotYet(const XmlElement& e, const std::string& what) const {
    return Bad(e, what + " is not supported by loadcell yet (docs/diskspd.md)");
  }
  Status Children(const XmlElement& e, const std::vector<XsdChild>& allowed) const;
  Status Number(const XmlElement& e, uint64_t max, uint64_t& out) const;
  Status Bool(const XmlElement& e, bool& out) const;
  template <typename T>
  Status Get(const XmlElement& parent, const char* name, uint64_t max, T& out) const {
    const XmlElement* e = Find(parent, name);
    if (e == nullptr) return Status::Ok();
    uint64_t v = 0;
    LC_RETURN_IF_ERROR(Number(*e, max, v));
    out = static_cast<T>(v);
    return Status::Ok();
  }
  Status GetBool(const XmlElement& parent, const char* name, bool& out) const {
    const XmlElement* e = Find(parent, name);
    return e == nullptr ? Status::Ok() : Bool(*e, out);
  }
  // An element loadcell does not run: refused when it asks for anything.
  Status Refused(const XmlElement& parent, const char* name, const std::string& what) const;
  static const XmlElement* Find(const XmlElement& parent, const char* name) {
    for (const XmlElement& c : parent.children) {
      if (c.name == name) return &c;
    }
    return nullptr;
  }

  Status ProfileLevel(const XmlElement& root, DiskspdSwitches& base);
  Status TimeSpan(const XmlElement& e, const DiskspdSwitches& base, DiskspdTimespan& ts);
  Status Target(const XmlElement& e, DiskspdSwitches& t);
  Status TargetAccess(const XmlElement& e, DiskspdSwitches& t);
  Status TargetCache(const XmlElement& e, DiskspdSwitches& t);
  Status WriteBuffer(const XmlElement& e, DiskspdSwitches& t);
  Status Throughput(const XmlElement& e, DiskspdSwitches& t);
  Status Distribution(const XmlElement& e, DiskspdSwitches& t);
  Status Path(const XmlElement& e, std::string& path);
  Status Affinity(const XmlElement& e, DiskspdSwitches& sw);

  std::string file_;
  const DiskspdSwitches& cmd_;
  std::vector<bool> used_;  // the command line's targets that filled a *N path
};

std::string Names(const std::vector<XsdChild>& allowed) {
  std::string s;
  for (const XsdChild& c : allowed) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

Status ProfileReader::Children(const XmlElement& e, const std::vector<XsdChild>& allowed) const {
  std::vector<bool> seen(allowed.size(), false);
  for (const XmlElement& c : e.children) {
    size_t i = 0;
    while (i < allowed.size() && c.name != allowed[i].name) ++i;
    if (i == allowed.size()) {
      return Bad(c, fmt::format("is not an element of <{}> (valid: {})", e.name, Names(allowed)));
    }
    if (seen[i]) return Bad(c, fmt::format("may be given once in <{}>", e.name));
    seen[i] = true;
    if (allowed[i].type != XsdType::kComplex && !c.children.empty()) {
      return Bad(c.children.front(), fmt::format("<{}> holds a value, not elements", c.name));
    }
    if (allowed[i].type != XsdType::kComplex && !c.attributes.empty() && c.name != "Throughput") {
      return Bad(c, fmt::format("has no attributes ('{}' is not one)", c.attributes.front().first));
    }
  }
  for (size_t i = 0; i < allowed.size(); ++i) {
    if (allowed[i].required && !seen[i]) {
      return Bad(e, fmt::format("needs a <{}> element", allowed[i].name));
    }
  }
  for (const auto& [name, value] : e.attributes) {
    if (!name.starts_with("xmlns")) {
      return Bad(e, fmt::format("has no attributes ('{}' is not one)", name));
    }
  }
  return Status::Ok();
}

std::string Trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r\n") - a + 1);
}

Status ProfileReader::Number(const XmlElement& e, uint64_t max, uint64_t& out) const {
  const std::string t = Trimmed(e.text);
  uint64_t v = 0;
  bool ok = !t.empty() && t.size() <= 20;
  for (char c : t) {
    if (c < '0' || c > '9') {
      ok = false;
      break;
    }
    const auto d = static_cast<uint64_t>(c - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) {
      ok = false;
      break;
    }
    v = v * 10 + d;
  }
  if (!ok || v > max) {
    return Bad(e, fmt::format("'{}' is not a whole number from 0 to {}", t, max));
  }
  out = v;
  return Status::Ok();
}

Status ProfileReader::Bool(const XmlElement& e, bool& out) const {
  const std::string t = Trimmed(e.text);
  if (t == "true" || t == "1") {
    out = true;
  } else if (t == "false" || t == "0") {
    out = false;
  } else {
    return Bad(e, fmt::format("'{}' is not a boolean (true, false, 1 or 0)", t));
  }
  return Status::Ok();
}

Status ProfileReader::Refused(const XmlElement& parent, const char* name,
                              const std::string& what) const {
  const XmlElement* e = Find(parent, name);
  if (e == nullptr) return Status::Ok();
  const std::string t = Trimmed(e->text);
  if (t == "false" || t == "0") return Status::Ok();
  return NotYet(*e, what);
}

constexpr uint64_t kU32 = std::numeric_limits<uint32_t>::max();
constexpr uint64_t kU64 = std::numeric_limits<uint64_t>::max();

Status ProfileReader::ProfileLevel(const XmlElement& root, DiskspdSwitches& base) {
  if (root.name != "Profile") return Bad(root, "the root element must be <Profile>");
  LC_RETURN_IF_ERROR(Children(root, {{"TimeSpans", XsdType::kComplex, true},
                                     {"Verbose", XsdType::kBool, false},
                                     {"VerboseStats", XsdType::kBool, false},
                                     {"Progress", XsdType::kUInt32, false},
                                     {"ExperimentFlags", XsdType::kUInt32, false},
                                     {"ResultFormat", XsdType::kString, false},
                                     {"ETW", XsdType::kComplex, false},
                                     {"PrecreateFiles", XsdType::kString, false}}));
  LC_RETURN_IF_ERROR(GetBool(root, "Verbose", base.verbose));
  LC_RETURN_IF_ERROR(GetBool(root, "VerboseStats", base.verbose_stats));
  LC_RETURN_IF_ERROR(Get(root, "Progress", kU32, base.progress_every));
  LC_RETURN_IF_ERROR(Refused(root, "ExperimentFlags", "experiment flags"));
  if (const XmlElement* etw = Find(root, "ETW"); etw != nullptr) {
    return NotYet(*etw, "ETW tracing (a Windows facility)");
  }
  if (const XmlElement* pre = Find(root, "PrecreateFiles"); pre != nullptr) {
    return NotYet(*pre, "creating the files of every timespan first");
  }
  if (const XmlElement* f = Find(root, "ResultFormat"); f != nullptr) {
    const std::string v = Trimmed(f->text);
    if (v != "text" && v != "xml") return Bad(*f, fmt::format("'{}' is not text or xml", v));
    base.xml = v == "xml";
  }
  // The command line's -R and -v win over the profile's.
  if (cmd_.format_given) base.xml = cmd_.xml;
  if (cmd_.verbose) base.verbose = true;
  if (cmd_.verbose_stats) base.verbose_stats = true;
  base.xml_file = cmd_.xml_file;
  base.profile_only = cmd_.profile_only;
  base.command_line = cmd_.command_line;
  base.given = cmd_.given;
  return Status::Ok();
}

Result<DiskspdProfile> ProfileReader::Read(const XmlElement& root) {
  DiskspdSwitches base;
  LC_RETURN_IF_ERROR(ProfileLevel(root, base));
  const XmlElement& spans = *Find(root, "TimeSpans");
  DiskspdProfile profile;
  profile.xml_path = file_;
  for (const XmlElement& e : spans.children) {
    if (e.name != "TimeSpan") return Bad(e, "is not an element of <TimeSpans> (valid: TimeSpan)");
    DiskspdTimespan ts;
    LC_RETURN_IF_ERROR(TimeSpan(e, base, ts));
    profile.timespans.push_back(std::move(ts));
  }
  if (profile.timespans.empty()) return Bad(spans, "needs at least one <TimeSpan>");
  for (size_t i = 0; i < used_.size(); ++i) {
    if (!used_[i]) {
      return Status::InvalidArgument(fmt::format(
          "diskspd -X {}: target '{}' on the command line fills no *{} path of the profile", file_,
          cmd_.targets[i], i + 1));
    }
  }
  return profile;
}

Status ProfileReader::TimeSpan(const XmlElement& e, const DiskspdSwitches& base,
                               DiskspdTimespan& ts) {
  LC_RETURN_IF_ERROR(Children(e, {{"Targets", XsdType::kComplex, true},
                                  {"Duration", XsdType::kUInt32, false},
                                  {"Warmup", XsdType::kUInt32, false},
                                  {"Cooldown", XsdType::kUInt32, false},
                                  {"RandSeed", XsdType::kUInt32, false},
                                  {"RandomWriteData", XsdType::kBool, false},
                                  {"ThreadCount", XsdType::kUInt32, false},
                                  {"RequestCount", XsdType::kUInt32, false},
                                  {"GroupAffinity", XsdType::kBool, false},
                                  {"Affinity", XsdType::kComplex, false},
                                  {"DisableAffinity", XsdType::kBool, false},
                                  {"CompletionRoutines", XsdType::kBool, false},
                                  {"MeasureLatency", XsdType::kBool, false},
                                  {"CalculateIopsStdDev", XsdType::kBool, false},
                                  {"IoBucketDuration", XsdType::kUInt32, false}}));
  DiskspdSwitches& sw = ts.sw;
  sw = base;
  LC_RETURN_IF_ERROR(Get(e, "Duration", 1'000'000'000, sw.duration_s));
  LC_RETURN_IF_ERROR(Get(e, "Warmup", 1'000'000'000, sw.warmup_s));
  LC_RETURN_IF_ERROR(Get(e, "Cooldown", 1'000'000'000, sw.cooldown_s));
  LC_RETURN_IF_ERROR(Get(e, "RandSeed", kU32, sw.seed));
  LC_RETURN_IF_ERROR(Get(e, "ThreadCount", 4096, sw.total_threads));
  bool random_write_data = false;
  LC_RETURN_IF_ERROR(GetBool(e, "RandomWriteData", random_write_data));
  LC_RETURN_IF_ERROR(Get(e, "RequestCount", 65536, sw.requests_per_thread));
  bool group_affinity = false;  // DiskSpd's default round robin, said aloud
  LC_RETURN_IF_ERROR(GetBool(e, "GroupAffinity", group_affinity));
  sw.affinity_given = group_affinity;
  if (const XmlElement* a = Find(e, "Affinity"); a != nullptr) {
    LC_RETURN_IF_ERROR(Affinity(*a, sw));
  }
  LC_RETURN_IF_ERROR(GetBool(e, "CompletionRoutines", sw.completion_routines));
  LC_RETURN_IF_ERROR(GetBool(e, "DisableAffinity", sw.disable_affinity));
  LC_RETURN_IF_ERROR(GetBool(e, "MeasureLatency", sw.latency));
  LC_RETURN_IF_ERROR(GetBool(e, "CalculateIopsStdDev", sw.iops_stddev));
  if (const XmlElement* b = Find(e, "IoBucketDuration"); b != nullptr) {
    LC_RETURN_IF_ERROR(Get(e, "IoBucketDuration", 3'600'000, sw.bucket_ms));
    if (sw.bucket_ms == 0) return Bad(*b, "the IOPS interval must be 1 to 3600000 ms");
  }
  // The command line's -d -W -C -z win over every timespan's.
  if (cmd_.duration_given) sw.duration_s = cmd_.duration_s;
  if (cmd_.warmup_given) sw.warmup_s = cmd_.warmup_s;
  if (cmd_.cooldown_given) sw.cooldown_s = cmd_.cooldown_s;
  if (cmd_.seed_given) {
    sw.seed = cmd_.seed;
    sw.seed_from_clock = cmd_.seed_from_clock;
  }
  if (sw.duration_s == 0) {
    return Bad(*Find(e, "Duration"), "the duration must be at least 1 second");
  }
  if (sw.disable_affinity && !sw.affinity.empty()) {
    return Bad(*Find(e, "DisableAffinity"), "conflicts with <Affinity> (-n with -a)");
  }
  const XmlElement& targets = *Find(e, "Targets");
  for (const XmlElement& t : targets.children) {
    if (t.name != "Target") return Bad(t, "is not an element of <Targets> (valid: Target)");
    DiskspdSwitches one = sw;
    if (random_write_data) one.write_data = DiskspdWriteData::kRandomPerIo;
    LC_RETURN_IF_ERROR(Target(t, one));
    if (Status rules = CheckDiskspdRules(one); !rules.ok()) return Bad(t, rules.message());
    sw.targets.push_back(one.targets.front());
    ts.per_target.push_back(std::move(one));
  }
  if (ts.per_target.empty()) return Bad(targets, "needs at least one <Target>");
  return Status::Ok();
}

// <Affinity>: <AffinityAssignment>cpu</...> (group 0) or
// <AffinityGroupAssignment Group="g" Processor="cpu"/>, one kind, in order.
Status ProfileReader::Affinity(const XmlElement& e, DiskspdSwitches& sw) {
  sw.affinity_given = true;
  for (const XmlElement& c : e.children) {
    DiskspdAffinityCpu cpu;
    uint64_t v = 0;
    if (c.name == "AffinityAssignment") {
      if (!c.attributes.empty()) return Bad(c, "has no attributes (a CPU number is its text)");
      LC_RETURN_IF_ERROR(Number(c, 255, v));
      cpu.cpu = static_cast<uint32_t>(v);
    } else if (c.name == "AffinityGroupAssignment") {
      for (const auto& [k, val] : c.attributes) {
        if (k != "Group" && k != "Processor") {
          return Bad(c, fmt::format("has no attribute '{}' (valid: Group, Processor)", k));
        }
        XmlElement value = c;
        value.text = val;
        LC_RETURN_IF_ERROR(Number(value, k == "Group" ? 65535 : 255, v));
        (k == "Group" ? cpu.group : cpu.cpu) = static_cast<uint32_t>(v);
      }
    } else {
      return Bad(c,
                 "is not an element of <Affinity> (valid: AffinityAssignment, "
                 "AffinityGroupAssignment)");
    }
    if (!c.children.empty()) return Bad(c.children.front(), "is not read here");
    if (c.name != e.children.front().name) {
      return Bad(c, fmt::format("<Affinity> holds one kind of element ({} first)",
                                e.children.front().name));
    }
    sw.affinity.push_back(cpu);
  }
  if (sw.affinity.empty()) return Bad(e, "needs at least one CPU");
  return Status::Ok();
}

Status ProfileReader::Path(const XmlElement& e, std::string& path) {
  path = Trimmed(e.text);
  if (path.empty()) return Bad(e, "the path is empty");
  if (path[0] != '*') return Status::Ok();
  uint64_t n = 0;
  bool ok = path.size() > 1 && path.size() < 8;
  for (size_t i = 1; ok && i < path.size(); ++i) {
    ok = path[i] >= '0' && path[i] <= '9';
    if (ok) n = n * 10 + static_cast<uint64_t>(path[i] - '0');
  }
  if (!ok || n == 0)
    return Bad(e, fmt::format("template path '{}' must be *<integer>, *1 or more", path));
  if (n > cmd_.targets.size()) {
    return Bad(e, fmt::format("template path '{}' has no target on the command line to fill it "
                              "({} given after the switches)",
                              path, cmd_.targets.size()));
  }
  used_[n - 1] = true;
  path = cmd_.targets[n - 1];
  return Status::Ok();
}

Status ProfileReader::Target(const XmlElement& e, DiskspdSwitches& t) {
  LC_RETURN_IF_ERROR(Children(e, {{"Path", XsdType::kString, true},
                                  {"BlockSize", XsdType::kUInt32, false},
                                  {"StrideSize", XsdType::kUInt64, false},
                                  {"InterlockedSequential", XsdType::kBool, false},
                                  {"BaseFileOffset", XsdType::kUInt64, false},
                                  {"SequentialScan", XsdType::kBool, false},
                                  {"RandomAccess", XsdType::kBool, false},
                                  {"TemporaryFile", XsdType::kBool, false},
                                  {"UseLargePages", XsdType::kBool, false},
                                  {"RequestCount", XsdType::kUInt32, false},
                                  {"Random", XsdType::kUInt64, false},
                                  {"RandomRatio", XsdType::kUInt32, false},
                                  {"DisableAllCache", XsdType::kBool, false},
                                  {"DisableLocalCache", XsdType::kBool, false},
                                  {"DisableOSCache", XsdType::kBool, false},
                                  {"WriteThrough", XsdType::kBool, false},
                                  {"MemoryMappedIo", XsdType::kBool, false},
                                  {"FlushType", XsdType::kString, false},
                                  {"WriteBufferContent", XsdType::kComplex, false},
                                  {"BurstSize", XsdType::kUInt32, false},
                                  {"ThinkTime", XsdType::kUInt32, false},
                                  {"Throughput", XsdType::kUInt32, false},
                                  {"ThreadsPerFile", XsdType::kUInt32, false},
                                  {"FileSize", XsdType::kUInt64, false},
                                  {"MaxFileSize", XsdType::kUInt64, false},
                                  {"WriteRatio", XsdType::kUInt32, false},
                                  {"ParallelAsyncIO", XsdType::kBool, false},
                                  {"ThreadStride", XsdType::kUInt64, false},
                                  {"IOPriority", XsdType::kUInt32, false},
                                  {"Weight", XsdType::kUInt32, false},
                                  {"ThreadTargets", XsdType::kComplex, false},
                                  {"Distribution", XsdType::kComplex, false}}));
  std::string path;
  LC_RETURN_IF_ERROR(Path(*Find(e, "Path"), path));
  t.targets = {path};
  if (const XmlElement* b = Find(e, "BlockSize"); b != nullptr) {
    LC_RETURN_IF_ERROR(Number(*b, kU32 - 1, t.block_size));
    if (t.block_size == 0) return Bad(*b, "the block size must be above 0");
  }
  LC_RETURN_IF_ERROR(Get(e, "BaseFileOffset", kU64, t.base_offset));
  LC_RETURN_IF_ERROR(Get(e, "MaxFileSize", kU64, t.max_offset));
  LC_RETURN_IF_ERROR(Get(e, "RequestCount", 65536, t.requests));
  if (t.requests == 0) return Bad(*Find(e, "RequestCount"), "the request count must be 1 to 65536");
  if (const XmlElement* n = Find(e, "ThreadsPerFile"); n != nullptr) {
    LC_RETURN_IF_ERROR(Get(e, "ThreadsPerFile", 4096, t.threads_per_target));
    if (t.threads_per_target == 0) return Bad(*n, "the threads per file must be 1 to 4096");
    t.threads_per_target_given = true;
  }
  if (const XmlElement* f = Find(e, "FileSize"); f != nullptr) {
    LC_RETURN_IF_ERROR(Number(*f, kU64, t.create_size));
    t.create = t.create_size > 0;
  }
  LC_RETURN_IF_ERROR(Get(e, "WriteRatio", 100, t.write_ratio));
  LC_RETURN_IF_ERROR(Get(e, "BurstSize", 1'000'000'000, t.burst));
  LC_RETURN_IF_ERROR(Get(e, "ThinkTime", 3'600'000, t.think_ms));
  LC_RETURN_IF_ERROR(Get(e, "ThreadStride", kU64, t.thread_stride));
  LC_RETURN_IF_ERROR(Get(e, "Weight", kU32, t.weight));
  if (t.weight != 1) {
    return NotYet(*Find(e, "Weight"),
                  "a target's weight other than 1 (DiskSpd's share of -O's "
                  "requests; loadcell shares them equally)");
  }
  LC_RETURN_IF_ERROR(TargetAccess(e, t));
  LC_RETURN_IF_ERROR(TargetCache(e, t));
  if (const XmlElement* w = Find(e, "WriteBufferContent"); w != nullptr) {
    LC_RETURN_IF_ERROR(WriteBuffer(*w, t));
  }
  if (const XmlElement* g = Find(e, "Throughput"); g != nullptr)
    LC_RETURN_IF_ERROR(Throughput(*g, t));
  if (const XmlElement* d = Find(e, "Distribution"); d != nullptr) {
    LC_RETURN_IF_ERROR(Distribution(*d, t));
  }
  LC_RETURN_IF_ERROR(GetBool(e, "SequentialScan", t.hint_sequential));
  LC_RETURN_IF_ERROR(GetBool(e, "RandomAccess", t.hint_random));
  if (t.hint_random && t.hint_sequential) {
    return Bad(*Find(e, "RandomAccess"),
               "conflicts with <SequentialScan>: posix_fadvise takes one of them");
  }
  LC_RETURN_IF_ERROR(GetBool(e, "TemporaryFile", t.hint_temporary));
  LC_RETURN_IF_ERROR(GetBool(e, "UseLargePages", t.large_pages));
  LC_RETURN_IF_ERROR(GetBool(e, "ParallelAsyncIO", t.parallel_async));
  if (const XmlElement* tt = Find(e, "ThreadTargets"); tt != nullptr) {
    return NotYet(*tt, "threads chosen per target (ThreadTargets)");
  }
  if (const XmlElement* p = Find(e, "IOPriority"); p != nullptr) {
    uint64_t prio = 0;
    LC_RETURN_IF_ERROR(Number(*p, 3, prio));
    t.io_priority = prio == 0 ? 3 : static_cast<uint32_t>(prio);  // 0: not set
  }
  return Status::Ok();
}

Status ProfileReader::TargetAccess(const XmlElement& e, DiskspdSwitches& t) {
  const XmlElement* stride = Find(e, "StrideSize");
  const XmlElement* random = Find(e, "Random");
  const XmlElement* ratio = Find(e, "RandomRatio");
  if (stride != nullptr && random != nullptr) {
    return Bad(*random, "sequential <StrideSize> conflicts with <Random>");
  }
  if (stride != nullptr && ratio != nullptr) {
    return Bad(*ratio, "sequential <StrideSize> conflicts with <RandomRatio>");
  }
  if (ratio != nullptr && random == nullptr) {
    return Bad(*ratio, "<RandomRatio> needs <Random> (the alignment)");
  }
  if (stride != nullptr) LC_RETURN_IF_ERROR(Number(*stride, kU64, t.alignment));
  LC_RETURN_IF_ERROR(GetBool(e, "InterlockedSequential", t.interlocked));
  if (random != nullptr) {
    LC_RETURN_IF_ERROR(Number(*random, kU64, t.alignment));
    if (t.alignment == 0) return Bad(*random, "the random alignment must be above 0");
    t.random_ratio = 100;
  }
  if (ratio != nullptr) {
    LC_RETURN_IF_ERROR(Get(e, "RandomRatio", 99, t.random_ratio));
    if (t.random_ratio == 0) return Bad(*ratio, "the random ratio must be from 1 to 99");
  }
  return Status::Ok();
}

Status ProfileReader::TargetCache(const XmlElement& e, DiskspdSwitches& t) {
  bool v = false;
  LC_RETURN_IF_ERROR(GetBool(e, "MemoryMappedIo", t.memory_mapped));
  if (const XmlElement* f = Find(e, "FlushType"); f != nullptr) {
    const std::string v = Trimmed(f->text);
    if (v == "ViewOfFile") {
      t.mapped_flush = 'v';
    } else if (v == "NonVolatileMemory" || v == "NonVolatileMemoryNoDrain") {
      return Bad(*f, v + " (RtlFlushNonVolatileMemory) is not supported by loadcell; "
                         "ViewOfFile flushes the mapping");
    } else {
      return Bad(*f, fmt::format("'{}' is not ViewOfFile, NonVolatileMemory or "
                                 "NonVolatileMemoryNoDrain",
                                 v));
    }
  }
  LC_RETURN_IF_ERROR(GetBool(e, "DisableLocalCache", t.remote_cache_only));
  LC_RETURN_IF_ERROR(GetBool(e, "DisableAllCache", v));
  if (v) {
    t.cache = DiskspdCache::kUnbuffered;
    t.write_through = true;
  }
  v = false;
  LC_RETURN_IF_ERROR(GetBool(e, "DisableOSCache", v));
  if (v) t.cache = DiskspdCache::kUnbuffered;
  if (t.remote_cache_only && t.cache == DiskspdCache::kUnbuffered) {
    return Bad(*Find(e, "DisableLocalCache"),
               "conflicts with <DisableOSCache> or <DisableAllCache> (one cache mode)");
  }
  v = false;
  LC_RETURN_IF_ERROR(GetBool(e, "WriteThrough", v));
  if (v) t.write_through = true;
  return Status::Ok();
}

Status ProfileReader::WriteBuffer(const XmlElement& e, DiskspdSwitches& t) {
  LC_RETURN_IF_ERROR(Children(
      e, {{"Pattern", XsdType::kString, true}, {"RandomDataSource", XsdType::kComplex, false}}));
  const XmlElement& pattern = *Find(e, "Pattern");
  const std::string p = Trimmed(pattern.text);
  const XmlElement* source = Find(e, "RandomDataSource");
  if (p != "sequential" && p != "zero" && p != "random") {
    return Bad(pattern, fmt::format("'{}' is not sequential, zero or random", p));
  }
  if (source != nullptr && p != "random") {
    return Bad(*source, "is read only with <Pattern>random</Pattern>");
  }
  if (p == "zero") t.write_data = DiskspdWriteData::kZero;
  if (p != "random") return Status::Ok();
  t.write_data = DiskspdWriteData::kRandomBuffer;
  t.write_buffer_size = t.block_size;
  if (source == nullptr) return Status::Ok();
  LC_RETURN_IF_ERROR(Children(
      *source, {{"SizeInBytes", XsdType::kUInt64, true}, {"FilePath", XsdType::kString, false}}));
  LC_RETURN_IF_ERROR(Get(*source, "SizeInBytes", kU64, t.write_buffer_size));
  if (const XmlElement* f = Find(*source, "FilePath"); f != nullptr) {
    t.write_buffer_file = Trimmed(f->text);
    if (t.write_buffer_file.empty()) return Bad(*f, "the file path is empty");
  }
  return Status::Ok();
}

Status ProfileReader::Throughput(const XmlElement& e, DiskspdSwitches& t) {
  uint64_t v = 0;
  LC_RETURN_IF_ERROR(Number(e, kU32, v));
  const std::string* unit = e.Attribute("unit");
  for (const auto& [k, val] : e.attributes) {
    if (k != "unit") return Bad(e, fmt::format("has no attribute '{}' (valid: unit)", k));
  }
  if (unit != nullptr && *unit != "IOPS" && *unit != "BPMS") {
    return Bad(e, fmt::format("unit '{}' is not IOPS or BPMS", *unit));
  }
  const bool iops = unit != nullptr && *unit == "IOPS";
  t.throughput_iops = iops ? v : 0;
  t.throughput_bytes_per_ms = iops ? 0 : v;
  return Status::Ok();
}

Status ProfileReader::Distribution(const XmlElement& e, DiskspdSwitches& t) {
  if (e.children.size() != 1 ||
      (e.children[0].name != "Percent" && e.children[0].name != "Absolute")) {
    return Bad(e, "holds exactly one <Percent> or <Absolute>");
  }
  const XmlElement& kind = e.children[0];
  const bool pct = kind.name == "Percent";
  t.distribution = pct ? DiskspdDistribution::kPercent : DiskspdDistribution::kAbsolute;
  t.ranges.clear();
  uint32_t io_total = 0;
  uint64_t span_total = 0;
  for (const XmlElement& r : kind.children) {
    if (r.name != "Range")
      return Bad(r, fmt::format("is not an element of <{}> (valid: Range)", kind.name));
    const std::string* io_text = r.Attribute("IO");
    if (io_text == nullptr || r.attributes.size() != 1)
      return Bad(r, "needs the attribute IO (and no other)");
    XmlElement io_value = r;
    io_value.text = *io_text;
    uint64_t io = 0;
    uint64_t span = 0;
    LC_RETURN_IF_ERROR(Number(io_value, 100, io));
    LC_RETURN_IF_ERROR(Number(r, pct ? 100 : kU64, span));
    if (span == 0)
      return Bad(r, pct ? "a range's target% must be from 1 to 100" : "a range of size 0");
    if (io_total + io > 100) return Bad(r, "the ranges' IO% add up to more than 100");
    if (pct && span_total + span > 100)
      return Bad(r, "the ranges' target% add up to more than 100");
    io_total += static_cast<uint32_t>(io);
    span_total += span;
    t.ranges.push_back({static_cast<uint32_t>(io), span});
  }
  if (t.ranges.empty()) return Bad(kind, "needs at least one <Range>");
  if (pct && span_total != 100) {
    return Bad(kind, fmt::format("the target percentages add up to {}%; they must total 100%",
                                 span_total));
  }
  return Status::Ok();
}

}  // namespace

int DiskspdTimespan::ThreadCount() const {
  if (sw.total_threads > 0) return sw.total_threads;
  int n = 0;
  for (const DiskspdSwitches& t : per_target) n += t.threads_per_target;
  return n;
}

DiskspdProfile DiskspdProfileOf(const DiskspdSwitches& sw) {
  DiskspdProfile p;
  DiskspdTimespan ts;
  ts.sw = sw;
  for (const std::string& path : sw.targets) {
    DiskspdSwitches one = sw;
    one.targets = {path};
    ts.per_target.push_back(std::move(one));
  }
  p.timespans.push_back(std::move(ts));
  return p;
}

Result<DiskspdProfile> ParseDiskspdProfile(const std::string& xml, const std::string& file,
                                           const DiskspdSwitches& cmd) {
  Result<XmlElement> root = ReadXmlDocument(xml);
  if (!root.ok()) {
    return Status::InvalidArgument(
        fmt::format("diskspd -X {}: not well-formed XML: {}", file, root.status().message()));
  }
  return ProfileReader(file, cmd).Read(*root);
}

}  // namespace loadcell::diskspd
