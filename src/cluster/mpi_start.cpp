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
  int32_t code = 0;  // kFailed: the StatusCode of the failed rank's error
  int32_t unused = 0;
};
static_assert(std::is_trivially_copyable_v<GoMessage> && sizeof(GoMessage) == 40);

// Rank 0's answer to a rank's JoinHello (MpiTag::kWelcome), followed by
// every rank's host, each ended by a NUL (kGo only).
struct WelcomeHead {
  enum Word : int32_t { kGo = 0, kRefused = 1, kMissing = 2 };
  int32_t word = kGo;
  int32_t code = 0;   // kRefused: the StatusCode every rank ends with
  int32_t rank = -1;  // kMissing: the rank that did not answer
  int32_t first_thread = 0;
  int32_t total_threads = 0;
  int32_t unused = 0;
  uint64_t seed = 0;
};
static_assert(std::is_trivially_copyable_v<WelcomeHead> && sizeof(WelcomeHead) == 32);

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

Status SilentBeforeStart(const MpiPeers& p, int rank) {
  return Status::Unavailable(
      fmt::format("{} did not answer for {} s before the start (--mpi-timeout); no rank ran it",
                  RankName(p, rank), p.timeout_s));
}

// Rank `rank`'s error `s`, as rank 0 prints it for every rank.
Status NamedError(const MpiPeers& p, int rank, const Status& s) {
  return Status(s.code(), fmt::format("{}: {}", RankName(p, rank), s.message()), s.err());
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
    Status error = ready;
    const int missing = CollectVotes(failed, error);
    if (missing >= 0) return Abort(missing);
    if (failed != INT_MAX) {
      GoMessage go;
      go.word = GoMessage::kFailed;
      go.rank = failed;
      go.code = static_cast<int32_t>(error.code());
      for (int r = 1; r < p_.size; ++r) p_.link->Send(r, MpiTag::kGo, Bytes(go));
      p_.link->Flush(MonotonicNow() + kLastWordsGrace);
      MpiStartOutcome out;
      out.status = NamedError(p_, failed, error);
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

  // Waits for every rank's vote; the lowest failed rank goes to `failed`,
  // its error to `error`. Returns the first rank silent for the timeout, or
  // -1.
  int CollectVotes(int& failed, Status& error) {
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
        Status theirs = WordStatus(m->bytes);
        if (!theirs.ok() && m->from < failed) {
          failed = m->from;
          error = std::move(theirs);
        }
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
    out.status = SaidByRankZero(static_cast<StatusCode>(go.code));
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
  p.link->Send(0, MpiTag::kReady, StatusWord(ready));
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

// ---------------------------------------------------------------- The join

// A rank's JoinHello as bytes: its threads, its setup's code and errno,
// the lengths of its host and its setup's message, those two, its plan.
struct HelloHead {
  int32_t threads = 0;
  int32_t code = 0;
  int32_t err = 0;
  uint32_t host_bytes = 0;
  uint32_t message_bytes = 0;
};
static_assert(std::is_trivially_copyable_v<HelloHead> && sizeof(HelloHead) == 20);

std::string EncodeHello(const JoinHello& h) {
  HelloHead head;
  head.threads = h.threads;
  head.code = static_cast<int32_t>(h.setup.code());
  head.err = h.setup.err();
  head.host_bytes = static_cast<uint32_t>(h.host.size());
  head.message_bytes = static_cast<uint32_t>(h.setup.message().size());
  return Bytes(head) + h.host + h.setup.message() + EncodeRunPlan(h.plan);
}

Result<JoinHello> DecodeHello(const std::string& bytes) {
  const Status cut = Status::InvalidArgument("its word on joining was cut short");
  if (bytes.size() < sizeof(HelloHead)) return cut;
  const HelloHead head = *FromBytes<HelloHead>(bytes.substr(0, sizeof(HelloHead)));
  const size_t rest = bytes.size() - sizeof(HelloHead);
  if (head.host_bytes > rest || head.message_bytes > rest - head.host_bytes) return cut;
  JoinHello h;
  h.threads = head.threads;
  h.host = bytes.substr(sizeof(HelloHead), head.host_bytes);
  if (head.code != 0) {
    h.setup =
        Status(static_cast<StatusCode>(head.code),
               bytes.substr(sizeof(HelloHead) + head.host_bytes, head.message_bytes), head.err);
  }
  const size_t plan_at = sizeof(HelloHead) + head.host_bytes + head.message_bytes;
  LC_ASSIGN_OR_RETURN(h.plan, DecodeRunPlan(std::string_view(bytes).substr(plan_at)));
  return h;
}

std::vector<std::string> UnknownHosts(int size) { return std::vector<std::string>(size, "?"); }

// Rank 0's side of the join.
class RootJoin {
 public:
  RootJoin(const MpiPeers& p, const JoinHello& mine)
      : p_(p), timeout_(SecondsToNanos(p.timeout_s)), hellos_(p.size) {
    hellos_[0] = mine;
  }

  MpiJoinOutcome Run(uint64_t seed) {
    MpiJoinOutcome out;
    out.hosts = UnknownHosts(p_.size);
    std::string refusal;
    const int missing = Collect(refusal);
    if (missing >= 0) {
      Tell(
          [&](WelcomeHead& w) {
            w.word = WelcomeHead::kMissing;
            w.rank = missing;
          },
          missing);
      out.status = Status::Unavailable(fmt::format(
          "rank {} did not answer for {} s once MPI had started (--mpi-timeout); no rank ran it",
          missing, p_.timeout_s));
      out.missing = missing;
      return out;
    }
    std::vector<RunPlan> plans;
    for (int r = 0; r < p_.size; ++r) {
      out.hosts[r] = hellos_[r]->host;
      plans.push_back(hellos_[r]->plan);
    }
    for (int r = 0; r < p_.size; ++r) {
      const Status& setup = hellos_[r]->setup;
      if (setup.ok()) continue;
      Tell([&](WelcomeHead& w) {
        w.word = WelcomeHead::kRefused;
        w.code = static_cast<int32_t>(setup.code());
      });
      out.status =
          Status(setup.code(), fmt::format("{}: {}", WhoFailed(r, out.hosts[r]), setup.message()),
                 setup.err());
      return out;
    }
    if (refusal.empty()) refusal = ComparePlans(plans);
    if (!refusal.empty()) {
      Tell([](WelcomeHead& w) {
        w.word = WelcomeHead::kRefused;
        w.code = static_cast<int32_t>(StatusCode::kInvalidArgument);
      });
      out.status = Status::InvalidArgument(refusal);
      return out;
    }
    std::string hosts;
    for (const std::string& h : out.hosts) hosts += h + '\0';
    for (int r = 0; r < p_.size; ++r) {
      if (r > 0) {
        WelcomeHead w;
        w.first_thread = out.total_threads;
        w.seed = seed;
        // Filled in below, once every rank's threads are counted.
        heads_.push_back(w);
      }
      out.total_threads += hellos_[r]->threads;
    }
    for (int r = 1; r < p_.size; ++r) {
      heads_[r - 1].total_threads = out.total_threads;
      p_.link->Send(r, MpiTag::kWelcome, Bytes(heads_[r - 1]) + hosts);
    }
    out.seed = seed;
    return out;
  }

 private:
  // Waits for every rank's hello; a hello that cannot be read goes to
  // `refusal`. Returns the first rank silent for the timeout, or -1.
  int Collect(std::string& refusal) {
    const Nanos since = MonotonicNow();
    std::vector<Nanos> heard(p_.size, since);
    Nanos last_beat = since;
    for (int waiting = p_.size - 1; waiting > 0;) {
      const Nanos now = MonotonicNow();
      while (std::optional<MpiMessage> m = p_.link->Receive()) {
        heard[m->from] = now;
        if (m->tag != MpiTag::kHello || hellos_[m->from]) continue;
        Result<JoinHello> h = DecodeHello(m->bytes);
        if (!h.ok()) {
          if (refusal.empty()) refusal = fmt::format("rank {}: {}", m->from, h.status().message());
          h = JoinHello{"?", 0, {}, Status::Ok()};
        }
        hellos_[m->from] = std::move(h).value();
        --waiting;
      }
      if (waiting == 0) break;
      for (int r = 1; r < p_.size; ++r) {
        if (!hellos_[r] && now - heard[r] > timeout_) return r;
      }
      if (now - last_beat >= p_.beat_ns) {
        last_beat = now;
        for (int r = 1; r < p_.size; ++r) p_.link->Send(r, MpiTag::kBeat, {});
      }
      p_.link->Progress();
      PauseIfLong(since);
    }
    return -1;
  }

  // "rank 1 (host)", the lowest rank whose setup failed, or "every rank"
  // when each failed with the same error (a usage error, the same options).
  std::string WhoFailed(int lowest, const std::string& host) const {
    if (p_.size == 1) return fmt::format("rank {} ({})", lowest, host);
    const Status& first = hellos_[lowest]->setup;
    for (const std::optional<JoinHello>& h : hellos_) {
      if (h->setup.code() != first.code() || h->setup.message() != first.message()) {
        return fmt::format("rank {} ({})", lowest, host);
      }
    }
    return "every rank";
  }

  // Sends every rank but `except` a welcome `fill` writes, and waits a
  // moment for the words to go out (the process ends next).
  template <typename Fill>
  void Tell(const Fill& fill, int except = -1) {
    WelcomeHead w;
    fill(w);
    for (int r = 1; r < p_.size; ++r) {
      if (r != except) p_.link->Send(r, MpiTag::kWelcome, Bytes(w));
    }
    p_.link->Flush(MonotonicNow() + kLastWordsGrace);
  }

  const MpiPeers& p_;
  const Nanos timeout_;
  std::vector<std::optional<JoinHello>> hellos_;
  std::vector<WelcomeHead> heads_;
};

// What a rank other than 0 makes of rank 0's welcome.
MpiJoinOutcome TakeWelcome(const MpiPeers& p, const std::string& bytes) {
  MpiJoinOutcome out;
  out.hosts = UnknownHosts(p.size);
  const std::optional<WelcomeHead> w =
      bytes.size() < sizeof(WelcomeHead)
          ? std::nullopt
          : FromBytes<WelcomeHead>(bytes.substr(0, sizeof(WelcomeHead)));
  if (!w) {
    out.status = Status::Internal("rank 0's word on joining could not be read");
    return out;
  }
  if (w->word == WelcomeHead::kRefused) {
    out.status = SaidByRankZero(static_cast<StatusCode>(w->code));
    return out;
  }
  if (w->word == WelcomeHead::kMissing) {
    out.status = SaidByRankZero(StatusCode::kUnavailable);
    out.missing = w->rank;
    return out;
  }
  out.hosts.clear();
  for (size_t at = sizeof(WelcomeHead); at < bytes.size();) {
    const size_t end = bytes.find('\0', at);
    if (end == std::string::npos) break;
    out.hosts.push_back(bytes.substr(at, end - at));
    at = end + 1;
  }
  if (static_cast<int>(out.hosts.size()) != p.size) {
    out.hosts = UnknownHosts(p.size);
    out.status = Status::Internal("rank 0's word on joining could not be read");
    return out;
  }
  out.first_thread = w->first_thread;
  out.total_threads = w->total_threads;
  out.seed = w->seed;
  return out;
}

MpiJoinOutcome RankJoin(const MpiPeers& p, const JoinHello& mine) {
  p.link->Send(0, MpiTag::kHello, EncodeHello(mine));
  const Nanos timeout = SecondsToNanos(p.timeout_s);
  const Nanos since = MonotonicNow();
  Nanos heard = since;
  for (;;) {
    const Nanos now = MonotonicNow();
    while (std::optional<MpiMessage> m = p.link->Receive(0)) {
      heard = now;
      if (m->tag == MpiTag::kWelcome) return TakeWelcome(p, m->bytes);
    }
    if (now - heard > timeout) {
      MpiJoinOutcome out;
      out.hosts = UnknownHosts(p.size);
      out.status = Status::Unavailable(fmt::format(
          "rank 0 did not answer for {} s once MPI had started (--mpi-timeout); no rank ran it",
          p.timeout_s));
      out.missing = 0;
      return out;
    }
    p.link->Progress();
    PauseIfLong(since);
  }
}

}  // namespace

std::string RankName(const MpiPeers& p, int rank) {
  return fmt::format("rank {} ({})", rank, (*p.hosts)[rank]);
}

std::string StatusWord(const Status& s) {
  if (s.ok()) return std::string(1, '\1');
  return std::string(1, '\0') + Bytes<int32_t>(static_cast<int32_t>(s.code())) +
         Bytes<int32_t>(s.err()) + s.message();
}

Status WordStatus(const std::string& word) {
  if (word == "\1") return Status::Ok();
  constexpr size_t kHead = 1 + 2 * sizeof(int32_t);
  if (word.size() < kHead || word[0] != '\0') {
    return Status::Internal("a rank's word on its outcome could not be read");
  }
  const auto code = FromBytes<int32_t>(word.substr(1, sizeof(int32_t)));
  const auto err = FromBytes<int32_t>(word.substr(1 + sizeof(int32_t), sizeof(int32_t)));
  return Status(static_cast<StatusCode>(*code), word.substr(kHead), *err);
}

Status SaidByRankZero(StatusCode code) { return Status(code, ""); }

MpiJoinOutcome JoinTogether(const MpiPeers& peers, const JoinHello& mine, uint64_t seed) {
  if (peers.rank == 0) return RootJoin(peers, mine).Run(seed);
  return RankJoin(peers, mine);
}

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
          fmt::format("{} could not {} (its error is above)", RankName(p, 0), what));
    }
    if (now - heard > timeout) {
      *missing_root = true;
      return Status::Unavailable(
          fmt::format("{} did not answer for {} s (--mpi-timeout) while it was to {}",
                      RankName(p, 0), p.timeout_s, what));
    }
    p.link->Progress();
    SleepUntilMonotonic(now + kWorkPause);
  }
}

}  // namespace loadcell
