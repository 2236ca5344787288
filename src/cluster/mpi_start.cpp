#include "cluster/mpi_start.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstring>
#include <optional>
#include <thread>
#include <type_traits>

#include "runner/schedule.h"

namespace loadcell {
namespace {

// Ping-pongs per rank for the clock offset; the one with the shortest round
// trip is kept (its midpoint estimate is the tightest).
constexpr int kOffsetRounds = 8;
// How far ahead of rank 0's clock the common start is set: enough for the
// word to reach every rank first.
constexpr Nanos kStartLead = 50 * kNanosPerMilli;
// A wait looks without pausing for this long first: a ping-pong's round
// trip bounds the offset's error, and a reply comes within microseconds.
constexpr Nanos kSpin = 20 * kNanosPerMilli;
// How long a control thread sleeps between looks while rank 0 works alone
// (a prepare may take minutes: no need to look more often).
constexpr Nanos kWorkPause = 10 * kNanosPerMilli;

// The start vote's outcome, rank 0 to each rank (MpiTag::kGo).
struct GoMessage {
  enum Word : int32_t { kGo = 0, kFailed = 1, kMissing = 2 };
  int32_t word = kGo;
  int32_t rank = -1;      // the failed or missing rank
  int64_t start_ns = 0;   // the common start, on rank 0's clock
  int64_t offset_ns = 0;  // the receiver's: rank 0's clock minus its own
  int64_t round_trip_ns = 0;
};
static_assert(std::is_trivially_copyable_v<GoMessage> && sizeof(GoMessage) == 32);

template <typename T>
std::string Bytes(const T& value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

template <typename T>
std::optional<T> FromBytes(const std::string& bytes) {
  if (bytes.size() != sizeof(T)) return std::nullopt;
  T value;
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

std::string Who(const MpiPeers& p, int rank) {
  return fmt::format("rank {} ({})", rank, (*p.hosts)[rank]);
}

Status SilentBeforeStart(const MpiPeers& p, int rank) {
  return Status::Unavailable(
      fmt::format("{} did not answer for {} s before the start (--mpi-timeout); no rank ran it",
                  Who(p, rank), p.timeout_s));
}

Status CouldNotStart(const MpiPeers& p, int rank) {
  return Status::Unavailable(
      fmt::format("{} could not start the run (its error is above); no rank ran it", Who(p, rank)));
}

// The next look: at once during the first kSpin of a wait, then after a pause.
void PauseIfLong(Nanos since) {
  if (MonotonicNow() - since >= kSpin) PauseBetweenLooks();
}

// Rank 0's side of the start.
class RootStart {
 public:
  explicit RootStart(const MpiPeers& p) : p_(p), timeout_(SecondsToNanos(p.timeout_s)) {}

  MpiStartOutcome Run(const Status& ready) {
    int failed = ready.ok() ? INT_MAX : 0;
    const int missing = CollectVotes(failed);
    if (missing >= 0) return Abort(missing);
    if (failed != INT_MAX) {
      GoMessage go;
      go.word = GoMessage::kFailed;
      go.rank = failed;
      for (int r = 1; r < p_.size; ++r) p_.link->Send(r, MpiTag::kGo, Bytes(go));
      p_.link->Flush(MonotonicNow() + kLastWordsGrace);
      MpiStartOutcome out;
      out.status = ready.ok() ? CouldNotStart(p_, failed) : ready;
      return out;
    }
    std::vector<GoMessage> go(p_.size);
    for (int r = 1; r < p_.size; ++r) {
      if (!MeasureOffset(r, go[r])) return Abort(r);
    }
    const Nanos start = MonotonicNow() + kStartLead;
    for (int r = 1; r < p_.size; ++r) {
      go[r].start_ns = start;
      p_.link->Send(r, MpiTag::kGo, Bytes(go[r]));
    }
    p_.link->Flush(start);
    if (start > MonotonicNow()) SleepUntilMonotonic(start);
    return MpiStartOutcome{};
  }

 private:
  void BeatIfDue(Nanos now) {
    if (now - last_beat_ < p_.beat_ns) return;
    last_beat_ = now;
    for (int r = 1; r < p_.size; ++r) p_.link->Send(r, MpiTag::kBeat, {});
  }

  // Waits for every rank's vote; the lowest failed rank goes to `failed`.
  // Returns the first rank silent for the timeout, or -1.
  int CollectVotes(int& failed) {
    const Nanos since = MonotonicNow();
    std::vector<Nanos> heard(p_.size, since);
    std::vector<bool> voted(p_.size, false);
    for (int waiting = p_.size - 1; waiting > 0;) {
      const Nanos now = MonotonicNow();
      while (std::optional<MpiMessage> m = p_.link->Receive()) {
        heard[m->from] = now;
        if (m->tag != MpiTag::kReady || voted[m->from]) continue;
        voted[m->from] = true;
        --waiting;
        if (m->bytes != "\1") failed = std::min(failed, m->from);
      }
      if (waiting == 0) break;
      for (int r = 1; r < p_.size; ++r) {
        if (!voted[r] && now - heard[r] > timeout_) return r;
      }
      BeatIfDue(now);
      p_.link->Progress();
      PauseIfLong(since);
    }
    return -1;
  }

  // Rank 0 sends its clock's reading t1, rank r answers with its own (tr),
  // the answer arrives at t2: r's reading lies between t1 and t2, so
  // offset = (t1 + t2) / 2 - tr is off by at most half the round trip.
  // False when rank r was silent for the timeout.
  bool MeasureOffset(int r, GoMessage& go) {
    go.round_trip_ns = -1;
    for (int k = 0; k < kOffsetRounds; ++k) {
      const Nanos t1 = MonotonicNow();
      p_.link->Send(r, MpiTag::kClock, {});
      std::optional<int64_t> tr;
      while (!tr) {
        const Nanos now = MonotonicNow();
        if (std::optional<MpiMessage> m = p_.link->Receive(r)) {
          if (m->tag == MpiTag::kClock) tr = FromBytes<int64_t>(m->bytes);
          continue;
        }
        if (now - t1 > timeout_) return false;
        BeatIfDue(now);
        PauseIfLong(t1);
      }
      const Nanos t2 = MonotonicNow();
      if (go.round_trip_ns < 0 || t2 - t1 < go.round_trip_ns) {
        go.round_trip_ns = t2 - t1;
        go.offset_ns = t1 + (t2 - t1) / 2 - *tr;
      }
    }
    return true;
  }

  // Rank `missing` did not answer: every other rank is told, and ends.
  MpiStartOutcome Abort(int missing) {
    GoMessage go;
    go.word = GoMessage::kMissing;
    go.rank = missing;
    for (int r = 1; r < p_.size; ++r) {
      if (r != missing) p_.link->Send(r, MpiTag::kGo, Bytes(go));
    }
    p_.link->Flush(MonotonicNow() + kLastWordsGrace);
    MpiStartOutcome out;
    out.status = SilentBeforeStart(p_, missing);
    out.missing = missing;
    return out;
  }

  const MpiPeers& p_;
  const Nanos timeout_;
  Nanos last_beat_ = 0;
};

// What a rank other than 0 does with rank 0's word on the start.
MpiStartOutcome TakeGo(const MpiPeers& p, const Status& ready, const GoMessage& go) {
  MpiStartOutcome out;
  if (go.word == GoMessage::kFailed) {
    out.status = ready.ok() ? CouldNotStart(p, go.rank) : ready;
    return out;
  }
  if (go.word == GoMessage::kMissing) {
    out.status = ready.ok() ? SilentBeforeStart(p, go.rank) : ready;
    out.missing = go.rank;
    return out;
  }
  out.offset_ns = go.offset_ns;
  out.round_trip_ns = go.round_trip_ns;
  const Nanos mine = go.start_ns - go.offset_ns;
  if (mine > MonotonicNow()) SleepUntilMonotonic(mine);
  return out;
}

MpiStartOutcome RankStart(const MpiPeers& p, const Status& ready) {
  p.link->Send(0, MpiTag::kReady, std::string(1, ready.ok() ? '\1' : '\0'));
  const Nanos timeout = SecondsToNanos(p.timeout_s);
  Nanos heard = MonotonicNow();
  Nanos since = heard;
  for (;;) {
    const Nanos now = MonotonicNow();
    while (std::optional<MpiMessage> m = p.link->Receive(0)) {
      heard = now;
      if (m->tag == MpiTag::kClock) {
        p.link->Send(0, MpiTag::kClock, Bytes<int64_t>(MonotonicNow()));
        since = MonotonicNow();  // the next ping comes at once: look without pausing
      } else if (m->tag == MpiTag::kGo) {
        if (std::optional<GoMessage> go = FromBytes<GoMessage>(m->bytes)) {
          return TakeGo(p, ready, *go);
        }
      }
    }
    if (now - heard > timeout) {
      MpiStartOutcome out;
      out.status = ready.ok() ? SilentBeforeStart(p, 0) : ready;
      out.missing = 0;
      return out;
    }
    p.link->Progress();
    PauseIfLong(since);
  }
}

}  // namespace

MpiStartOutcome StartTogether(const MpiPeers& peers, const Status& ready) {
  if (peers.rank == 0) return RootStart(peers).Run(ready);
  return RankStart(peers, ready);
}

Status RunOnRankZero(const MpiPeers& p, const std::function<Status()>& work,
                     const std::string& what, bool* missing_root) {
  if (p.rank == 0) {
    Status result;
    std::atomic<bool> done{false};
    std::thread worker([&] {
      result = work();
      done.store(true, std::memory_order_release);
    });
    Nanos last_beat = 0;
    while (!done.load(std::memory_order_acquire)) {
      const Nanos now = MonotonicNow();
      if (now - last_beat >= p.beat_ns) {
        last_beat = now;
        for (int r = 1; r < p.size; ++r) p.link->Send(r, MpiTag::kBeat, {});
      }
      p.link->Progress();
      SleepUntilMonotonic(now + kWorkPause);
    }
    worker.join();
    for (int r = 1; r < p.size; ++r) {
      p.link->Send(r, MpiTag::kDone, std::string(1, result.ok() ? '\1' : '\0'));
    }
    p.link->Flush(MonotonicNow() + kLastWordsGrace);
    return result;
  }
  const Nanos timeout = SecondsToNanos(p.timeout_s);
  Nanos heard = MonotonicNow();
  for (;;) {
    const Nanos now = MonotonicNow();
    while (std::optional<MpiMessage> m = p.link->Receive(0)) {
      heard = now;
      if (m->tag != MpiTag::kDone) continue;
      if (m->bytes == "\1") return Status::Ok();
      return Status::Unavailable(
          fmt::format("{} could not {} (its error is above)", Who(p, 0), what));
    }
    if (now - heard > timeout) {
      *missing_root = true;
      return Status::Unavailable(
          fmt::format("{} did not answer for {} s (--mpi-timeout) while it was to {}", Who(p, 0),
                      p.timeout_s, what));
    }
    p.link->Progress();
    SleepUntilMonotonic(now + kWorkPause);
  }
}

}  // namespace loadcell
