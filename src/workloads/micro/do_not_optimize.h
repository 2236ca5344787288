#pragma once
// Compiler barriers that keep benchmark loops honest: a value passed to
// DoNotOptimize() is treated as read by an unknown observer, so the
// computation that produced it cannot be removed or hoisted out of a loop.
// They emit no instructions.

namespace loadcell {

template <typename T>
inline void DoNotOptimize(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

// Every store before this point is assumed to be observed.
inline void ClobberMemory() { asm volatile("" : : : "memory"); }

}  // namespace loadcell
