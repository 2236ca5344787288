#include "cluster/mpi_link.h"

#include <time.h>

namespace loadcell {

namespace {
// Long enough not to spin, short enough that a message waited for is seen
// within a millisecond.
constexpr Nanos kPause = 500 * kNanosPerMicro;
}  // namespace

void SleepUntilMonotonic(Nanos at) {
  timespec ts{static_cast<time_t>(at / kNanosPerSecond), static_cast<long>(at % kNanosPerSecond)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

void PauseBetweenLooks() { SleepUntilMonotonic(MonotonicNow() + kPause); }

void MpiLink::Send(int to, MpiTag tag, std::string bytes) {
  pending_.push_back({std::move(bytes), nullptr});
  Pending& p = pending_.back();
  mpi_.MPI_Isend(p.bytes.data(), static_cast<int>(p.bytes.size()), mpi_.byte, to,
                 static_cast<int>(tag), mpi_.comm_world, &p.request);
  Progress();
}

std::optional<MpiMessage> MpiLink::Receive(int from) {
  int arrived = 0;
  MPI_Status status;
  mpi_.MPI_Iprobe(from == kAnySource ? mpi_.any_source : from, MPI_ANY_TAG, mpi_.comm_world,
                  &arrived, &status);
  if (arrived == 0) return std::nullopt;
  int count = 0;
  mpi_.MPI_Get_count(&status, mpi_.byte, &count);
  MpiMessage m;
  m.from = status.MPI_SOURCE;
  m.tag = static_cast<MpiTag>(status.MPI_TAG);
  m.bytes.resize(static_cast<size_t>(count > 0 ? count : 0));
  // The probed message itself: same source and tag, and messages between two
  // ranks do not overtake each other.
  mpi_.MPI_Recv(m.bytes.data(), count, mpi_.byte, status.MPI_SOURCE, status.MPI_TAG,
                mpi_.comm_world, MPI_STATUS_IGNORE);
  return m;
}

bool MpiLink::Progress() {
  while (!pending_.empty()) {
    int done = 0;
    mpi_.MPI_Test(&pending_.front().request, &done, MPI_STATUS_IGNORE);
    if (done == 0) break;
    pending_.pop_front();
  }
  // Later sends may have completed before the first: test them too, but a
  // deque only drops from the front, so they wait there until it goes.
  return pending_.empty();
}

bool MpiLink::Flush(Nanos deadline) {
  while (!Progress()) {
    if (MonotonicNow() >= deadline) return false;
    PauseBetweenLooks();
  }
  return true;
}

}  // namespace loadcell
