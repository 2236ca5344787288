#include "core/random.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace loadcell {

namespace {

constexpr uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

// splitmix64 (public-domain algorithm by Vigna): advances *state and returns
// a well-mixed 64-bit value.
uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += kGoldenGamma);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// Converts a non-negative offset computed in floating point to an integer in
// [0, max_offset]. Out-of-range and NaN inputs are clamped instead of being
// undefined behaviour.
uint64_t ToOffset(double x, uint64_t max_offset) {
  if (!(x > 0)) return 0;
  if (x >= 18446744073709551616.0) return max_offset;  // 2^64
  const uint64_t r = static_cast<uint64_t>(x);
  return r < max_offset ? r : max_offset;
}

// ---- Zipf sampling by rejection-inversion -------------------------------
// W. Hoermann and G. Derflinger, "Rejection-inversion to generate variates
// from monotone discrete distributions", ACM TOMACS 6(3), 1996, with the
// integral H(x) = (x^(1-q) - 1) / (1-q) (log x when q = 1) of the hat
// h(x) = x^-q, which makes the method valid for every exponent q >= 0
// (q = 0 is uniform). It draws k in [1, n] with P(k) proportional to k^-q
// exactly, needs O(1) set-up for any n (no zeta(n) sum), and accepts most
// proposals at the first try. This is the method later sysbench versions
// use for --rand-type=zipfian, so the shapes agree.

// log1p(x) / x, continuous at 0.
double Log1pOverX(double x) {
  if (std::fabs(x) > 1e-8) return std::log1p(x) / x;
  return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

// expm1(x) / x, continuous at 0.
double Expm1OverX(double x) {
  if (std::fabs(x) > 1e-8) return std::expm1(x) / x;
  return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

double ZipfHat(double x, double q) { return std::exp(-q * std::log(x)); }

double ZipfHatIntegral(double x, double q) {
  const double log_x = std::log(x);
  return Expm1OverX((1 - q) * log_x) * log_x;
}

double ZipfHatIntegralInverse(double y, double q) {
  double t = y * (1 - q);
  if (t < -1) t = -1;  // rounding can push it just below the domain
  return std::exp(Log1pOverX(t) * y);
}

Status BadOption(const std::string& what) { return Status::InvalidArgument(what); }

}  // namespace

Random::Random(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : s_) word = SplitMix64(&state);
}

