// unwritten-data (docs/validity.md): reads of holes (ranges with no storage
// allocated) and of unwritten extents (allocated and never written, as
// fallocate leaves them) return zeros without touching the device.

#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {
namespace {

constexpr const char* kZeroId = "unwritten-data";

// "a, b and 3 more": the first files named, the rest counted.
std::string FilesText(const std::vector<std::string>& files) {
  constexpr size_t kNamed = 3;
  std::string out;
  for (size_t i = 0; i < files.size() && i < kNamed; ++i) {
    out += (i == 0 ? "" : ", ") + files[i];
  }
  if (files.size() > kNamed) out += fmt::format(" and {} more", files.size() - kNamed);
  return out;
}

// The warning of `zero` of `sampled` pages of zeros in `files`, with `note`
// ("" or what was not read) after what was seen.
CheckOutcome ZeroPagesFound(uint64_t zero, uint64_t sampled, const std::vector<std::string>& files,
                            const std::string& note, std::string advice,
                            std::vector<CheckFigure> figures) {
  // Nothing in the allocation, but zeros in the data: never written past
  // a valid data length, laid out without data, or zeros written.
  return Found(kZeroId, CheckLevel::kWarn,
               fmt::format("{} of {} pages sampled from the files read hold only zeros ({}): "
                           "data never written (past a file's valid data length, or laid out "
                           "by SetEndOfFile or ftruncate without data) reads as zeros without "
                           "the device's work, and so do zeros written{}",
                           zero, sampled, FilesText(files), note),
               std::move(advice), std::move(figures));
}

}  // namespace

std::optional<CheckOutcome> CheckUnwrittenData(const CheckInput& in) {
  constexpr const char* kId = kZeroId;
  uint64_t holes = 0;
  uint64_t unwritten = 0;
  uint64_t never = 0;  // in either, counted once
  uint64_t bytes = 0;
  std::string unwritten_unknown;
  uint64_t sampled = 0;  // pages sampled after the run, and those all zeros
  uint64_t zero = 0;
  std::vector<std::string> files;
  std::string holes_unknown;
  bool any = false;
  for (size_t i = 0; i < in.workload.io.size(); ++i) {
    const IoTargetFacts& t = in.workload.io[i];
    if (t.null_engine || !t.reads) continue;
    any = true;
    if (i >= in.targets.size()) return NotChecked(kId, "the files' allocation was not read");
    const TargetEndFacts& f = in.targets[i];
    sampled += f.sampled_pages;
    zero += f.zero_pages;
    files.insert(files.end(), f.zero_page_files.begin(), f.zero_page_files.end());
    if (!f.holes_unknown.empty()) {
      if (holes_unknown.empty()) holes_unknown = f.holes_unknown;
      continue;
    }
    holes += f.hole_bytes;
    unwritten += f.unwritten_bytes;
    // The union holds the holes at least.
    never += std::max(f.never_written_bytes, f.hole_bytes);
    if (unwritten_unknown.empty()) unwritten_unknown = f.unwritten_unknown;
    bytes += t.file_set_bytes;
  }
  if (!any) return std::nullopt;
  const std::string advice =
      fmt::format("write the files first ({}) instead of reading {}",
                  in.workload.option_names.write_first, in.workload.option_names.unwritten_source);
  if (!holes_unknown.empty()) {
    // The allocation not read: the data sampled alone can still tell.
    std::vector<CheckFigure> sample = {{"sampled_pages", static_cast<double>(sampled)},
                                       {"zero_pages", static_cast<double>(zero)}};
    if (zero > kMaxZeroPages) {
      return ZeroPagesFound(zero, sampled, files, "; holes not read: " + holes_unknown, advice,
                            std::move(sample));
    }
    CheckOutcome out = NotChecked(kId, holes_unknown);
    if (sampled > 0) out.figures = std::move(sample);  // none of zeros: said, not passed
    return out;
  }
  std::vector<CheckFigure> figures = {{"hole_bytes", static_cast<double>(holes)},
                                      {"file_set_bytes", static_cast<double>(bytes)}};
  if (unwritten_unknown.empty()) {
    figures.push_back({"unwritten_bytes", static_cast<double>(unwritten)});
    figures.push_back({"never_written_bytes", static_cast<double>(never)});
  }
  if (sampled > 0) {
    figures.push_back({"sampled_pages", static_cast<double>(sampled)});
    figures.push_back({"zero_pages", static_cast<double>(zero)});
  }
  if (never == 0 && zero > kMaxZeroPages) {
    return ZeroPagesFound(zero, sampled, files, "", advice, std::move(figures));
  }
  if (never == 0) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    // Holes alone were looked for: say what was not.
    if (!unwritten_unknown.empty())
      ok.seen = "no hole; unwritten extents not read: " + unwritten_unknown;
    return ok;
  }
  if (unwritten == 0) {
    return Found(kId, CheckLevel::kInvalid,
                 fmt::format("{} of the {} read lie in holes (never written): those reads "
                             "return zeros without touching the device",
                             BytesText(holes), BytesText(bytes)),
                 advice, std::move(figures));
  }
  return Found(
      kId, CheckLevel::kInvalid,
      fmt::format("{} of the {} read were never written: {} in unwritten extents "
                  "(allocated, as by fallocate, never written), {} reported as holes; "
                  "those reads return zeros without touching the device",
                  BytesText(never), BytesText(bytes), BytesText(unwritten), BytesText(holes)),
      advice, std::move(figures));
}

}  // namespace loadcell::validity
