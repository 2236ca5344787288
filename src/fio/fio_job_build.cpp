// BuildFioJobSpec and ScheduleFioJobs (fio/fio_options.h): a job's raw
// options through the table, the checks that need the whole job, and the
// clones and groups of a list of jobs.

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "fio/fio_options.h"

namespace loadcell::fio {
namespace {

Status OptionError(const FioRawOption& option, const Status& status) {
  return Status::InvalidArgument(FormatOrigin(option.origin) + ": fio option " +
                                 QuoteFioText(option.name) + ": " + status.message());
}

Status JobError(const FioOrigin& origin, const std::string& what) {
  return Status::InvalidArgument(FormatOrigin(origin) + ": " + what);
}

// Where option `name` was given for `spec`, or the job's own header.
const FioOrigin& OriginOf(const FioJobSpec& spec, std::string_view name) {
  for (const FioGivenOption& given : spec.given) {
    if (given.name == name) return given.origin;
  }
  return spec.origin;
}

void NoteGiven(FioJobSpec& spec, std::string_view name, const FioOrigin& origin) {
  auto it = std::find_if(spec.given.begin(), spec.given.end(),
                         [&](const FioGivenOption& g) { return g.name == name; });
  if (it != spec.given.end()) spec.given.erase(it);
  spec.given.push_back(FioGivenOption{std::string(name), origin});
}

// Levenshtein distance of `a` and `b`.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The refusal of an option the table does not have, with the table's
// nearest name when it is a likely misspelling (at most 2 edits away).
Status UnsupportedOption(const FioRawOption& option) {
  std::string message = FormatOrigin(option.origin) + ": fio option " + QuoteFioText(option.name) +
                        " is not supported by loadcell";
  std::string_view nearest;
  size_t best = 3;
  for (const FioOptionInfo& info : FioOptionTable()) {
    const size_t distance = EditDistance(option.name, info.name);
    if (distance < best && distance * 2 < option.name.size()) {
      best = distance;
      nearest = info.name;
    }
  }
  if (!nearest.empty()) message += " (did you mean '" + std::string(nearest) + "'?)";
  return Status::InvalidArgument(std::move(message));
}

// Applies every option of `job`, kb_base first (the last one given).
Status ApplyOptions(const FioJobOptions& job, FioOptionContext& context, FioJobSpec& spec) {
  const FioOptionInfo* kb_base = FindFioOption("kb_base");
  for (auto it = job.options.rbegin(); it != job.options.rend(); ++it) {
    if (it->name != "kb_base") continue;
    Status status = kb_base->apply(*it, context, spec);
    if (!status.ok()) return OptionError(*it, status);
    break;
  }
  for (const FioRawOption& option : job.options) {
    const FioOptionInfo* info = FindFioOption(option.name);
    if (info == nullptr) return UnsupportedOption(option);
    if (info != kb_base) {
      Status status = info->apply(option, context, spec);
      if (!status.ok()) return OptionError(option, status);
    }
    NoteGiven(spec, info->name, option.origin);
  }
  return Status::Ok();
}

// The defaults that depend on other options.
void FillDerivedDefaults(const FioOptionContext& context, FioJobSpec& spec) {
  if (!context.batch_complete_max_given) spec.iodepth_batch_complete_max = spec.iodepth;
  // fio: a submit batch of 0, or one above the depth, is the depth.
  if (spec.iodepth_batch_submit == 0 || spec.iodepth_batch_submit > spec.iodepth) {
    spec.iodepth_batch_submit = spec.iodepth;
  }
  // fio: a complete_max below complete_min is complete_min, a spin longer
  // than the think time is the think time.
  spec.iodepth_batch_complete_max =
      std::max(spec.iodepth_batch_complete_max, spec.iodepth_batch_complete_min);
  spec.thinktime_spin_ns = std::min(spec.thinktime_spin_ns, spec.thinktime_ns);
  for (size_t d = 0; d < kFioDirections; ++d) {
    if (!spec.block_size_range_given) {
      spec.block_size_range[d] = FioByteRange{spec.block_size[d], spec.block_size[d]};
    }
  }
  // fio: verify_pattern without verify= verifies the pattern.
  if (!spec.verify_pattern.empty() && spec.verify == FioVerify::kNone &&
      std::none_of(spec.given.begin(), spec.given.end(),
                   [](const FioGivenOption& g) { return g.name == "verify"; })) {
    spec.verify = FioVerify::kPattern;
  }
  if (context.lat_log_bare) spec.write_lat_log = spec.name;
  if (context.bw_log_bare) spec.write_bw_log = spec.name;
  if (context.iops_log_bare) spec.write_iops_log = spec.name;
}

bool AnyOf(const FioPerDirection<uint64_t>& values) {
  return std::any_of(values.begin(), values.end(), [](uint64_t v) { return v != 0; });
}

Status CheckRates(const FioJobSpec& spec) {
  // fio: a byte rate and an I/O rate exclude each other in any directions.
  if ((AnyOf(spec.rate) && AnyOf(spec.rate_iops)) ||
      (AnyOf(spec.rate_min) && AnyOf(spec.rate_iops_min))) {
    return JobError(OriginOf(spec, AnyOf(spec.rate_iops) ? "rate_iops" : "rate_iops_min"),
                    "fio options 'rate' and 'rate_iops' exclude each other: give one of them "
                    "(fio's rule)");
  }
  constexpr std::string_view kDirections[] = {"read", "write", "trim"};
  for (size_t d = 0; d < kFioDirections; ++d) {
    const std::string dir(kDirections[d]);
    if (spec.rate[d] != 0 && spec.rate_min[d] > spec.rate[d]) {
      return JobError(OriginOf(spec, "rate_min"),
                      "fio option 'rate_min' is above 'rate' for " + dir + " (fio's rule)");
    }
    if (spec.rate_iops[d] != 0 && spec.rate_iops_min[d] > spec.rate_iops[d]) {
      return JobError(
          OriginOf(spec, "rate_iops_min"),
          "fio option 'rate_iops_min' is above 'rate_iops' for " + dir + " (fio's rule)");
    }
  }
  return Status::Ok();
}

uint64_t SmallestBlockSize(const FioJobSpec& spec) {
  uint64_t smallest = std::numeric_limits<uint64_t>::max();
  // Per direction, as fio's min_bs: the bssplit's smallest where there is
  // one, else the range's low end.
  for (size_t d = 0; d < kFioDirections; ++d) {
    if (spec.block_size_split[d].empty()) {
      smallest = std::min(smallest, spec.block_size_range[d].min);
    }
    for (const FioBlockSplit& split : spec.block_size_split[d]) {
      smallest = std::min(smallest, split.block_size);
    }
  }
  return smallest;
}

bool IsAsyncEngine(FioEngine engine) {
  return engine == FioEngine::kLibaio || engine == FioEngine::kIoUring ||
         engine == FioEngine::kWindowsAio;
}

Status CheckJob(const FioJobSpec& spec) {
  if (!spec.size_given && !spec.filesize_given && spec.filenames.empty()) {
    return JobError(spec.origin, "job " + QuoteFioText(spec.name) +
                                     " has no size: give size=, filesize=, or filename= of a "
                                     "file or device to take it from");
  }
  if (spec.size_given && !spec.size.is_fraction && spec.size.bytes < SmallestBlockSize(spec)) {
    return JobError(OriginOf(spec, "size"),
                    "fio option 'size' (" + std::to_string(spec.size.bytes) +
                        ") is smaller than the smallest block size (" +
                        std::to_string(SmallestBlockSize(spec)) + ") (fio's rule)");
  }
  if (spec.time_based && spec.runtime_ns == 0) {
    return JobError(OriginOf(spec, "time_based"),
                    "fio option 'time_based' needs 'runtime' (fio warns and drops time_based)");
  }
  LC_RETURN_IF_ERROR(CheckRates(spec));
  if (spec.verify != FioVerify::kNone && spec.norandommap && IsAsyncEngine(spec.ioengine) &&
      spec.iodepth > 1) {
    return JobError(OriginOf(spec, "verify"),
                    "fio option 'verify' with 'norandommap' on an asynchronous engine at iodepth " +
                        std::to_string(spec.iodepth) +
                        ": a block written twice in flight cannot be verified (fio warns); drop "
                        "norandommap or use iodepth=1");
  }
  if (spec.verify == FioVerify::kPattern && spec.verify_pattern.empty()) {
    return JobError(OriginOf(spec, "verify"), "fio option 'verify=pattern' needs 'verify_pattern'");
  }
  return Status::Ok();
}

}  // namespace

Result<FioJobSpec> BuildFioJobSpec(const FioJobOptions& job) {
  FioJobSpec spec;
  spec.name = job.section_name;
  spec.origin = job.origin;
  spec.stonewall = job.starts_file;
  FioOptionContext context;
  LC_RETURN_IF_ERROR(ApplyOptions(job, context, spec));
  FillDerivedDefaults(context, spec);
  LC_RETURN_IF_ERROR(CheckJob(spec));
  return spec;
}

Result<std::vector<FioJobSpec>> BuildFioJobSpecs(const std::vector<FioJobOptions>& jobs) {
  std::vector<FioJobSpec> specs;
  specs.reserve(jobs.size());
  for (const FioJobOptions& job : jobs) {
    LC_ASSIGN_OR_RETURN(FioJobSpec spec, BuildFioJobSpec(job));
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<FioRunStep> ScheduleFioJobs(const std::vector<FioJobSpec>& jobs) {
  std::vector<FioRunStep> steps;
  int group_id = 0;
  int jobs_in_group = 0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const FioJobSpec& job = jobs[i];
    if ((job.stonewall || job.new_group) && jobs_in_group > 0) {
      ++group_id;
      jobs_in_group = 0;
    }
    if (steps.empty() || (job.stonewall && !steps.back().instances.empty())) steps.emplace_back();
    for (int clone = 0; clone < job.numjobs; ++clone) {
      steps.back().instances.push_back(FioJobInstance{i, job.name, clone, group_id});
      ++jobs_in_group;
    }
  }
  return steps;
}

}  // namespace loadcell::fio
