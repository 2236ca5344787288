#pragma once
// The memory test's sequential passes, in the widest vector registers the
// CPU runs.
//
// A release build targets baseline x86-64 (SSE2), so a plain store loop
// writes 16 bytes per instruction; a machine with AVX2 or AVX-512 writes a
// 1 GiB block with 32- or 64-byte stores for about 15-25% less CPU time per
// byte (measured on a Sapphire Rapids VM: 148, 125 and 111 ns of CPU per
// KiB written from two threads). The same loops are therefore compiled
// three times, for SSE2, AVX2 and AVX-512, and one set is chosen once from
// what the CPU (and the operating system's saved register state) supports.
// All three do the same thing: the stores are plain (through the cache, not
// non-temporal), one to every 8-byte word, as sysbench's memory write; the
// read loads every word once.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

// Under ThreadSanitizer the word accesses go through relaxed atomics: with
// --memory-scope=global several threads write the same block, which is a
// (benign, intended) data race for plain stores. Release builds use plain,
// vectorisable loops.
#if defined(__SANITIZE_THREAD__)
#define LOADCELL_MEMORY_ATOMIC_ACCESS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LOADCELL_MEMORY_ATOMIC_ACCESS 1
#endif
#endif

namespace loadcell {

// One set of sequential passes over `n` 64-bit words at `p`.
struct MemoryKernels {
  const char* name = "";  // "sse2", "avx2", "avx512" (or "atomic" under TSan)
  int vector_bytes = 0;   // bytes per load or store
  // The XOR of every word (each loaded once, in order).
  uint64_t (*read)(const uint64_t* p, size_t n) = nullptr;
  // Stores `value` into every word, in order.
  void (*write)(uint64_t* p, size_t n, uint64_t value) = nullptr;
};

// The widest set this CPU runs (decided once per process).
const MemoryKernels& BestMemoryKernels();

// Every set this CPU runs, narrowest first (for tests: each must give the
// same results).
std::vector<MemoryKernels> SupportedMemoryKernels();

#if defined(LOADCELL_MEMORY_ATOMIC_ACCESS)
inline uint64_t LoadWord(const uint64_t* p) {
  return std::atomic_ref<const uint64_t>(*p).load(std::memory_order_relaxed);
}
inline void StoreWord(uint64_t* p, uint64_t v) {
  std::atomic_ref<uint64_t>(*p).store(v, std::memory_order_relaxed);
}
#else
inline uint64_t LoadWord(const uint64_t* p) { return *p; }
inline void StoreWord(uint64_t* p, uint64_t v) { *p = v; }
#endif

}  // namespace loadcell
