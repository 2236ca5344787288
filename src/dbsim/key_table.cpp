#include "dbsim/key_table.h"

namespace loadcell {

DbKeyTable::DbKeyTable(uint64_t pages)
    : pages_(pages),
      acked_(std::make_unique<std::atomic<uint64_t>[]>(pages)),
      durable_(std::make_unique<std::atomic<uint64_t>[]>(pages)) {}

void DbKeyTable::Acknowledge(uint64_t page, uint64_t key, bool durable) {
  acked_[page].store(key, std::memory_order_release);
  if (durable) durable_[page].store(key, std::memory_order_release);
}

std::vector<uint64_t> DbKeyTable::Snapshot() const {
  std::vector<uint64_t> keys(pages_);
  for (uint64_t p = 0; p < pages_; ++p) keys[p] = Acked(p);
  return keys;
}

void DbKeyTable::MarkDurable(const std::vector<uint64_t>& snapshot) {
  for (uint64_t p = 0; p < pages_ && p < snapshot.size(); ++p) {
    uint64_t seen = durable_[p].load(std::memory_order_relaxed);
    while (seen < snapshot[p] &&
           !durable_[p].compare_exchange_weak(seen, snapshot[p], std::memory_order_release)) {
    }
  }
}

}  // namespace loadcell
