// write-data (docs/validity.md): zeros, a repeating sequence, or data a
// workload made compressible or repeated on purpose (fio's
// buffer_compress_percentage, dedupe_percentage, buffer_pattern) let
// compressing or deduplicating storage skip the work. What the target's
// file system states of its own compression is added to the evidence.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {
namespace {

// What the file systems under the targets written state of compression:
// the first that compresses, else the first that said anything.
struct TargetSavings {
  int compresses = -1;  // 1, 0, -1 unknown
  std::string how;
};

TargetSavings SavingsOfTargets(const CheckInput& in) {
  TargetSavings s;
  for (size_t i = 0; i < in.workload.io.size() && i < in.targets.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    const TargetEndFacts& f = in.targets[i];
    if (t.null_engine || !t.writes || f.storage_compresses < 0) continue;
    if (f.storage_compresses > s.compresses) s = {f.storage_compresses, f.savings};
  }
  return s;
}

// `figures` with the target's compression, and `seen` with what said it.
CheckOutcome WithSavings(CheckOutcome c, const TargetSavings& s, bool data_compressible) {
  if (s.compresses < 0) return c;
  c.figures.push_back({"target_compresses", static_cast<double>(s.compresses)});
  std::string note;
  if (s.compresses > 0) {
    note = data_compressible
               ? "the target compresses: " + s.how
               : "the target compresses (" + s.how + "), but the data written hardly compresses";
  } else if (data_compressible) {
    note = "the file system does not compress (" + s.how + "), a device or array under it may";
  } else {
    note = "the file system does not compress (" + s.how + ")";
  }
  c.seen += (c.seen.empty() ? "" : "; ") + note;
  return c;
}

}  // namespace

std::optional<CheckOutcome> CheckWriteData(const CheckInput& in) {
  constexpr const char* kId = "write-data";
  bool any = false;
  bool estimated = false;
  double compressible = 0;
  double duplicate = 0;
  const TargetSavings savings = SavingsOfTargets(in);
  for (const IoTargetFacts& t : in.workload.io) {
    if (t.null_engine || !t.writes) continue;
    any = true;
    if (t.write_compressible_fraction >= 0 || t.write_duplicate_fraction >= 0) {
      estimated = true;
      compressible = std::max(compressible, t.write_compressible_fraction);
      duplicate = std::max(duplicate, t.write_duplicate_fraction);
      continue;
    }
    if (t.write_pattern == "zero" || t.write_pattern == "sequence") {
      return WithSavings(
          Found(kId, CheckLevel::kWarn,
                fmt::format("writes of {} data: storage that compresses or deduplicates "
                            "stores almost nothing",
                            t.write_pattern == "zero" ? "all-zero" : "sequence"),
                "use " + in.workload.option_names.random_data, {{"compressible", 1}}),
          savings, true);
    }
  }
  if (!any) return std::nullopt;
  if (!estimated) return WithSavings(Passed(kId, {{"compressible", 0}}), savings, false);
  if (compressible >= kWriteDataRepeatedFraction || duplicate >= kWriteDataRepeatedFraction) {
    return WithSavings(
        Found(kId, CheckLevel::kWarn,
              fmt::format("about {:.0f}% of the data written is repeated within its blocks and "
                          "{:.0f}% of the blocks repeat earlier ones: storage that compresses "
                          "or deduplicates does not store it",
                          compressible * 100, duplicate * 100),
              fmt::format("write {} unless that storage's savings are what is measured",
                          in.workload.option_names.random_data),
              {{"compressible", compressible}, {"duplicate", duplicate}}),
        savings, true);
  }
  return WithSavings(Passed(kId, {{"compressible", compressible}, {"duplicate", duplicate}}),
                     savings, false);
}

}  // namespace loadcell::validity
