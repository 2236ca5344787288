#include "cluster/result_codec.h"

#include <fmt/format.h>

#include <cstring>
#include <type_traits>

namespace loadcell {
namespace {

constexpr char kMagic[4] = {'L', 'C', 'R', 'R'};
constexpr char kIntervalMagic[4] = {'L', 'C', 'R', 'I'};
constexpr char kRunsMagic[4] = {'L', 'C', 'R', 'B'};

// Appends plain values and length-prefixed strings.
class Writer {
 public:
  template <typename T>
  void Put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    out_.append(reinterpret_cast<const char*>(&v), sizeof(T));
  }
  void PutString(std::string_view s) {
    Put<uint64_t>(s.size());
    out_.append(s);
  }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

// Reads what Writer wrote; the first short read makes ok() false and every
// later read return zeros.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}
  template <typename T>
  T Get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v{};
    if (!Need(sizeof(T))) return v;
    std::memcpy(&v, in_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string GetString() {
    const auto n = Get<uint64_t>();
    if (!Need(n)) return {};
    std::string s(in_.substr(pos_, n));
    pos_ += n;
    return s;
  }
  // A count of items of at least `item_size` bytes each: 0 (and not ok)
  // when the rest cannot hold that many.
  uint64_t GetCount(size_t item_size) {
    const auto n = Get<uint64_t>();
    if (n > (in_.size() - pos_) / item_size) {
      ok_ = false;
      return 0;
    }
    return n;
  }
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool Need(uint64_t n) {
    if (ok_ && n <= in_.size() - pos_) return true;
    ok_ = false;
    return false;
  }
  std::string_view in_;
  size_t pos_ = 0;
  bool ok_ = true;
};

void PutHistogram(Writer& w, const LatencyHistogram& h) {
  const Moments& m = h.moments();
  w.Put(m.count);
  w.Put(m.min);
  w.Put(m.max);
  w.Put(m.sum);
  w.Put(m.sum_sq);
  const std::vector<uint64_t>& b = h.buckets();
  uint64_t occupied = 0;
  for (uint64_t c : b) occupied += c != 0 ? 1 : 0;
  w.Put(occupied);
  for (size_t i = 0; i < b.size(); ++i) {
    if (b[i] == 0) continue;
    w.Put<uint32_t>(static_cast<uint32_t>(i));
    w.Put(b[i]);
  }
}

bool GetHistogram(Reader& r, LatencyHistogram& h) {
  Moments& m = h.mutable_moments();
  m.count = r.Get<uint64_t>();
  m.min = r.Get<uint64_t>();
  m.max = r.Get<uint64_t>();
  m.sum = r.Get<double>();
  m.sum_sq = r.Get<double>();
  const uint64_t occupied = r.GetCount(sizeof(uint32_t) + sizeof(uint64_t));
  std::vector<uint64_t>& b = h.mutable_buckets();
  for (uint64_t k = 0; k < occupied; ++k) {
    const auto i = r.Get<uint32_t>();
    const auto c = r.Get<uint64_t>();
    if (i >= b.size()) return false;
    b[i] = c;
  }
  return r.ok();
}

void PutLatency(Writer& w, const std::vector<LatencyStats>& latency) {
  w.Put<uint64_t>(latency.size());
  for (const LatencyStats& l : latency) {
    w.PutString(l.kind);
    PutHistogram(w, l.histogram);
  }
}

bool GetLatency(Reader& r, std::vector<LatencyStats>& latency) {
  latency.resize(r.GetCount(sizeof(uint64_t)));
  for (LatencyStats& l : latency) {
    l.kind = r.GetString();
    if (!GetHistogram(r, l.histogram)) return false;
  }
  return r.ok();
}

void PutCounters(Writer& w, const std::vector<uint64_t>& counters) {
  w.Put<uint64_t>(counters.size());
  for (uint64_t c : counters) w.Put(c);
}

void GetCounters(Reader& r, std::vector<uint64_t>& counters) {
  counters.resize(r.GetCount(sizeof(uint64_t)));
  for (uint64_t& c : counters) c = r.Get<uint64_t>();
}

// Checks the magic and the version at the front of `r`.
Status GetHeader(Reader& r, const char (&magic)[4], const char* what) {
  for (char c : magic) {
    if (r.Get<char>() != c) {
      return Status::InvalidArgument(fmt::format("a rank's {0} is not a loadcell rank {0}", what));
    }
  }
  if (const auto v = r.Get<uint32_t>(); v != kRankResultVersion) {
    return Status::InvalidArgument(
        fmt::format("a rank's {} has format version {}, not {} (every rank must run the same "
                    "loadcell)",
                    what, v, kRankResultVersion));
  }
  return Status::Ok();
}

void PutResult(Writer& w, const RunResult& x) {
  w.Put(x.window_start_ns);
  w.Put(x.window_end_ns);
  w.Put(x.total_time_s);
  w.Put(x.events);
  w.Put(x.errors);
  PutLatency(w, x.latency);
  w.Put<uint8_t>(x.service ? 1 : 0);
  if (x.service) PutHistogram(w, x.service->histogram);
  w.Put<uint64_t>(x.threads.size());
  for (const ThreadFigures& t : x.threads) {
    w.Put(t.events);
    w.Put(t.exec_time_s);
    w.Put(t.busy_time_s);
  }
  PutCounters(w, x.counters);
  w.Put(static_cast<int32_t>(x.failure.code()));
  w.Put<int32_t>(x.failure.err());
  w.PutString(x.failure.message());
  w.Put<uint8_t>(x.interrupted ? 1 : 0);
  w.Put<uint8_t>(x.forced_shutdown ? 1 : 0);
  w.Put<uint64_t>(x.abandoned_threads.size());
  for (int t : x.abandoned_threads) w.Put<int32_t>(t);
  w.Put<uint8_t>(x.rate ? 1 : 0);
  if (x.rate) {
    w.Put(x.rate->target);
    w.Put(x.rate->achieved);
    w.Put(x.rate->late_events);
    w.Put(x.rate->max_lag_ms);
    w.Put(x.rate->final_lag_ms);
  }
  w.Put(x.paused_s);
  w.Put<int32_t>(x.pauses);
}

bool GetResult(Reader& r, RunResult& x) {
  x.window_start_ns = r.Get<int64_t>();
  x.window_end_ns = r.Get<int64_t>();
  x.total_time_s = r.Get<double>();
  x.events = r.Get<uint64_t>();
  x.errors = r.Get<uint64_t>();
  if (!GetLatency(r, x.latency)) return false;
  if (r.Get<uint8_t>() != 0) {
    x.service.emplace();
    x.service->kind = "service";
    if (!GetHistogram(r, x.service->histogram)) return false;
  }
  x.threads.resize(r.GetCount(3 * sizeof(uint64_t)));
  for (ThreadFigures& t : x.threads) {
    t.events = r.Get<uint64_t>();
    t.exec_time_s = r.Get<double>();
    t.busy_time_s = r.Get<double>();
  }
  GetCounters(r, x.counters);
  const auto code = static_cast<StatusCode>(r.Get<int32_t>());
  const auto err = r.Get<int32_t>();
  std::string message = r.GetString();
  if (code != StatusCode::kOk) x.failure = Status(code, std::move(message), err);
  x.interrupted = r.Get<uint8_t>() != 0;
  x.forced_shutdown = r.Get<uint8_t>() != 0;
  x.abandoned_threads.resize(r.GetCount(sizeof(int32_t)));
  for (int& t : x.abandoned_threads) t = r.Get<int32_t>();
  if (r.Get<uint8_t>() != 0) {
    RateFigures& rf = x.rate.emplace();
    rf.target = r.Get<double>();
    rf.achieved = r.Get<double>();
    rf.late_events = r.Get<uint64_t>();
    rf.max_lag_ms = r.Get<double>();
    rf.final_lag_ms = r.Get<double>();
  }
  x.paused_s = r.Get<double>();
  x.pauses = r.Get<int32_t>();
  return r.ok();
}

}  // namespace

std::string EncodeRankResult(const RankResult& r) {
  Writer w;
  for (char c : kMagic) w.Put(c);
  w.Put(kRankResultVersion);
  w.Put<int32_t>(r.rank.rank);
  w.PutString(r.rank.host);
  w.Put<int32_t>(r.rank.threads);
  w.Put(r.rank.clock_offset_s);
  w.Put(r.round_trip_s);
  w.Put<uint8_t>(r.stopped_by_cluster ? 1 : 0);
  PutResult(w, r.result);
  return w.Take();
}

Result<RankResult> DecodeRankResult(std::string_view bytes) {
  Reader r(bytes);
  LC_RETURN_IF_ERROR(GetHeader(r, kMagic, "result"));
  RankResult out;
  out.rank.rank = r.Get<int32_t>();
  out.rank.host = r.GetString();
  out.rank.threads = r.Get<int32_t>();
  out.rank.clock_offset_s = r.Get<double>();
  out.round_trip_s = r.Get<double>();
  out.stopped_by_cluster = r.Get<uint8_t>() != 0;
  if (!GetResult(r, out.result) || !r.ok()) {
    return Status::InvalidArgument("a rank's result is truncated or damaged");
  }
  if (!r.at_end()) return Status::InvalidArgument("a rank's result has trailing bytes");
  return out;
}

std::string EncodeInterval(const IntervalSnapshot& iv) {
  Writer w;
  for (char c : kIntervalMagic) w.Put(c);
  w.Put(kRankResultVersion);
  w.Put(iv.t_end_s);
  w.Put(iv.duration_s);
  w.Put<int32_t>(iv.threads);
  w.Put(iv.events);
  w.Put(iv.errors);
  PutLatency(w, iv.latency);
  PutCounters(w, iv.counters);
  w.Put(iv.queue);
  w.Put(iv.concurrency);
  return w.Take();
}

Result<IntervalSnapshot> DecodeInterval(std::string_view bytes) {
  Reader r(bytes);
  LC_RETURN_IF_ERROR(GetHeader(r, kIntervalMagic, "interval"));
  IntervalSnapshot iv;
  iv.t_end_s = r.Get<double>();
  iv.duration_s = r.Get<double>();
  iv.threads = r.Get<int32_t>();
  iv.events = r.Get<uint64_t>();
  iv.errors = r.Get<uint64_t>();
  const bool latency_ok = GetLatency(r, iv.latency);
  GetCounters(r, iv.counters);
  iv.queue = r.Get<uint64_t>();
  iv.concurrency = r.Get<uint64_t>();
  if (!latency_ok || !r.ok()) {
    return Status::InvalidArgument("a rank's interval is truncated or damaged");
  }
  if (!r.at_end()) return Status::InvalidArgument("a rank's interval has trailing bytes");
  return iv;
}

std::string EncodeRankRuns(const std::vector<RankRun>& runs) {
  Writer w;
  for (char c : kRunsMagic) w.Put(c);
  w.Put(kRankResultVersion);
  w.Put<uint64_t>(runs.size());
  for (const RankRun& run : runs) {
    w.PutString(EncodeRankResult(run.result));
    w.Put<uint64_t>(run.intervals.size());
    for (const IntervalSnapshot& iv : run.intervals) w.PutString(EncodeInterval(iv));
  }
  return w.Take();
}

Result<std::vector<RankRun>> DecodeRankRuns(std::string_view bytes) {
  Reader r(bytes);
  LC_RETURN_IF_ERROR(GetHeader(r, kRunsMagic, "runs"));
  std::vector<RankRun> out(r.GetCount(sizeof(uint64_t)));
  for (RankRun& run : out) {
    LC_ASSIGN_OR_RETURN(run.result, DecodeRankResult(r.GetString()));
    run.intervals.resize(r.GetCount(sizeof(uint64_t)));
    for (IntervalSnapshot& iv : run.intervals) {
      LC_ASSIGN_OR_RETURN(iv, DecodeInterval(r.GetString()));
    }
  }
  if (!r.ok()) return Status::InvalidArgument("a rank's runs are truncated or damaged");
  if (!r.at_end()) return Status::InvalidArgument("a rank's runs have trailing bytes");
  return out;
}

}  // namespace loadcell
