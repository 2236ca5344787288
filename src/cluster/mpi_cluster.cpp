#include "cluster/mpi_cluster.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/merge.h"
#include "cluster/mpi_agree.h"
#include "cluster/mpi_api.h"
#include "cluster/mpi_link.h"
#include "cluster/mpi_start.h"
#include "cluster/result_codec.h"
#include "cluster/stonewall.h"
#include "core/clock.h"
#include "runner/schedule.h"
#include "runner/stop_signal.h"

namespace loadcell {
namespace {

// Set once this process' ranks have met (MpiRanksMet).
std::atomic<bool> g_ranks_met{false};

// How often a rank says it is still there (at most; a fraction of the
// timeout when that is short).
constexpr Nanos kBeatPeriod = 500 * kNanosPerMilli;
constexpr size_t kHostBytes = 256;

std::string HostName() {
  char buf[kHostBytes] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "?";
  return buf;
}

// A seed from the clock, as the runner picks one, within --rand-seed's
// range: rank 0's is every rank's (JoinTogether).
uint64_t NewSeed() {
  uint64_t seed =
      (static_cast<uint64_t>(MonotonicNow()) ^ (static_cast<uint64_t>(getpid()) << 32)) &
      0x7fffffffffffffffULL;
  return seed == 0 ? 1 : seed;
}

// The key of an interval: its end in microseconds from the measured start.
// Every rank's ticker counts the same nanoseconds from its common start, so
// the k-th interval of every rank has the same key.
int64_t IntervalKey(const IntervalSnapshot& iv) { return std::llround(iv.t_end_s * 1e6); }

// The intervals of one tick as they arrive, one slot per rank.
struct PendingInterval {
  Nanos first_seen = 0;
  std::vector<std::optional<IntervalSnapshot>> parts;
};

class MpiCluster final : public Cluster {
 public:
  MpiCluster(const MpiApi& mpi, const ClusterSettings& settings)
      : mpi_(mpi),
        settings_(settings),
        timeout_ns_(SecondsToNanos(settings.timeout_s)),
        beat_ns_(std::min(kBeatPeriod, timeout_ns_ / 4)),
        link_(mpi) {}
  MpiCluster(const MpiCluster&) = delete;
  MpiCluster& operator=(const MpiCluster&) = delete;
  ~MpiCluster() override;

  // kUnavailable when MPI's size is not the launcher's (`launch.size`, when
  // known): a library of another MPI than the launcher's.
  Status Init(const LaunchInfo& launch);

  int Rank() const override { return rank_; }
  int Size() const override { return size_; }
  const std::string& Host() const override { return host_; }
  int HostCount() const override { return host_count_; }
  int TotalThreads() const override { return total_threads_; }
  int FirstThread() const override { return first_thread_; }
  uint64_t CommonSeed() const override { return common_seed_; }
  Status Agree(const std::function<Status()>& work, const std::string& what) override;

  Status Start(const Status& ready) override;
  Status OnRankZero(const std::function<Status()>& work, const std::string& what) override;
  std::vector<std::string> GatherOnRankZero(const std::string& mine) override {
    return GatherTogether(Peers(), mine);
  }
  void Poll(Nanos now, CoordinatorNews& news) override;
  bool ShareInterval(const IntervalSnapshot& interval) override;
  void Finish(RunResult& result) override;
  void FinishRuns(const std::vector<RunResult*>& results) override;

 private:
  // ---- The start (mpi_start.h: every exchange with a deadline)
  MpiPeers Peers();
  // Rank `missing` did not answer: the process ends without MPI_Finalize.
  void Abandon(int missing);

