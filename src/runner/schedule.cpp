#include "runner/schedule.h"

#include <cmath>

namespace loadcell {

RateSchedule::RateSchedule(Nanos start, double events_per_second)
    : start_(start), period_ns_(events_per_second > 0 ? 1e9 / events_per_second : 0) {}

Nanos RateSchedule::IntendedStart(uint64_t ticket) const {
  return start_ + static_cast<Nanos>(std::llround(static_cast<double>(ticket) * period_ns_));
}

uint64_t RateSchedule::DueBy(Nanos now) const {
  if (now < start_) return 0;
  if (period_ns_ <= 0) return 0;
  double k = std::floor(static_cast<double>(now - start_) / period_ns_);
  uint64_t due = static_cast<uint64_t>(k) + 1;
  // Guard against rounding at the boundary: IntendedStart(due-1) <= now.
  while (due > 0 && IntendedStart(due - 1) > now) --due;
  while (IntendedStart(due) <= now) ++due;
  return due;
}

void Ticker::AdvancePast(Nanos now) {
  if (period_ <= 0) return;
  if (now >= next()) {
    k_ = static_cast<uint64_t>((now - start_) / period_) + 1;
  }
}

Timeline Timeline::Make(Nanos start, double warmup_s, double time_s) {
  Timeline t;
  t.start = start;
  t.measure_start = start + SecondsToNanos(warmup_s);
  t.end = time_s > 0 ? t.measure_start + SecondsToNanos(time_s) : 0;
  return t;
}

}  // namespace loadcell
