#include "cluster/mpi_cluster.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "cluster/merge.h"
#include "cluster/mpi_api.h"
#include "cluster/result_codec.h"
#include "core/clock.h"
#include "runner/schedule.h"

namespace loadcell {
namespace {

// Ping-pongs per rank for the clock offset; the one with the shortest round
// trip is kept (its midpoint estimate is the tightest).
constexpr int kOffsetRounds = 8;
// How far ahead of rank 0's clock the common start is set: enough for the
// broadcast to reach every rank first.
constexpr Nanos kStartLead = 50 * kNanosPerMilli;
// How often a rank waiting in a collective looks whether it completed. The
// wait sleeps in between: a rank that finished early must not spin on a CPU
// that the ranks still running need.
constexpr Nanos kPollSleep = 200 * kNanosPerMicro;
constexpr int kTagClock = 1;
constexpr size_t kHostBytes = 256;

void SleepUntil(Nanos at) {
  timespec ts{static_cast<time_t>(at / kNanosPerSecond), static_cast<long>(at % kNanosPerSecond)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) != 0) {
  }
}

std::string HostName() {
  char buf[kHostBytes] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "?";
  return buf;
}

class MpiCluster final : public Cluster {
 public:
  explicit MpiCluster(const MpiApi& mpi) : mpi_(mpi) {}
  MpiCluster(const MpiCluster&) = delete;
  MpiCluster& operator=(const MpiCluster&) = delete;
  ~MpiCluster() override {
    int finalized = 1;
    mpi_.MPI_Finalized(&finalized);
    if (finalized == 0) mpi_.MPI_Finalize();
  }

  void Init() {
    int provided = 0;
    mpi_.MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    mpi_.MPI_Comm_rank(mpi_.comm_world, &rank_);
    mpi_.MPI_Comm_size(mpi_.comm_world, &size_);
    host_ = HostName();
    GatherHosts();
  }

  int Rank() const override { return rank_; }
  int Size() const override { return size_; }
  const std::string& Host() const override { return host_; }

  Status Start(const Status& ready) override;
  void Finish(RunResult& result) override;

 private:
  // Waits for `req` to complete, sleeping between looks.
  void Wait(MPI_Request& req) const;
  void GatherHosts();
  // The lowest rank whose `ok` was false, or INT_MAX when every one's was true.
  int FirstFailed(bool ok) const;
  void MeasureClockOffset();
  void WaitCommonStart() const;
  // Every rank's bytes at rank 0 (in rank order); empty elsewhere.
  std::vector<std::string> GatherToRoot(const std::string& mine) const;
  void MergeAtRoot(const std::vector<std::string>& blobs, RunResult& result) const;

  const MpiApi& mpi_;
  int rank_ = 0;
  int size_ = 1;
  std::string host_;
  std::vector<std::string> hosts_;
  Nanos offset_ns_ = 0;      // rank 0's clock minus this rank's
  Nanos round_trip_ns_ = 0;  // of the ping-pong that measured it
};

void MpiCluster::Wait(MPI_Request& req) const {
  for (;;) {
    int done = 0;
    mpi_.MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done != 0) return;
    SleepUntil(MonotonicNow() + kPollSleep);
  }
}

void MpiCluster::GatherHosts() {
  std::string mine(kHostBytes, '\0');
  std::memcpy(mine.data(), host_.data(), std::min(host_.size(), kHostBytes - 1));
  std::string all(kHostBytes * static_cast<size_t>(size_), '\0');
  mpi_.MPI_Allgather(mine.data(), static_cast<int>(kHostBytes), mpi_.byte, all.data(),
                     static_cast<int>(kHostBytes), mpi_.byte, mpi_.comm_world);
  for (int r = 0; r < size_; ++r) hosts_.emplace_back(all.c_str() + kHostBytes * r);
}

int MpiCluster::FirstFailed(bool ok) const {
  int mine = ok ? INT_MAX : rank_;
  int first = INT_MAX;
  MPI_Request req;
  mpi_.MPI_Iallreduce(&mine, &first, 1, mpi_.int_type, mpi_.op_min, mpi_.comm_world, &req);
  Wait(req);
  return first;
}

Status MpiCluster::Start(const Status& ready) {
  const int failed = FirstFailed(ready.ok());
  if (!ready.ok()) return ready;
  if (failed != INT_MAX) {
    return Status::Unavailable("rank " + std::to_string(failed) + " (" + hosts_[failed] +
                               ") could not start the run (its error is above); no rank ran it");
  }
  MeasureClockOffset();
  WaitCommonStart();
  return Status::Ok();
}

