#pragma once
// The I/O engine tests' buffers and submit/reap loops (io_engine_test.cpp,
// io_engine_posix_test.cpp; io_engines_win32_test.cpp uses its buffers).

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/clock.h"
#include "io/io_engine.h"
#include "testing/status.h"

namespace loadcell::testing {

inline constexpr uint32_t kBlock = 4096;
inline constexpr uint64_t kFileSize = 1 << 20;

struct BufferFree {
  void operator()(void* p) const { FreeIoBuffer(p); }
};
using Buffer = std::unique_ptr<char, BufferFree>;

inline Buffer NewBuffer(size_t len) { return Buffer(static_cast<char*>(AllocateIoBuffer(len))); }

inline void Fill(char* p, size_t len, uint64_t seed) {
  for (size_t i = 0; i < len; ++i) p[i] = static_cast<char>((seed * 131 + i * 7 + (i >> 9)) & 0xff);
}

// Reaps until `n` completions arrived (or an error); returns them.
inline std::vector<IoCompletion> ReapAll(IoEngine& e, size_t n) {
  std::vector<IoCompletion> all;
  std::vector<IoCompletion> out(64);
  while (all.size() < n) {
    Result<size_t> got = e.Reap(1, out, 5 * kNanosPerSecond);
    EXPECT_OK(got);
    if (!got.ok() || *got == 0) break;
    all.insert(all.end(), out.begin(), out.begin() + static_cast<long>(*got));
  }
  return all;
}

// Submits all of `reqs`, reaping when the queue is full; returns the
// completions (in completion order).
inline std::vector<IoCompletion> RunAll(IoEngine& e, std::vector<IoRequest>& reqs) {
  std::vector<IoCompletion> all;
  size_t next = 0;
  while (next < reqs.size()) {
    Result<size_t> n = e.Submit(std::span<IoRequest>(reqs).subspan(next));
    EXPECT_OK(n);
    if (!n.ok()) break;
    next += *n;
    if (*n == 0 || next == reqs.size()) {
      std::vector<IoCompletion> c = ReapAll(e, e.InFlight());
      all.insert(all.end(), c.begin(), c.end());
    }
  }
  return all;
}

inline int64_t ResultFor(const std::vector<IoCompletion>& cs, uint64_t user_data) {
  for (const IoCompletion& c : cs) {
    if (c.user_data == user_data) return c.result;
  }
  ADD_FAILURE() << "no completion for request " << user_data;
  return -9999;
}

}  // namespace loadcell::testing
