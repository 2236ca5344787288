#include "cluster/mpi_agree.h"

#include <fmt/format.h>

#include <atomic>
#include <climits>
#include <cstring>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include "cluster/mpi_link.h"
#include "core/clock.h"
#include "runner/schedule.h"

namespace loadcell {
namespace {

// How long the control thread sleeps between looks while the parts run (a
// prepare may take minutes: no need to look more often).
constexpr Nanos kVotePause = 10 * kNanosPerMilli;

// Rank 0's word on the vote (MpiTag::kAgreed), followed by the failed
// rank's StatusWord for kFailed.
struct AgreedHead {
  enum Word : int32_t { kAllOk = 0, kFailed = 1, kMissing = 2 };
  int32_t word = kAllOk;
  int32_t rank = -1;  // the failed or missing rank
};
static_assert(std::is_trivially_copyable_v<AgreedHead> && sizeof(AgreedHead) == 8);

std::string AgreedWord(const AgreedHead& head, const Status& error) {
  std::string out(sizeof(head), '\0');
  std::memcpy(out.data(), &head, sizeof(head));
  if (head.word == AgreedHead::kFailed) out += StatusWord(error);
  return out;
}

// Runs `work` on a thread of its own and calls `look` on this one until it
// is done: the control thread keeps answering and beating meanwhile.
Status WorkWhileLooking(const std::function<Status()>& work,
                        const std::function<void(Nanos)>& look) {
  Status result;
  std::atomic<bool> done{false};
  std::thread worker([&] {
    result = work();
    done.store(true, std::memory_order_release);
  });
  while (!done.load(std::memory_order_acquire)) {
    const Nanos now = MonotonicNow();
    look(now);
    SleepUntilMonotonic(now + kVotePause);
  }
  worker.join();
  return result;
}

Status SilentDuring(const MpiPeers& p, int rank, const std::string& what) {
  return Status::Unavailable(
      fmt::format("{} did not answer for {} s (--mpi-timeout) while the ranks were to {}; every "
                  "rank stopped",
                  RankName(p, rank), p.timeout_s, what));
}

Status NamedFailure(const MpiPeers& p, int rank, const Status& s) {
  return Status(s.code(), fmt::format("{}: {}", RankName(p, rank), s.message()), s.err());
}

// Rank 0's side: its own part, the votes, the outcome to every rank.
class RootVote {
 public:
  explicit RootVote(const MpiPeers& p)
      : p_(p),
        timeout_(SecondsToNanos(p.timeout_s)),
        heard_(p.size, MonotonicNow()),
        votes_(p.size) {}

  MpiAgreeOutcome Run(const std::function<Status()>& work, const std::string& what) {
    const Status mine = WorkWhileLooking(work, [&](Nanos now) { Look(now); });
    for (;;) {
      const Nanos now = MonotonicNow();
      Look(now);
      if (missing_ >= 0 || Waiting() == 0) break;
      SleepUntilMonotonic(now + kVotePause);
    }
    MpiAgreeOutcome out;
    AgreedHead head;
    Status error;
    if (missing_ >= 0) {
      head.word = AgreedHead::kMissing;
      head.rank = missing_;
      out.status = SilentDuring(p_, missing_, what);
      out.missing = missing_;
    } else {
      votes_[0] = mine;
      for (int r = 0; r < p_.size; ++r) {
        if (votes_[r]->ok()) continue;
        head.word = AgreedHead::kFailed;
        head.rank = r;
        error = *votes_[r];
        out.status = r == 0 ? mine : NamedFailure(p_, r, error);
        break;
      }
    }
    const std::string word = AgreedWord(head, error);
    for (int r = 1; r < p_.size; ++r) {
      if (r != missing_) p_.link->Send(r, MpiTag::kAgreed, word);
    }
    p_.link->Flush(MonotonicNow() + kLastWordsGrace);
    return out;
  }

 private:
  int Waiting() const {
    int n = 0;
    for (int r = 1; r < p_.size; ++r) n += votes_[r] ? 0 : 1;
    return n;
  }

