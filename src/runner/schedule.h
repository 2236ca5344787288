#pragma once
// Time arithmetic of a run, kept pure so that tests drive it with a fake
// clock: the open-loop rate schedule and the reporting ticks.

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/clock.h"
#include "core/random.h"

namespace loadcell {

// The part of one schedule that one of several processes runs (the ranks of
// an MPI run, each starting it at the common start): of every `total`
// consecutive events of the schedule, the `count` from the `first` on (its
// threads' places among every process' threads). The default: all of it.
struct ScheduleShare {
  uint64_t first = 0;
  uint64_t count = 1;
  uint64_t total = 1;
};

// Open loop: event k (k = 0, 1, ...) of the schedule is due at start + k /
// rate, whatever happened to the events before it. Computed from k each
// time, so rounding never accumulates. Under a share, ticket t (this
// process' t-th event) is the schedule's event (t / count) * total + first
// + t % count, so the shares of every process interleave into the one
// schedule and together run `events_per_second`.
class RateSchedule {
 public:
  RateSchedule(Nanos start, double events_per_second, ScheduleShare share = {});
  Nanos IntendedStart(uint64_t ticket) const;
  // Number of this share's events whose intended start is <= now.
  uint64_t DueBy(Nanos now) const;
  // The time between two events of the schedule, and on average between two
  // of this share's.
  double period_ns() const { return period_ns_; }
  double share_period_ns() const;

 private:
  uint64_t GlobalTicket(uint64_t ticket) const;
  // Number of the whole schedule's events whose intended start is <= now.
  uint64_t GlobalDueBy(Nanos now) const;
  Nanos GlobalStart(uint64_t k) const;

  Nanos start_;
  double period_ns_;
  ScheduleShare share_;
};

// How the arrivals of an ArrivalSchedule are spaced: evenly (linear), or
// as a Poisson process (exponential gaps of the same mean).
enum class ArrivalProcess { kLinear, kPoisson };

// One consumer's open-loop schedule in units of work (events, or bytes for
// a byte rate): the next event is due once the units taken before it are
// due at `units_per_second`, whatever happened to the events before it.
// Linear: the event after `u` units is due at start + u / rate, RateSchedule's
// arithmetic (computed from u, no rounding accumulates). Poisson: each event
// of `units` units is followed by a gap drawn from an exponential law of
// mean units / rate (fio's rate_process=poisson; seeded: the same seed, the
// same arrivals). Not thread-safe: one per consumer. A rate of 0 is no
// schedule: every event is due at once.
class ArrivalSchedule {
 public:
  ArrivalSchedule() = default;
  ArrivalSchedule(Nanos start, double units_per_second, ArrivalProcess process, uint64_t seed);
  bool limited() const { return limited_; }
  // The intended start of the next event (the start when not limited).
  Nanos Next() const { return next_; }
  // The next event, of `units` units, was taken.
  void Take(uint64_t units);
  uint64_t units_taken() const { return taken_; }

 private:
  bool limited_ = false;
  ArrivalProcess process_ = ArrivalProcess::kLinear;
  RateSchedule linear_{0, 0};
  Random rng_{0};
  double ns_per_unit_ = 0;
  double poisson_ns_ = 0;  // Poisson: the next start, from the schedule's start
  Nanos start_ = 0;
  Nanos next_ = 0;
  uint64_t taken_ = 0;
};

// Ticks at start + k * period (k >= 1), without drift. When the caller is
// late by several periods, the missed ticks are skipped: the next interval
// simply covers more time (its real length is reported).
class Ticker {
 public:
  Ticker() = default;
  Ticker(Nanos start, Nanos period) : start_(start), period_(period), k_(period > 0 ? 1 : 0) {}
  bool enabled() const { return period_ > 0; }
  Nanos next() const { return start_ + static_cast<Nanos>(k_) * period_; }
  // Moves past `now`: the next tick is the first one after now.
  void AdvancePast(Nanos now);

 private:
  Nanos start_ = 0;
  Nanos period_ = 0;
  uint64_t k_ = 0;
};

// The fixed points of a run, from its start.
struct Timeline {
  Nanos start = 0;          // threads released
  Nanos measure_start = 0;  // end of warm-up
  Nanos end = 0;            // time limit (the measured end); 0: none
  Nanos cool_end = 0;       // end of the cool-down after `end`; 0: none

  static Timeline Make(Nanos start, double warmup_s, double time_s, double cooldown_s = 0);
  // When the threads stop: the cool-down's end, else the time limit.
  Nanos StopAt() const { return cool_end != 0 ? cool_end : end; }
};

inline Nanos SecondsToNanos(double s) { return static_cast<Nanos>(std::llround(s * 1e9)); }
inline double NanosToSeconds(Nanos n) { return static_cast<double>(n) / 1e9; }

}  // namespace loadcell