// xoshiro256** 1.0 (public-domain algorithm by Blackman and Vigna).
uint64_t Random::Next() {
  const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

double Random::NextDouble() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

// Lemire's nearly-divisionless method: the high half of Next() * n is
// uniform on [0, n) once the few low halves below 2^64 mod n are rejected.
uint64_t Random::Uniform(uint64_t lo, uint64_t hi) {
  if (lo > hi) std::swap(lo, hi);
  const uint64_t span = hi - lo;
  if (span == std::numeric_limits<uint64_t>::max()) return Next();
  const uint64_t n = span + 1;
  unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    const uint64_t threshold = (0 - n) % n;  // 2^64 mod n
    while (low < threshold) {
      m = static_cast<unsigned __int128>(Next()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return lo + static_cast<uint64_t>(m >> 64);
}

double StandardNormal(Random& rng) {
  for (;;) {
    const double u = 2 * rng.NextDouble() - 1;
    const double v = 2 * rng.NextDouble() - 1;
    const double s = u * u + v * v;
    if (s > 0 && s < 1) return u * std::sqrt(-2 * std::log(s) / s);
  }
}

uint64_t ThreadSeed(uint64_t run_seed, int thread_id) {
  uint64_t state =
      run_seed ^ (static_cast<uint64_t>(static_cast<uint32_t>(thread_id)) * kGoldenGamma);
  SplitMix64(&state);
  return SplitMix64(&state);
}

Result<Distribution> Distribution::Create(const DistributionConfig& cfg, uint64_t lo, uint64_t hi) {
  if (lo > hi) {
    return BadOption(fmt::format("random range is empty: low bound {} > high bound {}", lo, hi));
  }
  Distribution d;
  d.cfg_ = cfg;
  d.lo_ = lo;
  d.hi_ = hi;
  const std::string& type = cfg.type;
  if (type == "uniform") {
    d.kind_ = Kind::kUniform;
  } else if (type == "gaussian") {
    d.kind_ = Kind::kGaussian;
  } else if (type == "special") {
    d.kind_ = Kind::kSpecial;
  } else if (type == "pareto") {
    d.kind_ = Kind::kPareto;
  } else if (type == "zipfian") {
    d.kind_ = Kind::kZipfian;
  } else {
    std::string valid;
    for (const std::string& name : DistributionNames()) {
      if (!valid.empty()) valid += ", ";
      valid += name;
    }
    return BadOption(
        fmt::format("invalid value '{}' for --rand-type: expected one of {}", type, valid));
  }

  // Only the parameters of the chosen type are checked, so that unrelated
  // options never make a run fail (a script may still create the other types).
  if (d.kind_ == Kind::kGaussian || d.kind_ == Kind::kSpecial) {
    if (cfg.spec_iter < 1) {
      return BadOption(fmt::format("--rand-spec-iter must be >= 1, got {}", cfg.spec_iter));
    }
  }
  if (d.kind_ == Kind::kSpecial) {
    if (!(cfg.spec_pct >= 0 && cfg.spec_pct <= 100)) {
      return BadOption(fmt::format("--rand-spec-pct must be in [0, 100], got {}", cfg.spec_pct));
    }
    if (!(cfg.spec_res >= 0 && cfg.spec_res <= 100)) {
      return BadOption(fmt::format("--rand-spec-res must be in [0, 100], got {}", cfg.spec_res));
    }
  }
  if (d.kind_ == Kind::kPareto) {
    if (!(cfg.pareto_h > 0 && cfg.pareto_h < 1)) {
      return BadOption(fmt::format("--rand-pareto-h must be in (0, 1), got {}", cfg.pareto_h));
    }
    d.pareto_power_ = std::log(cfg.pareto_h) / std::log1p(-cfg.pareto_h);
  }
  if (d.kind_ == Kind::kZipfian) {
    // sysbench accepts 0 (which is uniform), so do we.
    if (!(cfg.zipfian_exp >= 0 && std::isfinite(cfg.zipfian_exp))) {
      return BadOption(fmt::format("--rand-zipfian-exp must be >= 0, got {}", cfg.zipfian_exp));
    }
    const double q = cfg.zipfian_exp;
    const double n = static_cast<double>(hi - lo) + 1.0;
    d.zipf_h_x1_ = ZipfHatIntegral(1.5, q) - 1.0;
    d.zipf_h_n_ = ZipfHatIntegral(n + 0.5, q);
    d.zipf_s_ = 2.0 - ZipfHatIntegralInverse(ZipfHatIntegral(2.5, q) - ZipfHat(2.0, q), q);
  }
  return d;
}

// The shapes follow sysbench 1.0 (sb_rand.c), computed in double precision
// over 64-bit ranges. Ranges wider than 2^53 lose the lowest bits of the
// non-uniform types; uniform is exact for every range.
uint64_t Distribution::Next(Random& rng) const {
  const uint64_t max_offset = hi_ - lo_;
  switch (kind_) {
    case Kind::kUniform:
      return rng.Uniform(lo_, hi_);

    case Kind::kGaussian: {
      // The mean of spec_iter uniform draws over [lo, hi + 1): a bell shape
      // centred on the middle of the range (central limit theorem).
      const double width = static_cast<double>(max_offset) + 1.0;
      double sum = 0;
      for (int64_t i = 0; i < cfg_.spec_iter; ++i) sum += rng.NextDouble() * width;
      return lo_ + ToOffset(sum / static_cast<double>(cfg_.spec_iter), max_offset);
    }

    case Kind::kSpecial: {
      // With t = hi - lo, one uniform draw u decides: if u < 1 - res/100 the
      // value is "gaussian" as above over [lo, hi); otherwise u is mapped
      // onto a window of pct% of the range centred on its middle (the "hot"
      // values). As in sysbench, u keeps its position in [1 - res/100, 1),
      // so the hot values fill the upper res% of that window. So res% of the
      // draws (plus the few gaussian draws that land there) hit pct% of the
      // range.
      const double t = static_cast<double>(max_offset);
      const double u = rng.NextDouble();
      const double res_mult = 100.0 / (100.0 - cfg_.spec_res);  // +inf when res = 100
      if (u * (t * res_mult) < t) {
        double sum = 0;
        for (int64_t i = 0; i < cfg_.spec_iter; ++i) sum += rng.NextDouble();
        return lo_ + ToOffset(sum * t / static_cast<double>(cfg_.spec_iter), max_offset);
      }
      const double window = t * cfg_.spec_pct / 100.0;
      const double offset = u * (window + 1.0) + t / 2.0 - t * cfg_.spec_pct / 200.0;
      return lo_ + ToOffset(offset, max_offset);
    }

    case Kind::kPareto: {
      // Inverse-transform of a Pareto-like law: u^power with
      // power = log(h) / log(1 - h), so that a fraction h of the range takes
      // 1 - h of the draws (80/20 for h = 0.2), concentrated at lo.
      const double width = static_cast<double>(max_offset) + 1.0;
      return lo_ + ToOffset(width * std::pow(rng.NextDouble(), pareto_power_), max_offset);
    }

    case Kind::kZipfian: {
      // lo is rank 1, the most frequent value.
      const double q = cfg_.zipfian_exp;
      const double n = static_cast<double>(max_offset) + 1.0;
      for (;;) {
        // u is uniform on (h_x1, h_n].
        const double u = zipf_h_n_ + rng.NextDouble() * (zipf_h_x1_ - zipf_h_n_);
        const double x = ZipfHatIntegralInverse(u, q);
        double k = std::floor(x + 0.5);
        if (k < 1) k = 1;
        if (k > n) k = n;
        // Accept at once when k is close enough to x (the cheap test that
        // implies the exact one), else by the exact rejection test; rank 1
        // is always accepted.
        if (k - x <= zipf_s_ || u >= ZipfHatIntegral(k + 0.5, q) - ZipfHat(k, q)) {
          return lo_ + ToOffset(k - 1.0, max_offset);
        }
      }
    }
  }
  return lo_;
}

}  // namespace loadcell
