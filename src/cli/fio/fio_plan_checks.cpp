#include "cli/fio/fio_plan_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "cli/fio/fio_plan.h"
#include "os/file_space.h"

namespace loadcell {

using fio::FioEngine;
using fio::FioJobSpec;
using fio::FioRwMode;

namespace {

// The trim modes: a hole punched in a file for each trim (Linux's
// fallocate), nothing with the null engine.
Status CheckFioTrims(const FioJobSpec& spec) {
  if (!FioRwTrims(spec.rw)) return Status::Ok();
  if (!CanPunchHoles() && spec.ioengine != FioEngine::kNull) {
    return FioRefuse(spec, "rw",
                     "rw with trim needs Linux's fallocate(PUNCH_HOLE) to trim a file: not "
                     "supported on this system (ioengine=null runs it)");
  }
  if (spec.verify != fio::FioVerify::kNone) {
    return FioRefuse(spec, "verify",
                     "fio option 'verify' with rw with trim is not supported by loadcell");
  }
  const bool trim_write = spec.rw == FioRwMode::kTrimWrite || spec.rw == FioRwMode::kRandTrimWrite;
  const auto any = [](const fio::FioPerDirection<uint64_t>& v) {
    return std::any_of(v.begin(), v.end(), [](uint64_t x) { return x != 0; });
  };
  if (trim_write && (any(spec.rate) || any(spec.rate_iops))) {
    const char* option = any(spec.rate) ? "rate" : "rate_iops";
    return FioRefuse(spec, option,
                     fmt::format("fio option '{}' with rw=trimwrite or randtrimwrite is not "
                                 "supported by loadcell",
                                 option));
  }
  return Status::Ok();
}

}  // namespace

Status FioRefuse(const FioJobSpec& spec, const std::string& option, const std::string& why) {
  return Status::InvalidArgument(FioWhere(spec, option) + why);
}

bool FioRwTrims(FioRwMode rw) {
  return rw == FioRwMode::kTrim || rw == FioRwMode::kRandTrim || rw == FioRwMode::kTrimWrite ||
         rw == FioRwMode::kRandTrimWrite;
}

bool FioRwWrites(FioRwMode rw) {
  return rw != FioRwMode::kRead && rw != FioRwMode::kRandRead && rw != FioRwMode::kTrim &&
         rw != FioRwMode::kRandTrim;
}

// What the jobs core does not act on yet: refused when given, so that
// nothing is silently ignored.
Status CheckFioRunnable(const FioJobSpec& spec) {
  LC_RETURN_IF_ERROR(CheckFioTrims(spec));
  // Files of several sizes: the random distributions other than uniform
  // draw over one region (workloads/fio/fio_pattern.h).
  if (spec.filesize_given && spec.filesize.min != spec.filesize.max &&
      spec.random_distribution.kind != fio::FioDistributionKind::kRandom) {
    return FioRefuse(spec, "random_distribution",
                     "fio option 'random_distribution' other than random with a filesize range "
                     "is not supported by loadcell yet");
  }
  return Status::Ok();
}

FioVerifyKind FioVerifyKindOf(fio::FioVerify v) {
  switch (v) {
    case fio::FioVerify::kNone:
      return FioVerifyKind::kNone;
    case fio::FioVerify::kMd5:
      return FioVerifyKind::kMd5;
    case fio::FioVerify::kCrc64:
      return FioVerifyKind::kCrc64;
    case fio::FioVerify::kCrc32c:
      return FioVerifyKind::kCrc32c;
    case fio::FioVerify::kSha256:
      return FioVerifyKind::kSha256;
    case fio::FioVerify::kXxhash:
      return FioVerifyKind::kXxhash;
    case fio::FioVerify::kPattern:
      return FioVerifyKind::kPattern;
  }
  return FioVerifyKind::kNone;
}

// The verify options a job cannot run with (fio warns about some, runs
// others without doing what they say): refused, one line each.
Status CheckFioVerify(const FioJobSpec& spec, const FioPatternSettings& p) {
  const bool verify = spec.verify != fio::FioVerify::kNone;
  if (spec.verify_only && !verify) {
    return FioRefuse(spec, "verify_only",
                     "fio option 'verify_only' needs 'verify' (a type to check; fio would ignore "
                     "verify_only and write)");
  }
  if (!verify) return Status::Ok();
  if (spec.ioengine == FioEngine::kNull) {
    return FioRefuse(spec, "verify",
                     "fio option 'verify' with ioengine=null: the null engine stores nothing to "
                     "read back");
  }
  if (spec.time_based && spec.verify_only) {
    return FioRefuse(spec, "verify_only",
                     "fio option 'verify_only' does not run time_based jobs (fio's rule)");
  }
  if (spec.time_based && spec.do_verify && FioRwWrites(spec.rw) && spec.verify_backlog == 0) {
    return FioRefuse(spec, "verify",
                     "fio option 'verify' with 'time_based': the writes take all of runtime and "
                     "the verify phase never starts (fio warns); give verify_backlog=N, "
                     "do_verify=0 or drop time_based");
  }
  const size_t header = FioVerifyHeaderBytes(FioVerifyKindOf(spec.verify));
  for (size_t d = 0; d < fio::kFioDirections; ++d) {
    if (!p.dirs[d]) continue;
    // A request may be cut to the block alignment (the random map's free
    // runs), so the alignment counts as a block size.
    uint32_t smallest = p.bs[d].min;
    for (const auto& [size, pct] : p.bs[d].split) smallest = std::min(smallest, size);
    if (p.bs[d].align != 0) smallest = std::min(smallest, p.bs[d].align);
    if (smallest < header) {
      return FioRefuse(spec, "verify",
                       fmt::format("fio option 'verify={}' needs blocks of at least {} bytes (its "
                                   "header); the smallest is {}",
                                   FioVerifyName(FioVerifyKindOf(spec.verify)), header, smallest));
    }
  }
  return Status::Ok();
}

// zoned_abs: zones that reach past the job's region would lose their share
// of the I/Os; refused rather than cut.
Status CheckFioAbsoluteZones(const FioJobSpec& spec, uint64_t region) {
  if (spec.random_distribution.kind != fio::FioDistributionKind::kZonedAbs) return Status::Ok();
  for (const std::vector<fio::FioZone>& zones : spec.random_distribution.zones) {
    uint64_t total = 0;
    for (const fio::FioZone& z : zones) total += z.size_bytes;
    if (total > region) {
      return FioRefuse(spec, "random_distribution",
                       fmt::format("fio option 'random_distribution': zoned_abs zones add up to {} "
                                   "bytes, beyond the {} bytes the "
                                   "job does I/O on in each file",
                                   total, region));
    }
  }
  return Status::Ok();
}

}  // namespace loadcell
