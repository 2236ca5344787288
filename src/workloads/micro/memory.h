#pragma once
// memory: the sysbench 1.0 memory bandwidth test.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/random.h"
#include "runner/workload.h"
#include "workloads/micro/memory_kernels.h"

namespace loadcell {

enum class MemoryOper { kRead, kWrite, kNone };

// A page-aligned, zero-filled anonymous mapping whose pages are all faulted
// in, optionally backed by huge pages (MAP_HUGETLB). Move-only.
class MemoryBlock final {
 public:
  // InvalidArgument for a size that is not a multiple of 8; an error naming
  // the huge page pool when hugetlb is set and the pool cannot supply it.
  static Result<MemoryBlock> Map(uint64_t bytes, bool hugetlb);

  MemoryBlock(MemoryBlock&& other) noexcept;
  MemoryBlock& operator=(MemoryBlock&& other) noexcept;
  MemoryBlock(const MemoryBlock&) = delete;
  MemoryBlock& operator=(const MemoryBlock&) = delete;
  ~MemoryBlock();

  uint64_t* words() const { return static_cast<uint64_t*>(base_); }
  size_t word_count() const { return bytes_ / sizeof(uint64_t); }

 private:
  MemoryBlock(void* base, size_t mapped, uint64_t bytes)
      : base_(base), mapped_(mapped), bytes_(bytes) {}
  void* base_ = nullptr;
  size_t mapped_ = 0;  // length of the mapping (rounded up to the page size)
  uint64_t bytes_ = 0;
};

// Runs memory events over one block. Not thread-safe (one per thread); with
// --memory-scope=global several workers share one block.
class MemoryWorker final : public Worker {
 public:
  // `words` points at a block of `word_count` 64-bit words that outlives the
  // worker; `owned` (may be null) is a block this worker owns (local scope).
  // `recorder` may be null (then the bytes counter is not kept).
  MemoryWorker(MemoryOper oper, bool random_access, uint64_t* words, size_t word_count,
               std::unique_ptr<MemoryBlock> owned, uint64_t seed, ThreadRecorder* recorder);

  // One pass over the block: seq reads or writes every word once in order;
  // rnd makes word_count accesses at uniformly random words; none only runs
  // the loop.
  Status RunEvent() override;

  // For tests: the block, the XOR of every word loaded by the last read
  // event, and the value stored by the last write event (the event's
  // sequence number, starting at 1).
  std::span<uint64_t> block() const { return {words_, word_count_}; }
  uint64_t last_read() const { return last_read_; }
  uint64_t last_written() const { return write_value_; }

 private:
  const MemoryOper oper_;
  const bool random_access_;
  uint64_t* const words_;
  const size_t word_count_;
  std::unique_ptr<MemoryBlock> owned_;
  Random rng_;
  ThreadRecorder* const recorder_;
  const MemoryKernels kernels_;  // the sequential passes (widest vectors the CPU runs)
  uint64_t last_read_ = 0;
  uint64_t write_value_ = 0;
};

class MemoryWorkload final : public Workload, public TextReportSections {
 public:
  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  std::vector<std::string> Warnings(int threads) const override;
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  Status Done() override;
  // Like sysbench 1.0: each thread runs total-size / block-size / threads
  // events (integer division); no limit when --memory-total-size=0.
  EventBudget Budget(int threads) const override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  std::optional<std::string> SysbenchHeader() const override;
  std::vector<Metric> Metrics(const RunResult& r) const override;
  std::string TextSection(const RunResult& r) const override;
  std::string SysbenchSection(const RunResult& r) const override { return TextSection(r) + "\n"; }
  // sysbench's memory interval line: "N.NN MiB/sec" (the reporter adds the
  // time stamp).
  std::string IntervalLine(const IntervalSnapshot& s, double percentile) const override;

  uint64_t block_size() const { return block_size_; }
  uint64_t total_size() const { return total_size_; }
  MemoryOper oper() const;

 private:
  uint64_t block_size_ = 1024;
  uint64_t total_size_ = 100ULL << 30;
  std::string scope_ = "global";
  bool hugetlb_ = false;
  std::string oper_ = "write";
  std::string access_mode_ = "seq";
  std::unique_ptr<MemoryBlock> global_block_;
};

}  // namespace loadcell
