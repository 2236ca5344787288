// The machine's own ceilings for bench/limits (built by that script):
//   limits_kernels stream THREADS MIB_PER_ARRAY REPEATS
//     STREAM-style read (sum), write (store) and triad (a = b + s*c) over
//     per-thread arrays, all threads at once; prints the best pass of each
//     kernel in MiB/s (bytes read plus bytes written, as STREAM counts).
//   limits_kernels clockloop SECONDS
//     the floor of a timed event: read CLOCK_MONOTONIC and add the
//     difference to loadcell's own per-thread histogram, in a bare loop;
//     prints iterations per second.

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "stats/histogram.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Arrays {
  std::vector<double> a, b, c;
};

// One kernel over every thread's arrays; returns the seconds of one pass of
// all threads (from a common start to the last one's end).
template <typename Kernel>
double Pass(std::vector<Arrays>& per_thread, Kernel kernel) {
  const size_t n = per_thread.size();
  std::barrier start(static_cast<std::ptrdiff_t>(n + 1));
  std::vector<std::thread> threads;
  std::atomic<double> sink{0};
  for (size_t t = 0; t < n; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      sink.store(kernel(per_thread[t]), std::memory_order_relaxed);
    });
  }
  start.arrive_and_wait();
  const auto t0 = Clock::now();
  for (std::thread& th : threads) th.join();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

int Stream(int threads, size_t mib, int repeats) {
  const size_t len = mib * 1048576 / sizeof(double);
  std::vector<Arrays> arrays(static_cast<size_t>(threads));
  {
    std::vector<std::thread> init;  // first touch by the thread that uses them
    for (Arrays& a : arrays) {
      init.emplace_back([&a, len] {
        a.a.assign(len, 1.0);
        a.b.assign(len, 2.0);
        a.c.assign(len, 0.5);
      });
    }
    for (std::thread& th : init) th.join();
  }
  const double bytes = static_cast<double>(len * sizeof(double)) * threads;
  double best_read = 0, best_write = 0, best_triad = 0;
  for (int r = 0; r < repeats; ++r) {
    double s = Pass(arrays, [len](Arrays& a) {
      // Four sums: one would wait on each add's latency, not on memory.
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      const double* p = a.b.data();
      for (size_t i = 0; i + 4 <= len; i += 4) {
        s0 += p[i];
        s1 += p[i + 1];
        s2 += p[i + 2];
        s3 += p[i + 3];
      }
      return s0 + s1 + s2 + s3;
    });
    best_read = std::max(best_read, bytes / s);
    s = Pass(arrays, [len](Arrays& a) {
      double* p = a.a.data();
      for (size_t i = 0; i < len; ++i) p[i] = 3.0;
      return p[len / 2];
    });
    best_write = std::max(best_write, bytes / s);
    s = Pass(arrays, [len](Arrays& a) {
      double* x = a.a.data();
      const double* y = a.b.data();
      const double* z = a.c.data();
      for (size_t i = 0; i < len; ++i) x[i] = y[i] + 3.0 * z[i];
      return x[len / 2];
    });
    best_triad = std::max(best_triad, 3 * bytes / s);
  }
  std::printf("read %.1f\nwrite %.1f\ntriad %.1f\n", best_read / 1048576, best_write / 1048576,
              best_triad / 1048576);
  return 0;
}

int ClockLoop(double seconds) {
  loadcell::ConcurrentHistogram hist;
  const int64_t end = loadcell::MonotonicNow() + static_cast<int64_t>(seconds * 1e9);
  int64_t prev = loadcell::MonotonicNow();
  uint64_t n = 0;
  const int64_t t0 = prev;
  while (prev < end) {
    const int64_t now = loadcell::MonotonicNow();
    hist.Record(static_cast<uint64_t>(now - prev));
    prev = now;
    ++n;
  }
  std::printf("iterations_per_second %.1f\n", static_cast<double>(n) / ((prev - t0) / 1e9));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "stream") == 0) {
    return Stream(std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 10), std::atoi(argv[4]));
  }
  if (argc == 3 && std::strcmp(argv[1], "clockloop") == 0) return ClockLoop(std::atof(argv[2]));
  std::fprintf(stderr, "usage: %s stream THREADS MIB_PER_ARRAY REPEATS | clockloop SECONDS\n",
               argv[0]);
  return 2;
}
