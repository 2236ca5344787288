#include "cli/commands/comparability.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "core/status.h"
#include "report/format.h"
#include "validity/check.h"

namespace loadcell {
namespace {

// A fact's value in a result: nullopt when the result does not record it,
// "" when the fact does not concern it (the file system of a run without
// files).
using FactValue = std::optional<std::string>;

// The value of a fact of the file targets: each target's, joined with
// ", " (SQLIO may have several). nullopt when the result does not record
// its targets, or one target's value is unknown.
template <typename ValueOf>
FactValue OfTargets(const ResultData& r, ValueOf value_of) {
  if (!r.manifest.targets_recorded) return std::nullopt;
  std::string out;
  for (const TargetManifest& t : r.manifest.targets) {
    const FactValue v = value_of(t);
    if (!v.has_value()) return std::nullopt;
    out += (out.empty() ? "" : ", ") + *v;
  }
  return out;
}

// A text fact of a target: nullopt when empty (the system did not say).
FactValue Known(const std::string& text) { return text.empty() ? FactValue() : FactValue(text); }

FactValue Engine(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) { return Known(t.engine); });
}
FactValue Caching(const ResultData& r) {
  return OfTargets(
      r, [](const TargetManifest& t) { return FactValue(t.direct ? "direct" : "buffered"); });
}
FactValue BlockSize(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) {
    return t.block_bytes == 0 ? FactValue() : FactValue(validity::BytesText(t.block_bytes));
  });
}
// The depth asked per thread, and the engine's when it ran another.
FactValue QueueDepth(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) {
    return FactValue(t.queue_depth == t.queue_depth_asked
                         ? std::to_string(t.queue_depth_asked)
                         : fmt::format("{} (ran {})", t.queue_depth_asked, t.queue_depth));
  });
}
FactValue WritePattern(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) { return Known(t.write_pattern); });
}
FactValue FileSetSize(const ResultData& r) {
  return OfTargets(
      r, [](const TargetManifest& t) { return FactValue(validity::BytesText(t.file_set_bytes)); });
}
FactValue FileSystemFact(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) { return Known(t.file_system); });
}
FactValue MountOptions(const ResultData& r) {
  return OfTargets(r, [](const TargetManifest& t) { return Known(t.mount_options); });
}
FactValue ToolVersion(const ResultData& r) { return Known(r.manifest.tool_version); }
FactValue Kernel(const ResultData& r) { return Known(r.manifest.system.kernel); }

// The database's cache (the buffer pool, or the host's memory for SQLite)
// as the verdict's `database` check recorded it. "" for a test without a
// database (no --db-driver option) or judged without that check; nullopt
// when a database test's verdict was not judged or could not read it.
FactValue DatabaseCache(const ResultData& r) {
  if (!r.Option("db-driver").has_value()) return "";
  if (!r.validity.judged) return std::nullopt;
  for (const CheckOutcome& c : r.validity.checks) {
    if (c.id != "database") continue;
    for (const CheckFigure& f : c.figures) {
      if (f.name == "cache_bytes" && f.value > 0) {
        return validity::BytesText(static_cast<uint64_t>(f.value));
      }
    }
    return std::nullopt;  // not checked: the sizes were not read
  }
  return "";
}

struct Fact {
  const char* name;
  FactValue (*value)(const ResultData& r);
};

// Every fact compared, in the order the differences are listed.
constexpr Fact kFacts[] = {
    {"engine", &Engine},
    {"caching", &Caching},
    {"block size", &BlockSize},
    {"queue depth", &QueueDepth},
    {"write data", &WritePattern},
    {"file set size", &FileSetSize},
    {"tool version", &ToolVersion},
    {"kernel", &Kernel},
    {"file system", &FileSystemFact},
    {"mount options", &MountOptions},
    {"database cache", &DatabaseCache},
};

// A value of a saved result as the comparison quotes it: at most 64 bytes,
// its control bytes escaped (a line break included: one value never makes
// two lines of the comparison).
std::string Quoted(const std::string& text) {
  if (text.empty()) return "none";
  bool cut = false;
  const std::string_view kept = CutAtCharacter(text, 64, &cut);
  return EscapeControlBytes(kept) + (cut ? "..." : "");
}

