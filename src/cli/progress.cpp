#include "cli/progress.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

namespace loadcell {
namespace {

std::string Grouped(uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}

class LiveStatus final : public Reporter {
 public:
  LiveStatus(std::ostream& err, double time_limit_s) : err_(err), time_limit_s_(time_limit_s) {}

  void OnStatus(const IntervalSnapshot& s) override {
    events_ += s.events;
    std::string line = time_limit_s_ > 0
                           ? fmt::format("[ {:.1f}s / {:g}s ]", s.t_end_s, time_limit_s_)
                           : fmt::format("[ {:.1f}s ]", s.t_end_s);
    line += fmt::format(" {} events/s, {} events",
                        Grouped(static_cast<uint64_t>(std::llround(s.events_per_second))),
                        Grouped(events_));
    if (!s.latency.empty() && s.latency[0].histogram.Count() > 0) {
      line += fmt::format(", p95 {:.3f} ms",
                          static_cast<double>(s.latency[0].histogram.Percentile(95)) / 1e6);
    }
    if (s.errors > 0) line += fmt::format(", {} errors", s.errors);
    std::string pad = line.size() < width_ ? std::string(width_ - line.size(), ' ') : "";
    err_ << '\r' << line << pad << std::flush;
    width_ = line.size();
  }

  void OnEnd(const RunResult&) override {
    if (width_ > 0) err_ << '\r' << std::string(width_, ' ') << '\r' << std::flush;
    width_ = 0;
  }

 private:
  std::ostream& err_;
  double time_limit_s_;
  uint64_t events_ = 0;
  size_t width_ = 0;
};

}  // namespace

Result<bool> TakeQuietOption(RawOptions& options) {
  RawOption* o = options.Find("quiet");
  if (o == nullptr || o->consumed) return false;
  o->consumed = true;
  if (!o->has_value) return true;
  Result<bool> v = ParseBool(o->value);
  if (!v.ok())
    return Status::InvalidArgument(o->spelled + "=" + o->value + ": " + v.status().message());
  return *v;
}

std::unique_ptr<Reporter> MakeLiveStatus(std::ostream& err, double time_limit_s) {
  return std::make_unique<LiveStatus>(err, time_limit_s);
}

}  // namespace loadcell