  // ---- Rank 0 during and after the run
  void PumpAtRoot(Nanos now);
  void TakeResultAtRoot(int from, MpiTag tag, const std::string& bytes);
  // Tells every other rank to stop (once) and notes that this one must.
  void StopAll();
  void BeatIfDue(Nanos now);
  // The merged intervals due: complete ones (every rank's part there, or the
  // rank finished or missing) in order, stale ones (older than the timeout)
  // with the parts there are, and every one when `all`.
  void TakeDueIntervals(Nanos now, bool all, std::vector<IntervalSnapshot>& out);
  // Waits until every rank's result arrived or it was silent for the timeout.
  void WaitForRanks();
  // Finish (`runs` false: one run, its intervals shared as it went) or
  // FinishRuns (`runs`: each run's intervals with its result).
  void FinishAll(const std::vector<RunResult*>& results, bool runs);
  void MergeAtRoot(const std::vector<RunResult*>& results, bool runs);
  // The one run of Finish: its late intervals, the stonewall.
  void MergeOneAtRoot(RunResult& result, const std::vector<RankResult>& parts);
  // Run `i` of several (FinishRuns): every rank's merged, and its intervals
  // merged tick by tick (the k-th of every rank's).
  void MergeRunAtRoot(size_t i, RunResult& result, std::vector<RankResult> parts);
  std::string MissingRanks() const;

  // ---- The other ranks
  // Reads rank 0's messages; a stop sets news->stop (when given).
  void PumpFromRoot(Nanos now, CoordinatorNews* news);
  // After sending its result: waits for rank 0's verdict. False when rank 0
  // was silent for the timeout.
  bool WaitForVerdict();
  RankResult Mine(const RunResult& result) const;

  const MpiApi& mpi_;
  const ClusterSettings settings_;
  const Nanos timeout_ns_;
  const Nanos beat_ns_;
  MpiLink link_;
  int rank_ = 0;
  int size_ = 1;
  std::string host_;
  std::vector<std::string> hosts_;
  int host_count_ = 1;
  int first_thread_ = 0;
  int total_threads_ = 0;
  uint64_t common_seed_ = 0;
  Nanos offset_ns_ = 0;      // rank 0's clock minus this rank's
  Nanos round_trip_ns_ = 0;  // of the ping-pong that measured it
  Nanos last_beat_ = 0;
  // A rank is missing: MPI_Finalize would wait for it, so the process ends
  // without it (mpirun then ends the missing rank).
  bool abandon_ = false;
  bool stop_ = false;  // this rank was told to stop (or, at rank 0, told everyone)

  // Rank 0 only.
  std::vector<Nanos> heard_;  // when each rank's last message came
  // Each rank's runs once they arrived (one for Finish; FinishRuns' several,
  // with their intervals).
  std::vector<std::optional<std::vector<RankRun>>> results_;
  std::vector<bool> missing_;
  std::map<int64_t, PendingInterval> intervals_;  // by IntervalKey
  std::vector<Status> bad_messages_;              // undecodable results or intervals