// The database server's settings that both results record (the manifest's
// `database_settings`), each named when its value differs; "database
// settings" not recorded when a database test has none. Nothing when
// either test has no database.
void CompareDatabaseSettings(const ResultData& a, const ResultData& b, Comparability& out) {
  if (!a.Option("db-driver").has_value() || !b.Option("db-driver").has_value()) return;
  const DatabaseSettings& sa = a.manifest.database_settings;
  const DatabaseSettings& sb = b.manifest.database_settings;
  if (sa.empty() || sb.empty()) {
    out.not_recorded.emplace_back("database settings");
    return;
  }
  for (const auto& setting : sa) {
    const auto it =
        std::find_if(sb.begin(), sb.end(), [&](const auto& s) { return s.first == setting.first; });
    // A setting of one server alone (another product or version) is not
    // compared: the server's own difference names it.
    if (it == sb.end() || it->second == setting.second) continue;
    out.differences.push_back(
        {setting.first == "server" ? "database server" : Quoted(setting.first),
         Quoted(setting.second), Quoted(it->second)});
  }
}

// The job options that change what a fio job measures, beyond the facts
// of its target (engine, caching and depth are compared there).
constexpr std::string_view kJobOptions[] = {"rw",
                                            "readwrite",
                                            "bs",
                                            "blocksize",
                                            "bsrange",
                                            "bssplit",
                                            "blocksize_range",
                                            "blockalign",
                                            "rwmixread",
                                            "rwmixwrite",
                                            "numjobs",
                                            "size",
                                            "filesize",
                                            "io_size",
                                            "nrfiles",
                                            "percentage_random",
                                            "random_distribution",
                                            "norandommap",
                                            "rate",
                                            "rate_iops",
                                            "sync",
                                            "fsync",
                                            "fdatasync",
                                            "verify",
                                            "thinktime",
                                            "zero_buffers",
                                            "buffer_compress_percentage",
                                            "dedupe_percentage",
                                            "offset"};

// The value of job option `name` in `r`'s manifest, "none" when not given.
std::string JobOption(const ResultData& r, std::string_view name) {
  const std::optional<std::string> v = r.Option(name);
  return v.has_value() ? Quoted(*v) : "none";
}

// The job set and each job matched by name (JobKeys) of two runs of
// several jobs; nothing when neither has jobs.
void CompareJobs(const ResultData& a, const ResultData& b, Comparability& out) {
  if (a.jobs.empty() && b.jobs.empty()) return;
  const std::vector<std::string> keys_a = JobKeys(a);
  const std::vector<std::string> keys_b = JobKeys(b);
  for (const std::string& k : keys_a) {
    if (std::find(keys_b.begin(), keys_b.end(), k) == keys_b.end()) {
      out.differences.push_back({"job set", Quoted(k), "none"});
    }
  }
  for (size_t j = 0; j < keys_b.size(); ++j) {
    const auto it = std::find(keys_a.begin(), keys_a.end(), keys_b[j]);
    if (it == keys_a.end()) {
      out.differences.push_back({"job set", "none", Quoted(keys_b[j])});
      continue;
    }
    const std::string job = "job " + Quoted(keys_b[j]) + " ";
    for (FactDifference& d :
         CompareJob(a.jobs[static_cast<size_t>(it - keys_a.begin())], b.jobs[j]).differences) {
      out.differences.push_back({job + d.name, std::move(d.a), std::move(d.b)});
    }
  }
}

}  // namespace

Comparability CompareJob(const ResultData& a, const ResultData& b) {
  Comparability out = CompareFacts(a, b);
  std::erase_if(out.differences, [](const FactDifference& d) {
    return d.name == "tool version" || d.name == "kernel";  // the whole run's
  });
  std::erase_if(out.not_recorded,
                [](const std::string& name) { return name == "tool version" || name == "kernel"; });
  for (std::string_view option : kJobOptions) {
    const std::string va = JobOption(a, option);
    const std::string vb = JobOption(b, option);
    if (va != vb) out.differences.push_back({std::string(option), va, vb});
  }
  return out;
}

std::vector<std::string> JobKeys(const ResultData& r) {
  std::vector<std::string> keys;
  keys.reserve(r.jobs.size());
  for (size_t i = 0; i < r.jobs.size(); ++i) {
    int before = 0;
    for (size_t k = 0; k < i; ++k) before += r.jobs[k].job_name == r.jobs[i].job_name ? 1 : 0;
    keys.push_back(before == 0 ? r.jobs[i].job_name
                               : fmt::format("{} #{}", r.jobs[i].job_name, before + 1));
  }
  return keys;
}

