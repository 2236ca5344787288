#pragma once
// Seeded pseudo-random numbers and the sysbench access distributions.
// Same seed, same thread id -> same sequence (ThreadSeed mixes them).

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell {

// xoshiro256** (public-domain algorithm by Blackman and Vigna). Not
// thread-safe: one per thread.
class Random {
 public:
  explicit Random(uint64_t seed);
  uint64_t Next();
  double NextDouble();                         // [0, 1)
  uint64_t Uniform(uint64_t lo, uint64_t hi);  // inclusive, unbiased

 private:
  uint64_t s_[4];
};

// A draw of the standard normal law (mean 0, standard deviation 1), by
// Marsaglia's polar method (two uniform draws or more per value; the second
// value each accepted pair gives is not kept, so that a draw depends only on
// `rng`).
double StandardNormal(Random& rng);

// Seed for thread `thread_id` from the run's seed (splitmix64 mixing).
uint64_t ThreadSeed(uint64_t run_seed, int thread_id);

// sysbench's --rand-* options.
struct DistributionConfig {
  std::string type = "special";  // uniform|gaussian|special|pareto|zipfian
  int64_t spec_iter = 12;        // --rand-spec-iter (gaussian and special)
  double spec_pct = 1;           // --rand-spec-pct
  double spec_res = 75;          // --rand-spec-res
  double pareto_h = 0.2;         // --rand-pareto-h
  double zipfian_exp = 0.8;      // --rand-zipfian-exp
};

inline const std::vector<std::string>& DistributionNames() {
  static const std::vector<std::string> kNames = {"uniform", "gaussian", "special", "pareto",
                                                  "zipfian"};
  return kNames;
}

// Draws integers in [lo, hi] with the configured shape, with sysbench 1.0's
// meaning of each type. Immutable after construction (zipfian constants are
// precomputed), so one instance may be shared by threads that each pass
// their own Random.
class Distribution {
 public:
  static Result<Distribution> Create(const DistributionConfig& cfg, uint64_t lo, uint64_t hi);
  uint64_t Next(Random& rng) const;
  uint64_t lo() const { return lo_; }
  uint64_t hi() const { return hi_; }

 private:
  enum class Kind { kUniform, kGaussian, kSpecial, kPareto, kZipfian };
  Distribution() = default;
  Kind kind_ = Kind::kUniform;
  DistributionConfig cfg_;
  uint64_t lo_ = 0, hi_ = 0;
  // Zipfian by rejection-inversion (see random.cpp): H(1.5) - 1, H(n + 0.5)
  // and the shortcut constant s, all for the exponent cfg_.zipfian_exp.
  double zipf_h_x1_ = 0, zipf_h_n_ = 0, zipf_s_ = 0;
  double pareto_power_ = 0;
};

}  // namespace loadcell
