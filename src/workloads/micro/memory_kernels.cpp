#include "workloads/micro/memory_kernels.h"

namespace loadcell {
namespace {

#if defined(__x86_64__) || defined(__i386__)
#define LOADCELL_MEMORY_X86 1
#endif

#if defined(LOADCELL_MEMORY_ATOMIC_ACCESS)

uint64_t ReadAtomic(const uint64_t* p, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc ^= LoadWord(p + i);
  return acc;
}

void WriteAtomic(uint64_t* p, size_t n, uint64_t value) {
  for (size_t i = 0; i < n; ++i) StoreWord(p + i, value);
}

#else

// The loop bodies, inlined into one function per instruction set so that
// each is vectorised for that set's registers.

// XOR of every word. Eight independent accumulators let the compiler keep
// several vector loads in flight (the loop vectorises to full-width XORs).
[[gnu::always_inline]] inline uint64_t ReadBody(const uint64_t* p, size_t n) {
  uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    a0 ^= p[i];
    a1 ^= p[i + 1];
    a2 ^= p[i + 2];
    a3 ^= p[i + 3];
    a4 ^= p[i + 4];
    a5 ^= p[i + 5];
    a6 ^= p[i + 6];
    a7 ^= p[i + 7];
  }
  for (; i < n; ++i) a0 ^= p[i];
  return a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
}

// A vectorised store loop; the value is not a byte pattern, so it does not
// become a memset call (which would use string instructions or, in newer C
// libraries, non-temporal stores: another mechanism than plain stores).
[[gnu::always_inline]] inline void WriteBody(uint64_t* p, size_t n, uint64_t value) {
  for (size_t i = 0; i < n; ++i) p[i] = value;
}

uint64_t ReadBaseline(const uint64_t* p, size_t n) { return ReadBody(p, n); }
void WriteBaseline(uint64_t* p, size_t n, uint64_t value) { WriteBody(p, n, value); }

#if defined(LOADCELL_MEMORY_X86)
[[gnu::target("avx2")]] uint64_t ReadAvx2(const uint64_t* p, size_t n) { return ReadBody(p, n); }
[[gnu::target("avx2")]] void WriteAvx2(uint64_t* p, size_t n, uint64_t value) {
  WriteBody(p, n, value);
}
// The 512-bit width asked for explicitly: without it a compiler tuned for
// some CPUs keeps to 256-bit registers even where AVX-512 is enabled.
#if defined(__clang__)
#define LOADCELL_AVX512 [[gnu::target("avx512f"), clang::min_vector_width(512)]]
#else
#define LOADCELL_AVX512 [[gnu::target("avx512f,prefer-vector-width=512")]]
#endif
LOADCELL_AVX512 uint64_t ReadAvx512(const uint64_t* p, size_t n) { return ReadBody(p, n); }
LOADCELL_AVX512 void WriteAvx512(uint64_t* p, size_t n, uint64_t value) { WriteBody(p, n, value); }
#endif

#endif  // LOADCELL_MEMORY_ATOMIC_ACCESS

}  // namespace

std::vector<MemoryKernels> SupportedMemoryKernels() {
#if defined(LOADCELL_MEMORY_ATOMIC_ACCESS)
  return {{"atomic", 8, ReadAtomic, WriteAtomic}};
#else
  std::vector<MemoryKernels> out = {{"baseline", 16, ReadBaseline, WriteBaseline}};
#if defined(LOADCELL_MEMORY_X86)
  // __builtin_cpu_supports also checks that the operating system saves the
  // wider registers (XCR0), not only the CPUID bit.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) out.push_back({"avx2", 32, ReadAvx2, WriteAvx2});
  if (__builtin_cpu_supports("avx512f")) out.push_back({"avx512", 64, ReadAvx512, WriteAvx512});
#endif
  return out;
#endif
}

const MemoryKernels& BestMemoryKernels() {
  static const MemoryKernels best = SupportedMemoryKernels().back();
  return best;
}

}  // namespace loadcell