Comparability CompareFacts(const ResultData& a, const ResultData& b) {
  Comparability out;
  for (const Fact& f : kFacts) {
    const FactValue va = f.value(a);
    const FactValue vb = f.value(b);
    // "" on one side, and "" or nullopt on the other: the fact concerns
    // neither result as far as is known, nothing to compare.
    const bool a_none = va.has_value() && va->empty();
    const bool b_none = vb.has_value() && vb->empty();
    if ((a_none && (b_none || !vb.has_value())) || (b_none && !va.has_value())) continue;
    if (!va.has_value() || !vb.has_value()) {
      out.not_recorded.emplace_back(f.name);
    } else if (*va != *vb) {
      out.differences.push_back({f.name, Quoted(*va), Quoted(*vb)});
    }
  }
  CompareDatabaseSettings(a, b, out);
  CompareJobs(a, b, out);
  return out;
}

std::string ComparabilityText(const Comparability& c) {
  if (c.comparable()) return "comparable";
  std::string out = "not comparable: ";
  for (size_t i = 0; i < c.differences.size(); ++i) {
    const FactDifference& d = c.differences[i];
    out += fmt::format("{}{} {} vs {}", i == 0 ? "" : ", ", d.name, d.a, d.b);
  }
  return out;
}

std::string NoiseVerdict(int runs_a, double a_min, double a_max, int runs_b, double b_min,
                         double b_max) {
  if (runs_a < kMinRunsForNoise || runs_b < kMinRunsForNoise) return kTooFewRuns;
  return (b_min > a_max || b_max < a_min) ? "beyond spread" : "within spread";
}

std::string ValidityText(const Validity& v) {
  if (!v.judged) return "not judged";
  std::string out = VerdictLine(v);
  const std::vector<const CheckOutcome*> not_passed = v.NotPassed();
  for (size_t i = 0; i < not_passed.size(); ++i) {
    out += fmt::format("{}{} ({})", i == 0 ? ": " : ", ", Quoted(not_passed[i]->id),
                       CheckLevelWord(not_passed[i]->level));
  }
  return out;
}

std::string GroupLabel(size_t i) {
  std::string s(1, static_cast<char>('A' + i % 26));
  if (i >= 26) s = std::string(1, static_cast<char>('A' + (i / 26 - 1) % 26)) + s;
  return s;
}

namespace {

// The smallest and largest events/s of a group's runs.
std::pair<double, double> RateRange(const std::vector<ResultData>& runs) {
  std::pair<double, double> r{runs.front().events_per_second, runs.front().events_per_second};
  for (const ResultData& d : runs) {
    r.first = std::min(r.first, d.events_per_second);
    r.second = std::max(r.second, d.events_per_second);
  }
  return r;
}

// "B" for a single result, "B run 2" for the second run of a group.
std::string RunName(const std::vector<std::vector<ResultData>>& groups, size_t i, size_t j) {
  return groups[i].size() == 1 ? GroupLabel(i) : fmt::format("{} run {}", GroupLabel(i), j + 1);
}

// "comparable" or the differences, then the facts not recorded.
std::string FactsLine(const Comparability& c) {
  std::string out = ComparabilityText(c);
  for (size_t k = 0; k < c.not_recorded.size(); ++k) {
    out += (k == 0 ? "; not recorded: " : ", ") + c.not_recorded[k];
  }
  return out;
}

// The gravest of the runs' verdicts: invalid, then warnings, then not
// judged, then valid.
int Gravity(const Validity& v) {
  if (!v.judged) return 1;
  switch (v.overall()) {
    case Overall::kInvalid:
      return 3;
    case Overall::kValidWithWarnings:
      return 2;
    case Overall::kValid:
      return 0;
  }
  return 0;
}

// The "Overall:" line's parts.
std::string OverallLine(const std::vector<std::vector<ResultData>>& groups,
                        const ComparisonVerdict& v) {
  std::string not_comparable;
  for (size_t i = 1; i < groups.size(); ++i) {
    bool differs = !v.against_a[i].comparable();
    for (const auto& [j, c] : v.within[i]) differs = differs || !c.comparable();
    if (differs) not_comparable += (not_comparable.empty() ? "" : ", ") + GroupLabel(i);
  }
  if (!v.within[0].empty())
    not_comparable = "A" + (not_comparable.empty() ? "" : ", " + not_comparable);
  std::string out =
      not_comparable.empty() ? "comparable" : "not comparable (" + not_comparable + ")";
  std::string noise;
  bool too_few = false;
  for (size_t i = 1; i < groups.size(); ++i) {
    too_few = too_few || v.noise[i] == kTooFewRuns;
    noise += fmt::format("{}{} {}", noise.empty() ? "" : ", ", GroupLabel(i), v.noise[i]);
  }
  out += "; " + (too_few ? std::string(kTooFewRuns) : noise);
  std::string invalid, warned, unjudged;
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = 0; j < groups[i].size(); ++j) {
      const int g = Gravity(groups[i][j].validity);
      std::string& list = g == 3 ? invalid : g == 2 ? warned : unjudged;
      if (g == 0) continue;
      list += (list.empty() ? "" : ", ") + RunName(groups, i, j);
    }
  }
  if (!invalid.empty()) out += "; INVALID: " + invalid;
  if (!warned.empty()) out += "; with warnings: " + warned;
  if (!unjudged.empty()) out += "; not judged: " + unjudged;
  if (invalid.empty() && warned.empty() && unjudged.empty()) out += "; every result valid";
  return out;
}

}  // namespace