  // The other ranks only.
  Nanos heard_root_ = 0;
  int verdict_missing_ = -1;  // rank 0's verdict: how many ranks are missing (-1: none yet)
};

// MPI lasts until the process exits (StartMpiOnce): another run of this
// process may have a cluster too. Unless a rank is missing.
MpiCluster::~MpiCluster() {
  if (abandon_) {
    AbandonMpi();
    if (rank_ == 0) {
      // The report is out: the ranks waiting for it may leave.
      for (int r = 1; r < size_; ++r) {
        if (!missing_[r]) link_.Send(r, MpiTag::kBye, {});
      }
      link_.Flush(MonotonicNow() + kLastWordsGrace);
    } else if (verdict_missing_ > 0) {
      for (const Nanos deadline = MonotonicNow() + timeout_ns_; MonotonicNow() < deadline;) {
        std::optional<MpiMessage> m = link_.Receive(0);
        if (m && m->tag == MpiTag::kBye) break;
        if (!m) PauseBetweenLooks();
      }
    }
  }
}

Status MpiCluster::Init(const LaunchInfo& launch) {
  StartMpiOnce(settings_.timeout_s, launch);
  mpi_.MPI_Comm_rank(mpi_.comm_world, &rank_);
  mpi_.MPI_Comm_size(mpi_.comm_world, &size_);
  if (launch.size > 0 && size_ != launch.size) {
    return Status::Unavailable(
        fmt::format("{} started {} rank(s) where the {} launcher's environment says {}: the "
                    "library is not of the launcher's MPI, or the environment not this run's",
                    mpi_.library, size_, launch.launcher, launch.size));
  }
  host_ = HostName();
  JoinHello hello;
  hello.host = host_;
  hello.threads = settings_.threads;
  hello.plan = settings_.plan;
  hello.setup = settings_.setup;
  g_ranks_met.store(true);
  MpiJoinOutcome joined = JoinTogether(Peers(), hello, NewSeed());
  // A rank is missing: MPI_Finalize would wait for it.
  if (joined.missing >= 0) AbandonMpi();
  hosts_ = std::move(joined.hosts);
  if (!joined.status.ok()) return joined.status;
  host_count_ = static_cast<int>(std::set<std::string>(hosts_.begin(), hosts_.end()).size());
  first_thread_ = joined.first_thread;
  total_threads_ = joined.total_threads;
  common_seed_ = joined.seed;
  if (rank_ == 0) {
    heard_.assign(size_, 0);
    results_.resize(size_);
    missing_.assign(size_, false);
  }
  return Status::Ok();
}

// ---------------------------------------------------------------- Start

MpiPeers MpiCluster::Peers() {
  MpiPeers p;
  p.link = &link_;
  p.rank = rank_;
  p.size = size_;
  p.hosts = &hosts_;
  p.timeout_s = settings_.timeout_s;
  p.beat_ns = beat_ns_;
  return p;
}

void MpiCluster::Abandon(int missing) {
  abandon_ = true;
  if (rank_ == 0) {
    missing_[missing] = true;
  } else if (missing != 0) {
    verdict_missing_ = 1;  // rank 0 says bye once its error is out
  }
}

Status MpiCluster::Agree(const std::function<Status()>& work, const std::string& what) {
  MpiAgreeOutcome agreed = AgreeTogether(Peers(), work, what);
  if (agreed.missing >= 0) Abandon(agreed.missing);
  return agreed.status;
}

Status MpiCluster::Start(const Status& ready) {
  const MpiStartOutcome start = StartTogether(Peers(), ready);
  offset_ns_ = start.offset_ns;
  round_trip_ns_ = start.round_trip_ns;
  if (start.missing >= 0) Abandon(start.missing);
  if (!start.status.ok()) return start.status;
  const Nanos now = MonotonicNow();
  last_beat_ = now;
  heard_root_ = now;
  std::fill(heard_.begin(), heard_.end(), now);
  return Status::Ok();
}

Status MpiCluster::OnRankZero(const std::function<Status()>& work, const std::string& what) {
  bool missing_root = false;
  Status s = RunOnRankZero(Peers(), work, what, &missing_root);
  if (missing_root) abandon_ = true;
  return s;
}

// ---------------------------------------------------------------- During the run

void MpiCluster::Poll(Nanos now, CoordinatorNews& news) {
  if (rank_ != 0) {
    PumpFromRoot(now, &news);
    if (now - last_beat_ >= beat_ns_) {
      link_.Send(0, MpiTag::kBeat, {});
      last_beat_ = now;
    }
    link_.Progress();
    return;
  }
  PumpAtRoot(now);
  // A stop signal that reached rank 0 alone stops every rank too.
  if (StopRequested()) StopAll();
  BeatIfDue(now);
  TakeDueIntervals(now, /*all=*/false, news.intervals);
  news.stop = stop_;
  link_.Progress();
}

bool MpiCluster::ShareInterval(const IntervalSnapshot& interval) {
  if (rank_ != 0) {
    link_.Send(0, MpiTag::kInterval, EncodeInterval(interval));
    last_beat_ = MonotonicNow();
    return false;
  }
  PendingInterval& p = intervals_[IntervalKey(interval)];
  if (p.parts.empty()) {
    p.first_seen = MonotonicNow();
    p.parts.resize(size_);
  }
  p.parts[0] = interval;
  return false;
}

void MpiCluster::PumpAtRoot(Nanos now) {
  while (std::optional<MpiMessage> m = link_.Receive()) {
    heard_[m->from] = now;
    if (m->tag == MpiTag::kResult || m->tag == MpiTag::kResults) {
      TakeResultAtRoot(m->from, m->tag, m->bytes);
    } else if (m->tag == MpiTag::kInterval) {
      Result<IntervalSnapshot> iv = DecodeInterval(m->bytes);
      if (!iv.ok()) {
        bad_messages_.push_back(iv.status());
        continue;
      }
      PendingInterval& p = intervals_[IntervalKey(*iv)];
      if (p.parts.empty()) {
        p.first_seen = now;
        p.parts.resize(size_);
      }
      p.parts[m->from] = std::move(iv).value();
    }
  }
}

// A rank that failed or was interrupted stops every rank; under a stonewall
// so does the first to end at all.
void MpiCluster::TakeResultAtRoot(int from, MpiTag tag, const std::string& bytes) {
  Result<std::vector<RankRun>> runs = std::vector<RankRun>(1);
  if (tag == MpiTag::kResults) {
    runs = DecodeRankRuns(bytes);
  } else if (Result<RankResult> one = DecodeRankResult(bytes); one.ok()) {
    runs->front().result = std::move(one).value();
  } else {
    runs = one.status();
  }
  if (!runs.ok()) {
    bad_messages_.push_back(runs.status());
    missing_[from] = true;  // its figures are lost; do not wait for it
    StopAll();
    return;
  }
  bool stop = settings_.stonewall;
  for (const RankRun& run : *runs) {
    const RunResult& x = run.result.result;
    stop = stop || !x.failure.ok() || x.interrupted;
  }
  if (stop) StopAll();
  results_[from] = std::move(runs).value();
}

void MpiCluster::StopAll() {
  if (stop_) return;
  stop_ = true;
  for (int r = 1; r < size_; ++r) {
    if (!results_[r] && !missing_[r]) link_.Send(r, MpiTag::kStop, {});
  }
}

void MpiCluster::BeatIfDue(Nanos now) {
  if (now - last_beat_ < beat_ns_) return;
  last_beat_ = now;
  for (int r = 1; r < size_; ++r) {
    if (!missing_[r]) link_.Send(r, MpiTag::kBeat, {});
  }
}

void MpiCluster::TakeDueIntervals(Nanos now, bool all, std::vector<IntervalSnapshot>& out) {
  while (!intervals_.empty()) {
    PendingInterval& p = intervals_.begin()->second;
    bool complete = true;
    for (int r = 0; r < size_ && complete; ++r) {
      complete = p.parts[r] || results_[r] || missing_[r];
    }
    if (!complete && !all && now - p.first_seen < timeout_ns_) return;
    std::vector<IntervalSnapshot> parts;
    for (std::optional<IntervalSnapshot>& part : p.parts) {
      if (part) parts.push_back(std::move(*part));
    }
    Result<IntervalSnapshot> merged = MergeIntervals(parts);
    if (merged.ok()) {
      out.push_back(std::move(merged).value());
    } else {
      bad_messages_.push_back(merged.status());
    }
    intervals_.erase(intervals_.begin());
  }
}

void MpiCluster::PumpFromRoot(Nanos now, CoordinatorNews* news) {
  while (std::optional<MpiMessage> m = link_.Receive(0)) {
    heard_root_ = now;
    if (m->tag == MpiTag::kStop) {
      stop_ = true;
    } else if (m->tag == MpiTag::kVerdict && m->bytes.size() == sizeof(int32_t)) {
      int32_t n = 0;
      std::memcpy(&n, m->bytes.data(), sizeof(n));
      verdict_missing_ = n;
    }
  }
  if (news != nullptr && stop_) news->stop = true;
}

// ---------------------------------------------------------------- The end

RankResult MpiCluster::Mine(const RunResult& result) const {
  RankResult mine;
  mine.rank.rank = rank_;
  mine.rank.host = host_;
  mine.rank.threads = static_cast<int>(result.threads.size());
  mine.rank.clock_offset_s = NanosToSeconds(offset_ns_);
  mine.round_trip_s = NanosToSeconds(round_trip_ns_);
  mine.stopped_by_cluster = stop_;
  mine.result = result;
  mine.result.intervals.clear();
  mine.result.window_start_ns += offset_ns_;  // on rank 0's clock
  mine.result.window_end_ns += offset_ns_;
  return mine;
}

void MpiCluster::Finish(RunResult& result) { FinishAll({&result}, /*runs=*/false); }

void MpiCluster::FinishRuns(const std::vector<RunResult*>& results) {
  FinishAll(results, /*runs=*/true);
}

void MpiCluster::FinishAll(const std::vector<RunResult*>& results, bool runs) {
  // One run's intervals were merged as the run went (ShareInterval); the
  // runs of FinishRuns' go with their results.
  std::vector<RankRun> mine;
  for (RunResult* r : results) {
    RankRun& run = mine.emplace_back();
    run.result = Mine(*r);
    if (runs) run.intervals = r->intervals;
  }
  if (rank_ != 0) {
    if (runs) {
      link_.Send(0, MpiTag::kResults, EncodeRankRuns(mine));
    } else {
      link_.Send(0, MpiTag::kResult, EncodeRankResult(mine.front().result));
    }
    if (!WaitForVerdict()) {
      abandon_ = true;
      for (RunResult* r : results) {
        if (!r->failure.ok()) continue;
        r->failure = Status::Unavailable(
            fmt::format("rank 0 ({}) did not answer for {} s (--mpi-timeout); it printed no report",
                        hosts_[0], settings_.timeout_s));
      }
    } else if (verdict_missing_ > 0) {
      abandon_ = true;
    }
    return;
  }
  // Rank 0's own part: was it the first to end (a stonewall), or did it fail?
  bool stop = settings_.stonewall;
  for (RankRun& run : mine) {
    run.result.stopped_by_cluster = stop_;
    const RunResult& x = run.result.result;
    stop = stop || !x.failure.ok() || x.interrupted;
  }
  if (stop) StopAll();
  results_[0] = std::move(mine);
  WaitForRanks();
  MergeAtRoot(results, runs);
}

void MpiCluster::WaitForRanks() {
  for (;;) {
    const Nanos now = MonotonicNow();
    PumpAtRoot(now);
    BeatIfDue(now);
    bool waiting = false;
    for (int r = 1; r < size_; ++r) {
      if (results_[r] || missing_[r]) continue;
      if (now - heard_[r] > timeout_ns_) {
        missing_[r] = true;
      } else {
        waiting = true;
      }
    }
    if (!waiting) break;
    link_.Progress();
    PauseBetweenLooks();
  }
  int32_t missing = 0;
  for (int r = 1; r < size_; ++r) missing += missing_[r] ? 1 : 0;
  std::string verdict(sizeof(missing), '\0');
  std::memcpy(verdict.data(), &missing, sizeof(missing));
  for (int r = 1; r < size_; ++r) {
    if (!missing_[r]) link_.Send(r, MpiTag::kVerdict, verdict);
  }
  link_.Flush(MonotonicNow() + kLastWordsGrace);
  abandon_ = missing > 0;
}

bool MpiCluster::WaitForVerdict() {
  for (;;) {
    const Nanos now = MonotonicNow();
    PumpFromRoot(now, nullptr);
    if (verdict_missing_ >= 0) return true;
    if (now - heard_root_ > timeout_ns_) return false;
    link_.Progress();
    PauseBetweenLooks();
  }
}

// "rank 2 (c2)", "ranks 2 (c2), 5 (c3)".
std::string MpiCluster::MissingRanks() const {
  std::string out;
  int n = 0;
  for (int r = 1; r < size_; ++r) {
    if (!missing_[r] || results_[r]) continue;
    out += fmt::format("{}{} ({})", n++ > 0 ? ", " : "", r, hosts_[r]);
  }
  return (n == 1 ? "rank " : "ranks ") + out;
}

void MpiCluster::MergeAtRoot(const std::vector<RunResult*>& results, bool runs) {
  std::vector<int> missing;
  for (int r = 0; r < size_; ++r) {
    if (!results_[r]) {
      missing.push_back(r);
    } else if (results_[r]->size() != results.size()) {
      bad_messages_.push_back(
          Status::InvalidArgument(fmt::format("rank {} ({}) sent {} results where rank 0 has {}", r,
                                              hosts_[r], results_[r]->size(), results.size())));
      results_[r].reset();
      missing.push_back(r);
    }
  }
  for (size_t i = 0; i < results.size(); ++i) {
    std::vector<RankResult> parts;
    for (int r = 0; r < size_; ++r) {
      if (results_[r]) parts.push_back((*results_[r])[i].result);
    }
    RunResult& result = *results[i];
    if (runs) {
      MergeRunAtRoot(i, result, std::move(parts));
    } else {
      MergeOneAtRoot(result, parts);
    }
    if (!result.cluster) continue;
    result.cluster->missing_ranks = missing;
    if (!missing.empty() && result.failure.ok()) {
      result.failure = Status::Unavailable(
          fmt::format("{} did not answer for {} s (--mpi-timeout); the report holds the other "
                      "ranks' figures",
                      MissingRanks(), settings_.timeout_s));
    }
    if (!bad_messages_.empty() && result.failure.ok()) result.failure = bad_messages_.front();
  }
}

void MpiCluster::MergeRunAtRoot(size_t i, RunResult& result, std::vector<RankResult> parts) {
  // The k-th interval of every rank: each job's ticks count from its own
  // start, at the group's common start on every rank.
  std::vector<IntervalSnapshot> merged;
  for (size_t k = 0;; ++k) {
    std::vector<IntervalSnapshot> tick;
    for (int r = 0; r < size_; ++r) {
      if (!results_[r]) continue;
      const std::vector<IntervalSnapshot>& own = (*results_[r])[i].intervals;
      if (k < own.size()) tick.push_back(own[k]);
    }
    if (tick.empty()) break;
    Result<IntervalSnapshot> m = MergeIntervals(tick);
    if (!m.ok()) {
      bad_messages_.push_back(m.status());
      break;
    }
    merged.push_back(std::move(m).value());
  }
  // Each rank's own result of the run, in rank order as the merge's rows.
  std::vector<std::shared_ptr<const RunResult>> own;
  for (int r = 0; r < size_; ++r) {
    if (!results_[r]) continue;
    const RankRun& run = (*results_[r])[i];
    auto one = std::make_shared<RunResult>(run.result.result);
    one->counter_names = result.counter_names;
    one->intervals = run.intervals;
    FillDerivedFigures(*one);
    own.push_back(std::move(one));
  }
  Result<RunResult> all = MergeRankResults(result, std::move(parts));
  if (!all.ok()) {
    if (result.failure.ok()) result.failure = all.status();
    return;
  }
  result = std::move(all).value();
  result.intervals = std::move(merged);
  result.cluster->rank_results = std::move(own);
}

void MpiCluster::MergeOneAtRoot(RunResult& result, const std::vector<RankResult>& parts) {
  std::vector<IntervalSnapshot> late;
  TakeDueIntervals(MonotonicNow(), /*all=*/true, late);
  Result<RunResult> merged = MergeRankResults(result, parts);
  if (!merged.ok()) {
    if (result.failure.ok()) result.failure = merged.status();
    return;
  }
  result = std::move(merged).value();
  for (IntervalSnapshot& iv : late) result.intervals.push_back(std::move(iv));
  if (settings_.stonewall) result.cluster->stonewall = ComputeStonewall(parts);
}

}  // namespace

bool MpiRanksMet() { return g_ranks_met.load(); }

Result<std::unique_ptr<Cluster>> MakeMpiCluster(const LaunchInfo& launch,
                                                const ClusterSettings& settings) {
  LC_RETURN_IF_ERROR(LoadMpi(launch));
  auto cluster = std::make_unique<MpiCluster>(Mpi(), settings);
  LC_RETURN_IF_ERROR(cluster->Init(launch));
  return std::unique_ptr<Cluster>(std::move(cluster));
}

}  // namespace loadcell
