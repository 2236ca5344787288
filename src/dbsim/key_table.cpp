#include "dbsim/key_table.h"

namespace loadcell {

DbKeyTable::DbKeyTable(uint64_t pages)
    : pages_(pages),
      acked_(std::make_unique<std::atomic<uint64_t>[]>(pages)),
      durable_(std::make_unique<std::atomic<uint64_t>[]>(pages)) {}

void DbKeyTable::Acknowledge(uint64_t page, uint64_t key, bool durable) {
  acked_[page].store(key, std::memory_order_release);
  if (durable) {
    durable_[page].store(key, std::memory_order_release);
    return;
  }
  // The serial is drawn under the shard's lock, so a shard's list is in
  // serial order; a flush whose snapshot is at or past it covers the write
  // (it returned before the snapshot was taken).
  Shard& shard = shards_[page % kShards];
  std::lock_guard lock(shard.mu);
  shard.pending.push_back({serial_.fetch_add(1, std::memory_order_acq_rel) + 1, page, key});
}

void DbKeyTable::RaiseDurable(uint64_t page, uint64_t key) {
  uint64_t seen = durable_[page].load(std::memory_order_relaxed);
  while (seen < key &&
         !durable_[page].compare_exchange_weak(seen, key, std::memory_order_release)) {
  }
}

void DbKeyTable::MarkDurable(FlushSnapshot snapshot) {
  for (Shard& shard : shards_) {
    std::lock_guard lock(shard.mu);
    while (shard.head < shard.pending.size() && shard.pending[shard.head].serial <= snapshot) {
      const Pending& p = shard.pending[shard.head++];
      RaiseDurable(p.page, p.key);
    }
    if (shard.head == shard.pending.size()) {
      shard.pending.clear();  // keeps its room: no allocation for the next writes
      shard.head = 0;
    } else if (shard.head >= 1024 && 2 * shard.head >= shard.pending.size()) {
      shard.pending.erase(shard.pending.begin(),
                          shard.pending.begin() + static_cast<std::ptrdiff_t>(shard.head));
      shard.head = 0;
    }
  }
}

}  // namespace loadcell
