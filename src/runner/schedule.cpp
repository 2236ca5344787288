#include "runner/schedule.h"

#include <algorithm>
#include <cmath>

namespace loadcell {

RateSchedule::RateSchedule(Nanos start, double events_per_second, ScheduleShare share)
    : start_(start), period_ns_(events_per_second > 0 ? 1e9 / events_per_second : 0) {
  // A share that is not one (none of it, or past its end) is the whole.
  if (share.count == 0 || share.total < share.first + share.count) share = ScheduleShare{};
  share_ = share;
}

uint64_t RateSchedule::GlobalTicket(uint64_t ticket) const {
  return ticket / share_.count * share_.total + share_.first + ticket % share_.count;
}

Nanos RateSchedule::GlobalStart(uint64_t k) const {
  return start_ + static_cast<Nanos>(std::llround(static_cast<double>(k) * period_ns_));
}

Nanos RateSchedule::IntendedStart(uint64_t ticket) const {
  return GlobalStart(GlobalTicket(ticket));
}

uint64_t RateSchedule::GlobalDueBy(Nanos now) const {
  if (now < start_) return 0;
  if (period_ns_ <= 0) return 0;
  double k = std::floor(static_cast<double>(now - start_) / period_ns_);
  uint64_t due = static_cast<uint64_t>(k) + 1;
  // Guard against rounding at the boundary: GlobalStart(due-1) <= now.
  while (due > 0 && GlobalStart(due - 1) > now) --due;
  while (GlobalStart(due) <= now) ++due;
  return due;
}

// Of the schedule's first `g` events, the whole cycles of `total` hold
// `count` of this share's each; the last, partial cycle of g % total holds
// those of its places first..first+count-1 that lie below g % total.
uint64_t RateSchedule::DueBy(Nanos now) const {
  const uint64_t g = GlobalDueBy(now);
  const uint64_t rest = g % share_.total;
  const uint64_t partial = rest > share_.first ? std::min(rest - share_.first, share_.count) : 0;
  return g / share_.total * share_.count + partial;
}

double RateSchedule::share_period_ns() const {
  return period_ns_ * static_cast<double>(share_.total) / static_cast<double>(share_.count);
}

ArrivalSchedule::ArrivalSchedule(Nanos start, double units_per_second, ArrivalProcess process,
                                 uint64_t seed)
    : limited_(units_per_second > 0),
      process_(process),
      linear_(start, units_per_second),
      rng_(seed),
      ns_per_unit_(units_per_second > 0 ? 1e9 / units_per_second : 0),
      start_(start),
      next_(start) {}

void ArrivalSchedule::Take(uint64_t units) {
  taken_ += units;
  if (!limited_) return;
  if (process_ == ArrivalProcess::kLinear) {
    next_ = linear_.IntendedStart(taken_);
    return;
  }
  // Inverse transform: -log(1 - U), U in [0, 1), is exponential of mean 1.
  const double gap = -std::log1p(-rng_.NextDouble()) * ns_per_unit_ * static_cast<double>(units);
  poisson_ns_ += gap;
  next_ = start_ + static_cast<Nanos>(std::llround(poisson_ns_));
}

void Ticker::AdvancePast(Nanos now) {
  if (period_ <= 0) return;
  if (now >= next()) {
    k_ = static_cast<uint64_t>((now - start_) / period_) + 1;
  }
}

Timeline Timeline::Make(Nanos start, double warmup_s, double time_s, double cooldown_s) {
  Timeline t;
  t.start = start;
  t.measure_start = start + SecondsToNanos(warmup_s);
  t.end = time_s > 0 ? t.measure_start + SecondsToNanos(time_s) : 0;
  t.cool_end = t.end != 0 && cooldown_s > 0 ? t.end + SecondsToNanos(cooldown_s) : 0;
  return t;
}

}  // namespace loadcell
