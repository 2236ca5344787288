#include "core/progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace loadcell {
namespace {

std::atomic<bool> g_progress_enabled{true};

constexpr Nanos kRedrawPeriod = 100 * kNanosPerMilli;
constexpr int kBarWidth = 24;

// "0:07", "12:30", "1:02:03".
std::string ClockText(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  auto s = static_cast<uint64_t>(std::llround(seconds));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

// Units at which decile `d` (1..10) is reached.
uint64_t DecileUnits(uint64_t total, int d) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(total) * d + 9) / 10);
}

}  // namespace

void SetProgressEnabled(bool enabled) { g_progress_enabled.store(enabled); }
bool ProgressEnabled() { return g_progress_enabled.load(); }

Progress::Progress(std::string label, uint64_t total, std::string unit)
    : Progress(std::move(label), total, std::move(unit), &std::cerr, isatty(STDERR_FILENO) == 1) {}

Progress::Progress(std::string label, uint64_t total, std::string unit, std::ostream* out, bool tty)
    : label_(std::move(label)),
      total_(total),
      unit_(std::move(unit)),
      out_(ProgressEnabled() ? out : nullptr),
      tty_(tty),
      start_(MonotonicNow()) {
  next_line_.store(total_ == 0 ? UINT64_MAX : DecileUnits(total_, 1));
  next_draw_.store(start_);
}

Progress::~Progress() { Done(); }

void Progress::Advance(uint64_t n) {
  const uint64_t v = done_.fetch_add(n, std::memory_order_relaxed) + n;
  if (out_ == nullptr) return;
  if (tty_) {
    const Nanos now = MonotonicNow();
    if (now < next_draw_.load(std::memory_order_relaxed)) return;
    std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
    if (!lock.owns_lock() || finished_) return;
    next_draw_.store(now + kRedrawPeriod, std::memory_order_relaxed);
    Draw(false);
    return;
  }
  if (v < next_line_.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  Draw(false);
}

void Progress::Done() {
  std::lock_guard<std::mutex> lock(mu_);
  if (finished_) return;
  if (out_ != nullptr) Draw(true);
  finished_ = true;
}

// REQUIRES: mu_ held.
void Progress::Draw(bool final_draw) {
  const uint64_t v = done_.load(std::memory_order_relaxed);
  const double elapsed = static_cast<double>(MonotonicNow() - start_) / 1e9;
  if (tty_) {
    if (final_draw) {
      if (last_width_ > 0) *out_ << '\r' << std::string(last_width_, ' ') << '\r' << std::flush;
      last_width_ = 0;
      return;
    }
    std::string text = BarText(v, elapsed, kBarWidth);
    std::string pad = text.size() < last_width_ ? std::string(last_width_ - text.size(), ' ') : "";
    *out_ << '\r' << text << pad << std::flush;
    last_width_ = text.size();
    return;
  }
  // One line per decile reached; at the end, the 100% line if work was done.
  int reached = 0;
  if (total_ > 0) {
    while (reached < 10 && v >= DecileUnits(total_, reached + 1)) ++reached;
  }
  if (final_draw && v > 0 && total_ > 0 && v >= total_) reached = 10;
  // Every decile gets its line, also when one Advance crossed several.
  // (With fewer than ten units, deciles share units: one line for each amount.)
  while (deciles_printed_ < reached) {
    ++deciles_printed_;
    const uint64_t at = deciles_printed_ == reached ? v : DecileUnits(total_, deciles_printed_);
    if (at == last_line_units_) continue;
    last_line_units_ = at;
    *out_ << LineText(at, elapsed) << '\n';
  }
  out_->flush();
  next_line_.store(deciles_printed_ >= 10 ? UINT64_MAX : DecileUnits(total_, deciles_printed_ + 1),
                   std::memory_order_relaxed);
}

std::string Progress::Amount(double units) const {
  if (unit_ != "bytes") {
    // Rates of slow phases (a sweep's runs/s) keep two significant digits.
    if (units > 0 && units < 10 && units != std::floor(units)) return fmt::format("{:.2g}", units);
    return fmt::format("{:.0f}", units);
  }
  static const char* kSuffix[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (units >= 1024 && i < 5) {
    units /= 1024;
    ++i;
  }
  return i == 0 ? fmt::format("{:.0f}B", units) : fmt::format("{:.1f}{}iB", units, kSuffix[i]);
}

std::string Progress::BarText(uint64_t done, double elapsed_s, int width) const {
  const double frac =
      total_ == 0 ? 0 : std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
  const int filled = static_cast<int>(frac * width);
  const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
  std::string left = "?";
  if (done > 0 && total_ >= done) {
    left = ClockText(elapsed_s * static_cast<double>(total_ - done) / static_cast<double>(done));
  }
  const std::string unit = unit_ == "bytes" ? "" : " " + unit_;
  return fmt::format("{} [{}{}] {:3.0f}% {} of {}{}, {}{}/s, {} left", label_,
                     std::string(static_cast<size_t>(filled), '#'),
                     std::string(static_cast<size_t>(width - filled), '-'), frac * 100,
                     Amount(static_cast<double>(done)), Amount(static_cast<double>(total_)), unit,
                     Amount(rate), unit, left);
}

std::string Progress::LineText(uint64_t done, double elapsed_s) const {
  const double pct =
      total_ == 0
          ? 0
          : std::min(100.0, 100.0 * static_cast<double>(done) / static_cast<double>(total_));
  const double rate = elapsed_s > 0 ? static_cast<double>(done) / elapsed_s : 0;
  const std::string unit = unit_ == "bytes" ? "" : " " + unit_;
  std::string text = fmt::format("{}: {:.0f}% ({} of {}{}, {}{}/s", label_, std::floor(pct),
                                 Amount(static_cast<double>(done)),
                                 Amount(static_cast<double>(total_)), unit, Amount(rate), unit);
  if (done > 0 && done < total_) {
    text += ", " +
            ClockText(elapsed_s * static_cast<double>(total_ - done) / static_cast<double>(done)) +
            " left";
  }
  return text + ")";
}

}  // namespace loadcell