ComparisonVerdict JudgeComparison(const std::vector<std::vector<ResultData>>& groups,
                                  Comparability (*compare)(const ResultData&, const ResultData&)) {
  ComparisonVerdict v;
  const ResultData& base = groups[0][0];
  const std::pair<double, double> base_range = RateRange(groups[0]);
  for (size_t i = 0; i < groups.size(); ++i) {
    v.within.emplace_back();
    if (groups[i].empty()) {  // a part this result lacks: nothing to judge
      v.against_a.emplace_back();
      v.noise.emplace_back();
      continue;
    }
    v.against_a.push_back(i == 0 ? Comparability{} : compare(base, groups[i][0]));
    for (size_t j = 1; j < groups[i].size(); ++j) {
      Comparability c = compare(groups[i][0], groups[i][j]);
      if (!c.comparable()) v.within[i].emplace_back(j, std::move(c));
    }
    if (i == 0) {
      v.noise.emplace_back();
      continue;
    }
    const std::pair<double, double> range = RateRange(groups[i]);
    v.noise.push_back(NoiseVerdict(static_cast<int>(groups[0].size()), base_range.first,
                                   base_range.second, static_cast<int>(groups[i].size()),
                                   range.first, range.second));
  }
  return v;
}

std::string ComparisonVerdictText(const std::vector<std::vector<ResultData>>& groups,
                                  const ComparisonVerdict& v) {
  std::string out = "\nComparability (what changes the meaning of a figure, against A):\n";
  for (size_t i = 0; i < groups.size(); ++i) {
    if (i > 0) out += fmt::format("  {}: {}\n", GroupLabel(i), FactsLine(v.against_a[i]));
    for (const auto& [j, c] : v.within[i]) {
      out += fmt::format("  {} against {}: {}\n", RunName(groups, i, j), RunName(groups, i, 0),
                         FactsLine(c));
    }
  }
  out += fmt::format("Noise (events/s; {} runs each are needed to call a difference):\n",
                     kMinRunsForNoise);
  for (size_t i = 1; i < groups.size(); ++i) {
    out += fmt::format("  {} vs A: {} ({} and {} runs)\n", GroupLabel(i), v.noise[i],
                       groups[0].size(), groups[i].size());
  }
  out += "Validity (each result's own verdict):\n";
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = 0; j < groups[i].size(); ++j) {
      out += fmt::format("  {} ({}): {}\n", RunName(groups, i, j), groups[i][j].source,
                         ValidityText(groups[i][j].validity));
    }
  }
  return out + "Overall: " + OverallLine(groups, v) + "\n";
}

std::string ComparisonVerdictCsv(const std::vector<ResultData>& group, size_t i,
                                 const ComparisonVerdict& v) {
  using report_internal::CsvField;
  std::string comparable, differences;
  if (i > 0) {
    std::vector<const Comparability*> all = {&v.against_a[i]};
    for (const auto& [j, c] : v.within[i]) all.push_back(&c);
    bool ok = true;
    for (const Comparability* c : all) {
      ok = ok && c->comparable();
      for (const FactDifference& d : c->differences) {
        differences +=
            fmt::format("{}{} {} vs {}", differences.empty() ? "" : "; ", d.name, d.a, d.b);
      }
    }
    comparable = ok ? "yes" : "no";
  }
  int gravest = 0;
  std::string checks;
  std::vector<std::string> seen;
  for (const ResultData& r : group) {
    gravest = std::max(gravest, Gravity(r.validity));
    for (const CheckOutcome* c : r.validity.NotPassed()) {
      const std::string item = c->id + ":" + CheckLevelName(c->level);
      if (std::find(seen.begin(), seen.end(), item) != seen.end()) continue;
      seen.push_back(item);
      checks += (checks.empty() ? "" : " ") + item;
    }
  }
  static constexpr const char* kValidity[] = {"valid", "not_judged", "valid_with_warnings",
                                              "invalid"};
  return fmt::format("{},{},{},{},{}", comparable, CsvField(differences), CsvField(v.noise[i]),
                     kValidity[gravest], CsvField(checks));
}

}  // namespace loadcell
