#include "workloads/fio/fio_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace loadcell {
namespace {

uint64_t Rounded(double v) { return v <= 0 ? 0 : static_cast<uint64_t>(std::llround(v)); }

uint64_t Mean(uint64_t sum, uint64_t n) {
  return Rounded(static_cast<double>(sum) / static_cast<double>(n));
}

}  // namespace

uint64_t FioLogRecorder::WindowValue(FioLogKind kind, const Window& w, size_t d) {
  const double secs = static_cast<double>(std::max<int64_t>(1, w.length_ns)) / 1e9;
  switch (kind) {
    case FioLogKind::kLat:
      return Mean(w.latency_sum[d], w.ios[d]);
    case FioLogKind::kClat:
      return Mean(w.clat_sum[d], w.ios[d]);
    case FioLogKind::kSlat:
      return Mean(w.slat_sum[d], w.slat_ios[d]);
    case FioLogKind::kBw:
      return Rounded(static_cast<double>(w.bytes[d]) / secs / 1024);
    case FioLogKind::kIops:
      return Rounded(static_cast<double>(w.ios[d]) / secs);
  }
  return 0;
}

uint64_t FioLogRecorder::IoValue(FioLogKind kind, const Io& io) {
  switch (kind) {
    case FioLogKind::kLat:
      return io.latency_ns;
    case FioLogKind::kClat:
      return io.clat_ns;
    case FioLogKind::kSlat:
      return static_cast<uint64_t>(std::max<int64_t>(0, io.slat_ns));
    case FioLogKind::kBw:
      // fio's per-I/O bandwidth: bytes over the I/O's clat.
      return io.clat_ns == 0 ? 0 : io.bytes * 1'000'000 / io.clat_ns;
    case FioLogKind::kIops:
      return 1;
  }
  return 0;
}

const char* FioLogKindName(FioLogKind kind) {
  switch (kind) {
    case FioLogKind::kLat:
      return "lat";
    case FioLogKind::kClat:
      return "clat";
    case FioLogKind::kSlat:
      return "slat";
    case FioLogKind::kBw:
      return "bw";
    case FioLogKind::kIops:
      return "iops";
  }
  return "";
}

void FioLogRecorder::Start(Nanos epoch) {
  started_ = true;
  epoch_ = epoch;
}

void FioLogRecorder::Add(Nanos at, FioDir dir, uint64_t bytes, uint64_t offset, uint64_t latency_ns,
                         int64_t clat_ns, int64_t slat_ns) {
  if (!started_ || finished_) return;
  const int64_t rel = std::max<int64_t>(0, at - epoch_);
  const size_t d = static_cast<size_t>(dir);
  const uint64_t clat = clat_ns < 0 ? latency_ns : static_cast<uint64_t>(clat_ns);
  if (s_.avg_ns <= 0) {
    ios_.push_back(Io{static_cast<uint64_t>(rel / kNanosPerMilli), latency_ns, clat, slat_ns, bytes,
                      offset, dir});
    return;
  }
  const int64_t index = rel / s_.avg_ns;
  if (open_used_ && index > open_index_) {
    CloseWindow(s_.avg_ns, static_cast<uint64_t>((open_index_ + 1) * s_.avg_ns / kNanosPerMilli));
  }
  if (!open_used_) open_index_ = index;
  open_used_ = true;
  ++open_.ios[d];
  open_.bytes[d] += bytes;
  open_.latency_sum[d] += latency_ns;
  open_.clat_sum[d] += clat;
  if (slat_ns >= 0) {
    ++open_.slat_ios[d];
    open_.slat_sum[d] += static_cast<uint64_t>(slat_ns);
  }
}

void FioLogRecorder::CloseWindow(int64_t length_ns, uint64_t end_ms) {
  open_.length_ns = length_ns;
  open_.end_ms = end_ms;
  windows_.push_back(open_);
  open_ = Window{};
  open_used_ = false;
}

void FioLogRecorder::Finish(Nanos end) {
  if (!started_ || finished_) return;
  finished_ = true;
  if (s_.avg_ns <= 0 || !open_used_) return;
  // The last window ends with the job (at most a whole window long).
  const int64_t from = open_index_ * s_.avg_ns;
  const int64_t length =
      std::clamp<int64_t>(std::max<int64_t>(0, end - epoch_) - from, 1, s_.avg_ns);
  CloseWindow(length, static_cast<uint64_t>((from + length) / kNanosPerMilli));
}

std::vector<FioLogLine> FioLogRecorder::Lines(FioLogKind kind) const {
  std::vector<FioLogLine> out;
  const bool slat = kind == FioLogKind::kSlat;
  if (s_.avg_ns <= 0) {
    out.reserve(ios_.size());
    for (const Io& io : ios_) {
      if (slat && io.slat_ns < 0) continue;  // not timed apart: no slat line
      out.push_back(
          FioLogLine{io.time_ms, IoValue(kind, io), static_cast<int>(io.dir), io.bytes, io.offset});
    }
    return out;
  }
  for (const Window& w : windows_) {
    for (size_t d = 0; d < kFioDirs; ++d) {
      // No line for a direction without I/O (fio's rule), in the slat log
      // without I/O timed apart.
      if ((slat ? w.slat_ios[d] : w.ios[d]) == 0) continue;
      out.push_back(FioLogLine{w.end_ms, WindowValue(kind, w, d), static_cast<int>(d), 0, 0});
    }
  }
  return out;
}

void WriteFioLog(const std::vector<FioLogLine>& lines, bool offset, std::ostream& out) {
  fmt::memory_buffer buf;
  for (const FioLogLine& l : lines) {
    if (offset) {
      fmt::format_to(std::back_inserter(buf), "{}, {}, {}, {}, {}, 0\n", l.time_ms, l.value, l.dir,
                     l.bs, l.offset);
    } else {
      fmt::format_to(std::back_inserter(buf), "{}, {}, {}, {}, 0\n", l.time_ms, l.value, l.dir,
                     l.bs);
    }
    if (buf.size() > (size_t{1} << 16)) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  }
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

std::string FioLogFileName(const std::string& prefix, FioLogKind kind, int index) {
  return fmt::format("{}_{}.{}.log", prefix, FioLogKindName(kind), index);
}

bool LooksLikeFioLogLine(const std::string& line) {
  int fields = 0;
  size_t i = 0;
  while (i < line.size()) {
    const size_t start = i;
    while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) != 0) ++i;
    if (i == start) return false;
    ++fields;
    if (i == line.size() || line[i] == '\r') break;
    if (line[i] != ',') return false;
    ++i;
    if (i < line.size() && line[i] == ' ') ++i;
  }
  return fields >= 4 && fields <= 6;
}

}  // namespace loadcell
