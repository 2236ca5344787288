#include "workloads/micro/memory.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/pages.h"
#include "os/system_info.h"
#include "runner/recorder.h"
#include "workloads/micro/do_not_optimize.h"
#include "workloads/micro/memory_kernels.h"

namespace loadcell {
namespace {

constexpr uint64_t kWordBytes = sizeof(uint64_t);
constexpr uint64_t kKiB = 1ULL << 10;
constexpr uint64_t kMiB = 1ULL << 20;
constexpr uint64_t kFallbackL2Bytes = 1 * kMiB;

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// "1KiB", "10GiB", "12 bytes": exact, in the largest binary unit that divides.
std::string HumanSize(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"TiB", "GiB", "MiB", "KiB"};
  static constexpr int kShifts[] = {40, 30, 20, 10};
  for (int i = 0; i < 4; ++i) {
    const uint64_t unit = 1ULL << kShifts[i];
    if (bytes != 0 && bytes % unit == 0) return fmt::format("{}{}", bytes / unit, kUnits[i]);
  }
  return fmt::format("{} bytes", bytes);
}

uint64_t RoundUp(uint64_t v, uint64_t multiple) { return (v + multiple - 1) / multiple * multiple; }

uint64_t L2CacheBytes() {
  const uint64_t l2 = ReadL2CacheBytes();
  return l2 > 0 ? l2 : kFallbackL2Bytes;
}

// A uniformly random index in [0, n) from 64 random bits (multiply-shift;
// exact for the power-of-two n used here).
inline size_t RandomIndex(uint64_t bits, size_t n) {
  return static_cast<size_t>((static_cast<unsigned __int128>(bits) * n) >> 64);
}

}  // namespace

// ---------------------------------------------------------------- MemoryBlock

Result<MemoryBlock> MemoryBlock::Map(uint64_t bytes, bool hugetlb) {
  if (bytes == 0 || bytes % kWordBytes != 0) {
    return Status::InvalidArgument(
        fmt::format("memory block of {} bytes: must be a non-zero multiple of 8", bytes));
  }
  const uint64_t page = hugetlb ? HugePageSize() : static_cast<uint64_t>(PageSize());
  const uint64_t mapped = RoundUp(bytes, page);
  int err = 0;
  void* base = MapZeroPages(mapped, hugetlb, &err);
  if (base == nullptr) {
    if (hugetlb) {
      return Status::ResourceExhausted(
          fmt::format("--memory-hugetlb=on: cannot map {} of {} huge pages ({})", HumanSize(mapped),
                      HumanSize(page), HugePagesAdvice(err)),
          err);
    }
    return PosixError(fmt::format("cannot allocate a {} memory block", HumanSize(mapped)), err);
  }
  // Fault every page in now, as sysbench does, so that the first events do
  // not measure page faults.
  std::memset(base, 0, mapped);
  return MemoryBlock(base, mapped, bytes);
}

