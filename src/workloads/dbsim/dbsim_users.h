#pragma once
// The simulated users of `loadcell dbsim` (docs/dbsim.md, "The simulated
// users"), each a workload of the jobs core (runner/jobs.h) run as a job of
// its own, over the database they share (dbsim_database.h). Self-timed:
// each I/O is recorded under its kind; an event is one unit of a user's
// work (a page access, a log write, a checkpoint burst, a read-ahead, an
// audit batch, a bulk update, a shrink or grow).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dbsim/dbsim_config.h"
#include "runner/recorder.h"
#include "runner/run_facts.h"
#include "runner/workload.h"
#include "workloads/dbsim/dbsim_database.h"
#include "workloads/dbsim/dbsim_io_pool.h"

namespace loadcell {

enum class DbsimUserKind : uint8_t {
  kRandom,
  kLogWriter,
  kCheckpoint,
  kReadAhead,
  kAudit,
  kBulkUpdate,
  kShrink,
  kCycleAudit,  // SQLIOSim's audit pass at the end of each cycle: every page once
};
// "random user", "log writer", "checkpoint", "read-ahead user", "audit user",
// "bulk update user", "shrink user", "end-of-cycle audit".
std::string DbsimUserName(DbsimUserKind kind);

// Latency kinds (recorder indices; 0 is every event).
enum DbsimKind : int {
  kDbsimKindRead = 1,
  kDbsimKindScatterRead,
  kDbsimKindWrite,
  kDbsimKindGatherWrite,
  kDbsimKindLogWrite,
  kDbsimKindFlush,
  kDbsimKindGrow,    // one Grow: the new pages written and flushed
  kDbsimKindShrink,  // one Shrink: the truncation
};
// Counter indices, in Info().counter_names order; then one per page fault
// kind (kDbsimFaultCounters + kind - 1).
enum DbsimCounter : int {
  kDbsimBytesRead = 0,
  kDbsimBytesWritten,
  kDbsimPagesChecked,
  kDbsimCacheHits,
  kDbsimLogBytes,
  kDbsimAuditPasses,
  kDbsimGoodRereads,  // failed pages whose re-read was good
  kDbsimRereads,      // re-reads of failed pages
  kDbsimThrottledNs,  // time waited at the throttle
  kDbsimRollbacks,    // updates rolled back (RollbackChance)
  kDbsimLazyWrites,   // pages a random user wrote itself (MaxMemoryMB full)
  kDbsimPagesGrown,
  kDbsimPagesShrunk,
  kDbsimYields,  // accesses after which a random user yielded the CPU (YieldPercentage)
  kDbsimFaultCounters,
};
// Per data file, so that its figures merge as the users' do (a job's
// result, across cycles and processes): after the kinds above, one latency
// kind per data file, every I/O on it (DbsimFileKind); after the users'
// fault counters, a block per data file: one counter per fault kind
// (DbsimFileFaultCounter), then the time its I/Os waited at the throttle
// (DbsimFileThrottledCounter).
inline constexpr int kDbsimFaultKinds = kDbPageFaultKinds - 1;
inline constexpr int kDbsimFirstFileKind = kDbsimKindShrink + 1;
inline constexpr int kDbsimFileCounters = kDbsimFaultKinds + 1;
inline int DbsimFileKind(size_t file) { return kDbsimFirstFileKind + static_cast<int>(file); }
inline int DbsimFileFaultCounter(size_t file, DbPageFault kind) {
  return kDbsimFaultCounters + kDbsimFaultKinds + kDbsimFileCounters * static_cast<int>(file) +
         static_cast<int>(kind) - 1;
}
inline int DbsimFileThrottledCounter(size_t file) {
  return kDbsimFaultCounters + kDbsimFaultKinds + kDbsimFileCounters * static_cast<int>(file) +
         kDbsimFaultKinds;
}
// The most data files whose counters a recorder holds: every one a
// configuration may have (64 [FileN], one the log).
inline constexpr size_t kDbsimMaxDataFiles = static_cast<size_t>(
    (kMaxCounters - kDbsimFaultCounters - kDbsimFaultKinds) / kDbsimFileCounters);
static_assert(kDbsimMaxDataFiles >= 63, "a recorder holds every data file's counters");

struct DbsimUserSettings {
  DbsimUserKind kind = DbsimUserKind::kRandom;
  const DbsimConfig* config = nullptr;  // outlives the workload
  uint64_t seed = 0;
  std::string dir;  // the folder of the files (-dir), for the verdict's facts
  // The user's meter of I/Os in flight (its workload's; set by it).
  DbsimDepthMeter* meter = nullptr;
};

// dbsim's configuration keys in the verdict's advice (NoBuffering=TRUE,
// the files' InitialSize, ...).
IoOptionNames DbsimOptionNames();

// How many I/Os each thread of a user keeps in flight at once: the
// configuration's user_depth (--user-depth) for the random, checkpoint,
// read-ahead and bulk update users, 1 for the others.
int DbsimUserDepth(DbsimUserKind kind, const DbsimConfig& config);

// The CPUs of SQLIOSim's Affinity or IOAffinity mask (bit n: CPU n; none
// for 0): Affinity's confine every user thread, IOAffinity's the I/O
// helper threads of a user at a depth above 1.
std::vector<int> DbsimAffinityCpus(int64_t mask);

// The I/Os a user's threads had in flight on average over its measured
// time (Little's law: its reads and writes' summed latencies over that
// time), from the result's latency kinds.
double DbsimMeanInFlight(const RunResult& r);

class DbsimUserWorkload final : public Workload {
 public:
  DbsimUserWorkload(DbsimUserSettings settings, DbsimDatabase& db);

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet&) override {}
  // The log writer opens the log for its run (each cycle).
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  // What the verdict judges of the user (dbsim_facts.cpp): the files it
  // reads or writes (the data files, or the log for the log writer) in
  // the folder, their size, NoBuffering (direct) and the durability of its
  // writes, the I/Os each thread keeps in flight (DbsimUserDepth).
  WorkloadFacts Facts(const RunResult& r) const override;
  // I/O per second (reads, scatter reads, writes, gather writes, log
  // writes), MiB/s read and written, pages checked per second, and the
  // pages that failed their check: of one user, or of a run's users merged.
  std::vector<Metric> Metrics(const RunResult& r) const override;

  // The depth each thread keeps (DbsimUserDepth), and the most of this
  // user's I/Os (every thread's) in flight at once in the run.
  int depth() const { return DbsimUserDepth(settings_.kind, *settings_.config); }
  int64_t peak_in_flight() const { return meter_.peak(); }

 private:
  DbsimUserSettings settings_;
  DbsimDatabase& db_;
  DbsimDepthMeter meter_;
};

}  // namespace loadcell
