// The machine's own ceilings for bench/limits (built by that script with
// -O3 -march=native -mprefer-vector-width=512):
//   limits_kernels read|write|triad THREADS MIB SECONDS
//     THREADS threads at once, each over its own array of MIB MiB (triad:
//     three arrays of MIB/4 MiB), pass after pass until SECONDS have gone
//     by (checked between passes, as loadcell checks its time limit between
//     events). It measures what `loadcell memory --memory-block-size=MIB M
//     --memory-scope=local --memory-access-mode=seq` does, the same way:
//       read   the XOR of every 8-byte word (loadcell's read event)
//       write  a plain store of one value into every word, a new value each
//              pass (loadcell's write event; not memset, not non-temporal)
//       triad  a = b + 3 * c over doubles (STREAM's triad; loadcell has none)
//     and prints
//       mib_per_second  the bytes of all passes of all threads over the time
//                       from the common start to the last thread's end (as
//                       loadcell's MiB/sec: transferred / total time); triad
//                       counts bytes read plus written, as STREAM does
//       cpu_ns_per_kib  user CPU time of the threads during their passes per KiB
//                       (a figure that a loaded machine moves much less than
//                       the rate: a thread waiting for its turn on a CPU
//                       spends none)
//   limits_kernels clockloop SECONDS
//     the floor of a timed event: read CLOCK_MONOTONIC and add the
//     difference to loadcell's own per-thread histogram, in a bare loop;
//     prints iterations per second.

#include <sys/mman.h>
#include <sys/resource.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"
#include "stats/histogram.h"

namespace {

using Clock = std::chrono::steady_clock;

// The calling thread's user CPU time: what bench/limits takes of loadcell
// too (its passes spend no time in the kernel; interrupts served while the
// thread ran would count as its system time).
uint64_t ThreadUserNs() {
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return static_cast<uint64_t>(ru.ru_utime.tv_sec) * 1000000000ULL +
         static_cast<uint64_t>(ru.ru_utime.tv_usec) * 1000ULL;
}

// The passes. noinline: each is one call per pass, as loadcell's event.
[[gnu::noinline]] uint64_t ReadPass(const uint64_t* p, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc ^= p[i];
  return acc;
}

[[gnu::noinline]] void WritePass(uint64_t* p, size_t n, uint64_t value) {
  for (size_t i = 0; i < n; ++i) p[i] = value;
}

[[gnu::noinline]] void TriadPass(double* a, const double* b, const double* c, size_t n) {
  for (size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
}

struct ThreadResult {
  uint64_t passes = 0;
  uint64_t cpu_ns = 0;
};

int Memory(const std::string& kernel, int threads, size_t mib, double seconds) {
  const bool triad = kernel == "triad";
  const size_t bytes = (triad ? mib / 4 : mib) * 1048576;
  const size_t words = bytes / sizeof(uint64_t);
  const int arrays = triad ? 3 : 1;
  std::vector<ThreadResult> results(static_cast<size_t>(threads));
  std::barrier start(threads + 1);
  std::atomic<uint64_t> sink{0};
  Clock::time_point deadline;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      // Mapped and zero-filled by the thread that uses them, before the
      // start, as loadcell maps its blocks (page-aligned: a heap array
      // starts 16 bytes into a page, and every 64-byte load then straddles
      // two cache lines).
      std::vector<uint64_t*> mem(static_cast<size_t>(arrays));
      for (uint64_t*& m : mem) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) {
          std::perror("mmap");
          std::exit(1);
        }
        std::memset(p, 0, bytes);
        m = static_cast<uint64_t*>(p);
      }
      start.arrive_and_wait();
      start.arrive_and_wait();  // the deadline is set
      ThreadResult& r = results[static_cast<size_t>(t)];
      const uint64_t cpu0 = ThreadUserNs();
      uint64_t acc = 0;
      do {
        ++r.passes;
        if (kernel == "read") {
          acc ^= ReadPass(mem[0], words);
        } else if (kernel == "write") {
          WritePass(mem[0], words, r.passes);
        } else {
          TriadPass(reinterpret_cast<double*>(mem[0]), reinterpret_cast<const double*>(mem[1]),
                    reinterpret_cast<const double*>(mem[2]), words);
        }
      } while (Clock::now() < deadline);
      r.cpu_ns = ThreadUserNs() - cpu0;
      sink.fetch_xor(acc ^ mem[0][words / 2], std::memory_order_relaxed);
      for (uint64_t* m : mem) munmap(m, bytes);
    });
  }
  start.arrive_and_wait();  // every thread has its arrays
  const auto t0 = Clock::now();
  deadline =
      t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  start.arrive_and_wait();
  for (std::thread& th : pool) th.join();
  const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  double total = 0, cpu = 0;
  for (const ThreadResult& r : results) {
    total += static_cast<double>(r.passes) * static_cast<double>(bytes) * arrays;
    cpu += static_cast<double>(r.cpu_ns);
  }
  std::printf("mib_per_second %.1f\ncpu_ns_per_kib %.3f\nsink %llu\n", total / 1048576 / elapsed,
              cpu / (total / 1024), static_cast<unsigned long long>(sink.load()));
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
  const std::string what = argc > 1 ? argv[1] : "";
  if (argc == 5 && (what == "read" || what == "write" || what == "triad")) {
    return Memory(what, std::atoi(argv[2]), std::strtoull(argv[3], nullptr, 10),
                  std::atof(argv[4]));
  }
  if (argc == 3 && what == "clockloop") return ClockLoop(std::atof(argv[2]));
  std::fprintf(stderr, "usage: %s read|write|triad THREADS MIB SECONDS | clockloop SECONDS\n",
               argv[0]);
  return 2;
}