MemoryBlock::MemoryBlock(MemoryBlock&& other) noexcept
    : base_(std::exchange(other.base_, nullptr)),
      mapped_(std::exchange(other.mapped_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

MemoryBlock& MemoryBlock::operator=(MemoryBlock&& other) noexcept {
  if (this != &other) {
    if (base_ != nullptr) UnmapPages(base_, mapped_);
    base_ = std::exchange(other.base_, nullptr);
    mapped_ = std::exchange(other.mapped_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

MemoryBlock::~MemoryBlock() {
  if (base_ != nullptr) UnmapPages(base_, mapped_);
}

// ---------------------------------------------------------------- MemoryWorker

MemoryWorker::MemoryWorker(MemoryOper oper, bool random_access, uint64_t* words, size_t word_count,
                           std::unique_ptr<MemoryBlock> owned, uint64_t seed,
                           ThreadRecorder* recorder)
    : oper_(oper),
      random_access_(random_access),
      words_(words),
      word_count_(word_count),
      owned_(std::move(owned)),
      rng_(seed),
      recorder_(recorder),
      kernels_(BestMemoryKernels()) {}

Status MemoryWorker::RunEvent() {
  uint64_t* const p = words_;
  const size_t n = word_count_;
  if (!random_access_) {
    switch (oper_) {
      case MemoryOper::kRead:
        last_read_ = kernels_.read(p, n);
        DoNotOptimize(last_read_);
        break;
      case MemoryOper::kWrite:
        kernels_.write(p, n, ++write_value_);
        ClobberMemory();
        break;
      case MemoryOper::kNone:
        for (size_t i = 0; i < n; ++i) ClobberMemory();
        break;
    }
  } else {
    switch (oper_) {
      case MemoryOper::kRead: {
        uint64_t acc = 0;
        for (size_t i = 0; i < n; ++i) acc ^= LoadWord(p + RandomIndex(rng_.Next(), n));
        last_read_ = acc;
        DoNotOptimize(last_read_);
        break;
      }
      case MemoryOper::kWrite: {
        const uint64_t value = ++write_value_;
        for (size_t i = 0; i < n; ++i) StoreWord(p + RandomIndex(rng_.Next(), n), value);
        ClobberMemory();
        break;
      }
      case MemoryOper::kNone: {
        uint64_t acc = 0;
        for (size_t i = 0; i < n; ++i) acc ^= RandomIndex(rng_.Next(), n);
        DoNotOptimize(acc);
        break;
      }
    }
  }
  if (recorder_ != nullptr) recorder_->Add(0, n * kWordBytes);
  return Status::Ok();
}

// ---------------------------------------------------------------- MemoryWorkload

WorkloadInfo MemoryWorkload::Info() const {
  WorkloadInfo info;
  info.name = "memory";
  info.runs_per_process = true;
  info.summary = "memory bandwidth: passes over a memory block";
  info.event_definition =
      "one event is one pass over one --memory-block-size block: seq reads or writes every "
      "8-byte word once in order, rnd makes block-size/8 accesses to uniformly random words "
      "of the block, none runs the loop without touching memory";
  info.counter_names = {"bytes"};
  return info;
}

void MemoryWorkload::RegisterOptions(OptionSet& opts) {
  opts.Size("memory-block-size", &block_size_, 1024, "size of the memory block of one event")
      .Min(8)
      .PowerOfTwo();
  opts.Size("memory-total-size", &total_size_, 100ULL << 30,
            "total size of data to transfer (0: no limit)");
  opts.Enum("memory-scope", &scope_, "global", {"global", "local"},
            "one block shared by all threads (global) or one per thread (local)");
  opts.Bool("memory-hugetlb", &hugetlb_, false, "allocate the blocks from the HugeTLB pool");
  opts.Enum("memory-oper", &oper_, "write", {"read", "write", "none"}, "type of memory operations");
  opts.Enum("memory-access-mode", &access_mode_, "seq", {"seq", "rnd"},
            "sequential or random word accesses");
}

MemoryOper MemoryWorkload::oper() const {
  if (oper_ == "read") return MemoryOper::kRead;
  if (oper_ == "none") return MemoryOper::kNone;
  return MemoryOper::kWrite;
}

Status MemoryWorkload::Validate(int threads) {
  if (block_size_ < kWordBytes) {
    return Status::InvalidArgument(fmt::format(
        "--memory-block-size={}: must be at least 8 (one machine word)", FormatSize(block_size_)));
  }
  if (!IsPowerOfTwo(block_size_)) {
    return Status::InvalidArgument(
        fmt::format("--memory-block-size={}: must be a power of two", FormatSize(block_size_)));
  }
  if (scope_ != "global" && scope_ != "local") {
    return Status::InvalidArgument(
        fmt::format("--memory-scope={}: must be global or local", scope_));
  }
  if (oper_ != "read" && oper_ != "write" && oper_ != "none") {
    return Status::InvalidArgument(
        fmt::format("--memory-oper={}: must be read, write or none", oper_));
  }
  if (access_mode_ != "seq" && access_mode_ != "rnd") {
    return Status::InvalidArgument(
        fmt::format("--memory-access-mode={}: must be seq or rnd", access_mode_));
  }
  const uint64_t n = threads > 0 ? static_cast<uint64_t>(threads) : 1;
  if (total_size_ != 0 && total_size_ / block_size_ / n == 0) {
    return Status::InvalidArgument(fmt::format(
        "--memory-total-size={}: must be 0 (no limit) or at least --memory-block-size x "
        "--threads ({})",
        FormatSize(total_size_), FormatSize(block_size_ * n)));
  }
  return Status::Ok();
}

std::vector<std::string> MemoryWorkload::Warnings(int /*threads*/) const {
  std::vector<std::string> out;
  const uint64_t l2 = L2CacheBytes();
  if (oper() != MemoryOper::kNone && block_size_ <= l2) {
    out.push_back(fmt::format(
        "--memory-block-size={} fits in the CPU's L2 cache ({}): this measures cache "
        "bandwidth, not RAM; use a block larger than the last-level cache (e.g. 1G) for RAM",
        FormatSize(block_size_), FormatSize(l2)));
  }
  return out;
}

Status MemoryWorkload::Init(int /*threads*/) {
  global_block_.reset();
  if (scope_ == "global") {
    LC_ASSIGN_OR_RETURN(MemoryBlock block, MemoryBlock::Map(block_size_, hugetlb_));
    global_block_ = std::make_unique<MemoryBlock>(std::move(block));
  }
  return Status::Ok();
}

Result<std::unique_ptr<Worker>> MemoryWorkload::NewWorker(const ThreadContext& ctx) {
  const bool random_access = access_mode_ == "rnd";
  if (scope_ == "global") {
    if (global_block_ == nullptr) return Status::Internal("memory: NewWorker before Init");
    return std::unique_ptr<Worker>(std::make_unique<MemoryWorker>(
        oper(), random_access, global_block_->words(), global_block_->word_count(), nullptr,
        ctx.seed, ctx.recorder));
  }
  LC_ASSIGN_OR_RETURN(MemoryBlock block, MemoryBlock::Map(block_size_, hugetlb_));
  auto owned = std::make_unique<MemoryBlock>(std::move(block));
  uint64_t* words = owned->words();
  const size_t count = owned->word_count();
  return std::unique_ptr<Worker>(std::make_unique<MemoryWorker>(
      oper(), random_access, words, count, std::move(owned), ctx.seed, ctx.recorder));
}

Status MemoryWorkload::Done() { return Status::Ok(); }

EventBudget MemoryWorkload::Budget(int threads) const {
  if (total_size_ == 0 || block_size_ == 0) return {};
  const uint64_t n = threads > 0 ? static_cast<uint64_t>(threads) : 1;
  const uint64_t per_thread = total_size_ / block_size_ / n;
  // As sysbench: --memory-total-size decides, --events does not.
  return {per_thread * n, per_thread, /*replaces_event_limit=*/true};
}

// sysbench's heading and its indented lines: the block size in KiB, the
// total in MiB (other units only where those do not divide the size).
std::vector<std::pair<std::string, std::string>> MemoryWorkload::Describe() const {
  const auto in_unit = [](uint64_t bytes, uint64_t unit, const char* name) {
    return bytes % unit == 0 ? fmt::format("{}{}", bytes / unit, name) : HumanSize(bytes);
  };
  return {
      {"Running memory speed test with the following options:", ""},
      {"  block size", in_unit(block_size_, kKiB, "KiB")},
      {"  total size", total_size_ == 0 ? "unlimited" : in_unit(total_size_, kMiB, "MiB")},
      {"  operation", oper_},
      {"  scope", scope_},
      {"  access mode", access_mode_},
      {"  huge pages", hugetlb_ ? "on" : "off"},
      // The sequential passes' load/store width (the CPU decides it).
      {"  vector width",
       fmt::format("{} bytes ({})", BestMemoryKernels().vector_bytes, BestMemoryKernels().name)},
  };
}

// sysbench's own lines: the first five of Describe(), then a blank line.
std::optional<std::string> MemoryWorkload::SysbenchHeader() const {
  std::string out;
  const std::vector<std::pair<std::string, std::string>> lines = Describe();
  for (size_t i = 0; i < lines.size() && i < 5; ++i) {
    out += lines[i].first + (lines[i].second.empty() ? "" : ": " + lines[i].second) + "\n";
  }
  return out + "\n";
}

std::vector<Metric> MemoryWorkload::Metrics(const RunResult& r) const {
  const double secs = r.total_time_s;
  const double ops = static_cast<double>(r.events);
  std::vector<Metric> out;
  out.push_back(
      {"operations_per_second", "operations per second", secs > 0 ? ops / secs : 0, "ops/s"});
  if (oper() != MemoryOper::kNone) {
    const double mib = ops * static_cast<double>(block_size_) / static_cast<double>(kMiB);
    out.push_back({"mib_transferred", "MiB transferred", mib, "MiB"});
    out.push_back({"mib_per_second", "MiB/sec", secs > 0 ? mib / secs : 0, "MiB/s"});
  }
  return out;
}

std::string MemoryWorkload::TextSection(const RunResult& r) const {
  const double secs = r.total_time_s;
  const double ops = static_cast<double>(r.events);
  std::string out = fmt::format("Total operations: {} ({:8.2f} per second)\n", r.events,
                                secs > 0 ? ops / secs : 0);
  if (oper() != MemoryOper::kNone) {
    const double mib = ops * static_cast<double>(block_size_) / static_cast<double>(kMiB);
    out += fmt::format("\n{:4.2f} MiB transferred ({:4.2f} MiB/sec)\n", mib,
                       secs > 0 ? mib / secs : 0);
  }
  return out;
}

std::string MemoryWorkload::IntervalLine(const IntervalSnapshot& s, double /*percentile*/) const {
  const double mib =
      static_cast<double>(s.events) * static_cast<double>(block_size_) / static_cast<double>(kMiB);
  return fmt::format("{:4.2f} MiB/sec", s.duration_s > 0 ? mib / s.duration_s : 0);
}

}  // namespace loadcell