  // Reads the votes and beats that came, notes the first rank silent for
  // the timeout, says rank 0 is still there.
  void Look(Nanos now) {
    while (std::optional<MpiMessage> m = p_.link->Receive()) {
      heard_[m->from] = now;
      if (m->tag == MpiTag::kVote && !votes_[m->from]) votes_[m->from] = WordStatus(m->bytes);
    }
    for (int r = 1; r < p_.size && missing_ < 0; ++r) {
      if (!votes_[r] && now - heard_[r] > timeout_) missing_ = r;
    }
    if (now - last_beat_ >= p_.beat_ns) {
      last_beat_ = now;
      for (int r = 1; r < p_.size; ++r) p_.link->Send(r, MpiTag::kBeat, {});
    }
    p_.link->Progress();
  }

  const MpiPeers& p_;
  const Nanos timeout_;
  std::vector<Nanos> heard_;
  std::vector<std::optional<Status>> votes_;
  int missing_ = -1;
  Nanos last_beat_ = 0;
};

// The side of every other rank: its own part while beating, its vote, then
// rank 0's word.
MpiAgreeOutcome RankVote(const MpiPeers& p, const std::function<Status()>& work,
                         const std::string& what) {
  const Nanos timeout = SecondsToNanos(p.timeout_s);
  Nanos heard = MonotonicNow();
  Nanos last_beat = 0;
  std::optional<std::string> agreed;
  auto look = [&](Nanos now) {
    while (std::optional<MpiMessage> m = p.link->Receive(0)) {
      heard = now;
      if (m->tag == MpiTag::kAgreed && !agreed) agreed = std::move(m->bytes);
    }
    if (now - last_beat >= p.beat_ns) {
      last_beat = now;
      p.link->Send(0, MpiTag::kBeat, {});
    }
    p.link->Progress();
  };
  const Status mine = WorkWhileLooking(work, look);
  p.link->Send(0, MpiTag::kVote, StatusWord(mine));
  MpiAgreeOutcome out;
  for (;;) {
    const Nanos now = MonotonicNow();
    look(now);
    if (agreed) break;
    if (now - heard > timeout) {
      out.status = mine.ok() ? SilentDuring(p, 0, what) : mine;
      out.missing = 0;
      return out;
    }
    SleepUntilMonotonic(now + kVotePause);
  }
  AgreedHead head;
  if (agreed->size() < sizeof(head)) {
    out.status = Status::Internal("rank 0's word on the vote could not be read");
    return out;
  }
  std::memcpy(&head, agreed->data(), sizeof(head));
  if (head.word == AgreedHead::kMissing && head.rank > 0 && head.rank < p.size) {
    out.status = mine.ok() ? SilentDuring(p, head.rank, what) : mine;
    out.missing = head.rank;
  } else if (head.word == AgreedHead::kFailed && head.rank >= 0 && head.rank < p.size) {
    out.status = head.rank == p.rank
                     ? mine
                     : NamedFailure(p, head.rank, WordStatus(agreed->substr(sizeof(head))));
  } else if (head.word != AgreedHead::kAllOk) {
    out.status = Status::Internal("rank 0's word on the vote could not be read");
  }
  return out;
}

}  // namespace

MpiAgreeOutcome AgreeTogether(const MpiPeers& peers, const std::function<Status()>& work,
                              const std::string& what) {
  if (peers.rank == 0) return RootVote(peers).Run(work, what);
  return RankVote(peers, work, what);
}

std::vector<std::string> GatherTogether(const MpiPeers& p, const std::string& mine) {
  const Nanos timeout = SecondsToNanos(p.timeout_s);
  if (p.rank != 0) {
    p.link->Send(0, MpiTag::kGather, mine);
    p.link->Flush(MonotonicNow() + timeout);
    return {};
  }
  std::vector<std::optional<std::string>> parts(p.size);
  parts[0] = mine;
  std::vector<Nanos> heard(p.size, MonotonicNow());
  for (;;) {
    const Nanos now = MonotonicNow();
    while (std::optional<MpiMessage> m = p.link->Receive()) {
      heard[m->from] = now;
      if (m->tag == MpiTag::kGather && !parts[m->from]) parts[m->from] = std::move(m->bytes);
    }
    bool waiting = false;
    for (int r = 1; r < p.size; ++r) waiting = waiting || (!parts[r] && now - heard[r] <= timeout);
    if (!waiting) break;
    p.link->Progress();
    SleepUntilMonotonic(now + kVotePause);
  }
  std::vector<std::string> out;
  out.reserve(parts.size());
  for (std::optional<std::string>& part : parts) out.push_back(part.value_or(""));
  return out;
}

}  // namespace loadcell
