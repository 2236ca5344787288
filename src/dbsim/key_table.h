#pragma once
// The key table of one file (docs/dbsim.md, "The key table"): for every
// page the key of its last acknowledged write and the key of its last
// durable one (a completed flush covered it, or the write was
// write-through). Thread-safe: each entry is an atomic; the caller latches
// a page while it reads or writes it, so that a page's keys move only
// under its latch. A flush's work is the writes acknowledged since the
// last one (each kept in a pending list until a flush covers it), not the
// whole file.

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace loadcell {

class DbKeyTable final {
 public:
  // Every page at key 0, acknowledged and durable (the file as created and
  // flushed).
  explicit DbKeyTable(uint64_t pages);

  uint64_t pages() const { return pages_; }
  uint64_t Acked(uint64_t page) const { return acked_[page].load(std::memory_order_acquire); }
  uint64_t Durable(uint64_t page) const { return durable_[page].load(std::memory_order_acquire); }

  // The write of `key` to `page` returned success; `durable` when it was
  // write-through. REQUIRES: key > Acked(page), the page latched.
  void Acknowledge(uint64_t page, uint64_t key, bool durable);

  // A flush of the file: Snapshot() before it starts, MarkDurable(snapshot)
  // once it returned. Every write acknowledged before the snapshot is then
  // durable (at the key it had then); one acknowledged during the flush is
  // not (it may have missed it). Flushes may overlap: the first to end
  // marks whatever its snapshot covers, a later one with an older snapshot
  // finds nothing left; a durable key never moves back.
  using FlushSnapshot = uint64_t;
  FlushSnapshot Snapshot() const { return serial_.load(std::memory_order_acquire); }
  void MarkDurable(FlushSnapshot snapshot);

 private:
  // An acknowledged write no flush has covered yet, by its serial number.
  struct Pending {
    uint64_t serial = 0;
    uint64_t page = 0;
    uint64_t key = 0;
  };
  // Pages are spread over shards (page % kShards) so that acknowledging
  // threads seldom share a lock; in a shard, serials rise.
  struct alignas(64) Shard {
    std::mutex mu;
    std::vector<Pending> pending;
    size_t head = 0;  // pending[head..] are not yet durable
  };
  static constexpr size_t kShards = 16;
  void RaiseDurable(uint64_t page, uint64_t key);

  uint64_t pages_;
  std::unique_ptr<std::atomic<uint64_t>[]> acked_;
  std::unique_ptr<std::atomic<uint64_t>[]> durable_;
  std::atomic<uint64_t> serial_{0};
  std::array<Shard, kShards> shards_;
};

}  // namespace loadcell