// Rank r sends its clock, rank 0 answers with its own; rank 0's reading
// lies between r's send and receive, so offset = t0 - (t1 + t2) / 2 is off
// by at most half the round trip t2 - t1.
void MpiCluster::MeasureClockOffset() {
  if (rank_ == 0) {
    for (int r = 1; r < size_; ++r) {
      for (int k = 0; k < kOffsetRounds; ++k) {
        Nanos t = 0;
        mpi_.MPI_Recv(&t, sizeof(t), mpi_.byte, r, kTagClock, mpi_.comm_world, MPI_STATUS_IGNORE);
        t = MonotonicNow();
        mpi_.MPI_Send(&t, sizeof(t), mpi_.byte, r, kTagClock, mpi_.comm_world);
      }
    }
    return;
  }
  round_trip_ns_ = -1;
  for (int k = 0; k < kOffsetRounds; ++k) {
    const Nanos t1 = MonotonicNow();
    Nanos t0 = t1;
    mpi_.MPI_Send(&t0, sizeof(t0), mpi_.byte, 0, kTagClock, mpi_.comm_world);
    mpi_.MPI_Recv(&t0, sizeof(t0), mpi_.byte, 0, kTagClock, mpi_.comm_world, MPI_STATUS_IGNORE);
    const Nanos t2 = MonotonicNow();
    if (round_trip_ns_ < 0 || t2 - t1 < round_trip_ns_) {
      round_trip_ns_ = t2 - t1;
      offset_ns_ = t0 - (t1 + (t2 - t1) / 2);
    }
  }
}

// Rank 0 names a moment on its clock; each rank sleeps until that moment on
// its own (its clock plus the offset), so the threads of every rank are
// released together within the offsets' error.
void MpiCluster::WaitCommonStart() const {
  Nanos start = rank_ == 0 ? MonotonicNow() + kStartLead : 0;
  MPI_Request req;
  mpi_.MPI_Ibcast(&start, sizeof(start), mpi_.byte, 0, mpi_.comm_world, &req);
  Wait(req);
  const Nanos mine = start - offset_ns_;
  if (mine > MonotonicNow()) SleepUntil(mine);
}

std::vector<std::string> MpiCluster::GatherToRoot(const std::string& mine) const {
  const int n = static_cast<int>(mine.size());
  std::vector<int> sizes(rank_ == 0 ? size_ : 0);
  mpi_.MPI_Gather(&n, 1, mpi_.int_type, sizes.data(), 1, mpi_.int_type, 0, mpi_.comm_world);
  std::vector<int> displs(sizes.size());
  int total = 0;
  for (size_t r = 0; r < sizes.size(); ++r) {
    displs[r] = total;
    total += sizes[r];
  }
  std::string all(static_cast<size_t>(total), '\0');
  mpi_.MPI_Gatherv(mine.data(), n, mpi_.byte, all.data(), sizes.data(), displs.data(), mpi_.byte, 0,
                   mpi_.comm_world);
  std::vector<std::string> out;
  for (size_t r = 0; r < sizes.size(); ++r) out.push_back(all.substr(displs[r], sizes[r]));
  return out;
}

void MpiCluster::Finish(RunResult& result) {
  RankResult mine;
  mine.rank.rank = rank_;
  mine.rank.host = host_;
  mine.rank.threads = static_cast<int>(result.threads.size());
  mine.rank.clock_offset_s = NanosToSeconds(offset_ns_);
  mine.round_trip_s = NanosToSeconds(round_trip_ns_);
  mine.result = result;
  mine.result.window_start_ns += offset_ns_;  // on rank 0's clock
  mine.result.window_end_ns += offset_ns_;
  // Every rank ends its run first, without spinning while the others run.
  MPI_Request req;
  mpi_.MPI_Ibarrier(mpi_.comm_world, &req);
  Wait(req);
  const std::vector<std::string> blobs = GatherToRoot(EncodeRankResult(mine));
  if (rank_ == 0) MergeAtRoot(blobs, result);
}

void MpiCluster::MergeAtRoot(const std::vector<std::string>& blobs, RunResult& result) const {
  std::vector<RankResult> parts;
  for (const std::string& b : blobs) {
    Result<RankResult> part = DecodeRankResult(b);
    if (!part.ok()) {
      if (result.failure.ok()) result.failure = part.status();
      return;
    }
    parts.push_back(std::move(part).value());
  }
  Result<RunResult> merged = MergeRankResults(result, std::move(parts));
  if (!merged.ok()) {
    if (result.failure.ok()) result.failure = merged.status();
    return;
  }
  result = std::move(merged).value();
}

}  // namespace

Result<std::unique_ptr<Cluster>> MakeMpiCluster(const LaunchInfo& launch) {
  LC_RETURN_IF_ERROR(LoadMpi());
  auto cluster = std::make_unique<MpiCluster>(Mpi());
  cluster->Init();
  return std::unique_ptr<Cluster>(std::move(cluster));
}

}  // namespace loadcell
