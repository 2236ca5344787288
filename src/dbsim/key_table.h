#pragma once
// The key table of one file (docs/dbsim.md, "The key table"): for every
// page the key of its last acknowledged write and the key of its last
// durable one (a completed flush covered it, or the write was
// write-through). Thread-safe: each entry is an atomic; the caller latches
// a page while it reads or writes it, so that a page's keys move only
// under its latch.

#include <atomic>
#include <cstdint>
#include <memory>
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
  // durable; one acknowledged during the flush is not (it may have missed it).
  std::vector<uint64_t> Snapshot() const;
  void MarkDurable(const std::vector<uint64_t>& snapshot);

 private:
  uint64_t pages_;
  std::unique_ptr<std::atomic<uint64_t>[]> acked_;
  std::unique_ptr<std::atomic<uint64_t>[]> durable_;
};

}  // namespace loadcell
