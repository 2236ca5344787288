#pragma once
// Point-to-point messages between the ranks of an MPI run that never block:
// sends are started and completed later, receives look first whether a
// message has arrived (MPI_Iprobe). Everything the ranks say to each other
// while the run goes on and at its end passes here, so that a rank that
// stops answering can only make the others wait until a deadline, never
// forever. Used on the control thread only (MPI_THREAD_FUNNELED).

#include <deque>
#include <optional>
#include <string>

#include "cluster/mpi_api.h"
#include "core/clock.h"

namespace loadcell {

// What the ranks say to each other (the MPI tag of each message).
enum class MpiTag : int {
  kClock = 1,     // the clock-offset ping-pong (at the start)
  kBeat = 2,      // "still here": no content
  kInterval = 3,  // an encoded IntervalSnapshot, rank r to rank 0
  kResult = 4,    // an encoded RankResult, rank r to rank 0
  kStop = 5,      // rank 0 to every rank: stop the run now
  kVerdict = 6,   // rank 0 to rank r after the end: the ranks missing (0: none)
  kBye = 7,       // rank 0 to rank r: the report is out, leave
  kReady = 8,     // rank r to rank 0 before the start: ready (1) or not (0 and its error)
  kGo = 9,        // rank 0 to rank r: the start vote's outcome (mpi_start.cpp)
  kDone = 10,     // rank 0 to rank r: its work alone is done: ok (1) or not (0)
  kHello = 11,    // rank r to rank 0 once MPI started: its host, threads and plan
  kWelcome = 12,  // rank 0 to rank r: the hosts, threads and seed, or the refusal
  kVote = 13,     // rank r to rank 0: the outcome of its part (ProcessGroup::Agree)
  kAgreed = 14,   // rank 0 to rank r: the vote's outcome (mpi_agree.cpp)
  kResults = 15,  // encoded RankRuns, rank r to rank 0 (several runs that ended together)
  kGather = 16,   // rank r to rank 0: its part of Cluster::GatherOnRankZero
};

struct MpiMessage {
  int from = 0;
  MpiTag tag = MpiTag::kBeat;
  std::string bytes;
};

class MpiLink final {
 public:
  explicit MpiLink(const MpiApi& mpi) : mpi_(mpi) {}
  MpiLink(const MpiLink&) = delete;
  MpiLink& operator=(const MpiLink&) = delete;

  // Starts sending `bytes` to rank `to`; the link keeps them until the send
  // completed. Messages from one rank to another arrive in the order sent.
  void Send(int to, MpiTag tag, std::string bytes);
  // The next message that has arrived from `from` (kAnySource: any rank),
  // nullopt when none has. A message whose envelope arrived is read whole.
  // kAnySource is the link's own (MPI_ANY_SOURCE differs between the ABIs:
  // mpi_api.h).
  static constexpr int kAnySource = -1;
  std::optional<MpiMessage> Receive(int from = kAnySource);
  // Completes the sends that can be completed now; true when none is left.
  bool Progress();
  // Progresses the sends until none is left or `deadline` (monotonic) has
  // passed; true when none is left.
  bool Flush(Nanos deadline);

 private:
  struct Pending {
    std::string bytes;
    MPI_Request request = nullptr;
  };
  const MpiApi& mpi_;
  std::deque<Pending> pending_;  // a deque: the buffers must not move
};

// How long rank 0 tries to get its last words (the verdict, the bye) out
// with MpiLink::Flush.
inline constexpr Nanos kLastWordsGrace = kNanosPerSecond;

// Sleeps for a short while between two looks at the link: a rank that
// waits must not spin on a CPU that ranks still running need.
void PauseBetweenLooks();
void SleepUntilMonotonic(Nanos at);

}  // namespace loadcell
