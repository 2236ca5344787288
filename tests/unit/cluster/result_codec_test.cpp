#include "cluster/result_codec.h"

#include <gtest/gtest.h>

#include "testing/status.h"
#include "unit/cluster/rank_fixture.h"

namespace loadcell {
namespace {

using testing::MakeRank;

// A rank result using every field the codec carries.
RankResult Rich() {
  RankResult r = MakeRank(3, {100, 200, 300000, 7'000'000'000}, 2, -5, 123456789, 4);
  r.result.latency.push_back(LatencyStats{"read", {}});
  r.result.latency[1].histogram.Record(42);
  r.result.service = LatencyStats{"service", {}};
  r.result.service->histogram.Record(77);
  r.result.counters = {1, 0, 99};
  r.result.failure = Status::IoError("disk on fire", 5);
  r.result.interrupted = true;
  r.result.forced_shutdown = true;
  r.result.abandoned_threads = {1};
  r.result.rate = RateFigures{400, 390.5, 7, 12.5, 3.25};
  r.stopped_by_cluster = true;
  r.result.paused_s = 3.5;  // a rank that was stopped for a while
  r.result.pauses = 2;
  return r;
}

void ExpectSameHistogram(const LatencyHistogram& a, const LatencyHistogram& b) {
  EXPECT_EQ(a.buckets(), b.buckets());
  EXPECT_EQ(a.Count(), b.Count());
  EXPECT_EQ(a.Min(), b.Min());
  EXPECT_EQ(a.Max(), b.Max());
  EXPECT_EQ(a.moments().sum, b.moments().sum);
  EXPECT_EQ(a.moments().sum_sq, b.moments().sum_sq);
}

TEST(RankResultCodec, RoundTripsEveryMergeableField) {
  const RankResult in = Rich();
  Result<RankResult> out = DecodeRankResult(EncodeRankResult(in));
  ASSERT_OK(out);
  EXPECT_EQ(out->rank.rank, 3);
  EXPECT_EQ(out->rank.host, in.rank.host);
  EXPECT_EQ(out->rank.threads, 2);
  EXPECT_EQ(out->rank.clock_offset_s, in.rank.clock_offset_s);
  EXPECT_EQ(out->round_trip_s, in.round_trip_s);
  EXPECT_TRUE(out->stopped_by_cluster);
  const RunResult& a = in.result;
  const RunResult& b = out->result;
  EXPECT_EQ(b.window_start_ns, -5);
  EXPECT_EQ(b.window_end_ns, 123456789);
  EXPECT_EQ(b.total_time_s, a.total_time_s);
  EXPECT_EQ(b.events, a.events);
  EXPECT_EQ(b.errors, 4u);
  ASSERT_EQ(b.latency.size(), 2u);
  EXPECT_EQ(b.latency[1].kind, "read");
  for (size_t k = 0; k < 2; ++k)
    ExpectSameHistogram(a.latency[k].histogram, b.latency[k].histogram);
  ASSERT_TRUE(b.service.has_value());
  ExpectSameHistogram(a.service->histogram, b.service->histogram);
  ASSERT_EQ(b.threads.size(), 2u);
  for (size_t t = 0; t < 2; ++t) {
    EXPECT_EQ(b.threads[t].events, a.threads[t].events);
    EXPECT_EQ(b.threads[t].exec_time_s, a.threads[t].exec_time_s);
    EXPECT_EQ(b.threads[t].busy_time_s, a.threads[t].busy_time_s);
  }
  EXPECT_EQ(b.counters, a.counters);
  EXPECT_EQ(b.failure.code(), StatusCode::kIoError);
  EXPECT_EQ(b.failure.err(), 5);
  EXPECT_EQ(b.failure.message(), "disk on fire");
  EXPECT_TRUE(b.interrupted);
  EXPECT_TRUE(b.forced_shutdown);
  EXPECT_EQ(b.abandoned_threads, std::vector<int>{1});
  ASSERT_TRUE(b.rate.has_value());
  EXPECT_EQ(b.rate->target, 400);
  EXPECT_EQ(b.rate->achieved, 390.5);
  EXPECT_EQ(b.rate->late_events, 7u);
  EXPECT_EQ(b.rate->max_lag_ms, 12.5);
  EXPECT_EQ(b.rate->final_lag_ms, 3.25);
  EXPECT_EQ(b.paused_s, 3.5);
  EXPECT_EQ(b.pauses, 2);
}

TEST(RankResultCodec, AnOkResultStaysOk) {
  Result<RankResult> out = DecodeRankResult(EncodeRankResult(MakeRank(0, {1}, 1, 0, 1)));
  ASSERT_OK(out);
  EXPECT_TRUE(out->result.failure.ok());
  EXPECT_FALSE(out->result.service.has_value());
  EXPECT_FALSE(out->result.rate.has_value());
}

TEST(RankResultCodec, RefusesDamagedBytes) {
  const std::string good = EncodeRankResult(Rich());
  // Every truncation.
  for (size_t n = 0; n < good.size(); ++n) {
    Result<RankResult> out = DecodeRankResult(std::string_view(good).substr(0, n));
    ASSERT_FALSE(out.ok()) << n << " of " << good.size() << " bytes";
    EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  }
  struct Case {
    const char* name;
    std::string bytes;
    const char* says;
  };
  std::string other_version = good;
  other_version[4] = static_cast<char>(kRankResultVersion + 1);
  std::string not_ours = good;
  not_ours[0] = 'X';
  const std::vector<Case> cases = {
      {"version", other_version, "format version 4, not 3"},
      {"magic", not_ours, "not a loadcell rank result"},
      {"trailing", good + "x", "trailing bytes"},
  };
  for (const Case& c : cases) {
    Result<RankResult> out = DecodeRankResult(c.bytes);
    ASSERT_FALSE(out.ok()) << c.name;
    EXPECT_NE(out.status().message().find(c.says), std::string::npos)
        << c.name << ": " << out.status().message();
  }
}

TEST(IntervalCodec, RoundTripsTheRawFiguresAndRefusesDamagedBytes) {
  IntervalSnapshot in;
  in.t_end_s = 3;
  in.duration_s = 1.002;
  in.threads = 4;
  in.events = 1234;
  in.errors = 2;
  in.latency = {LatencyStats{"event", {}}, LatencyStats{"read", {}}};
  in.latency[0].histogram.Record(1000);
  in.latency[0].histogram.Record(5'000'000);
  in.latency[1].histogram.Record(7);
  in.counters = {5, 0, 8};
  in.queue = 3;
  in.concurrency = 9;
  const std::string bytes = EncodeInterval(in);
  Result<IntervalSnapshot> out = DecodeInterval(bytes);
  ASSERT_OK(out);
  EXPECT_EQ(out->t_end_s, 3);
  EXPECT_EQ(out->duration_s, 1.002);
  EXPECT_EQ(out->threads, 4);
  EXPECT_EQ(out->events, 1234u);
  EXPECT_EQ(out->errors, 2u);
  ASSERT_EQ(out->latency.size(), 2u);
  EXPECT_EQ(out->latency[1].kind, "read");
  for (size_t k = 0; k < 2; ++k)
    ExpectSameHistogram(in.latency[k].histogram, out->latency[k].histogram);
  EXPECT_EQ(out->counters, in.counters);
  EXPECT_EQ(out->queue, 3u);
  EXPECT_EQ(out->concurrency, 9u);
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeInterval(std::string_view(bytes).substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(DecodeInterval(bytes + "x").ok());
  // A rank result is not an interval.
  EXPECT_FALSE(DecodeInterval(EncodeRankResult(Rich())).ok());
}

TEST(RankRunsCodec, SeveralRunsWithTheirIntervalsRoundTripAndDamageIsRefused) {
  std::vector<RankRun> in(3);
  in[0].result = Rich();
  in[1].result = MakeRank(3, {5, 6}, 1, 0, 1000, 0);
  in[1].intervals.resize(2);
  in[1].intervals[0].t_end_s = 0.5;
  in[1].intervals[0].events = 7;
  in[1].intervals[0].counters = {1, 2};
  in[1].intervals[1].t_end_s = 1;
  in[1].intervals[1].latency = {LatencyStats{"event", {}}};
  in[1].intervals[1].latency[0].histogram.Record(900);
  in[2].result = MakeRank(3, {}, 1, 0, 0, 0);
  const std::string bytes = EncodeRankRuns(in);
  Result<std::vector<RankRun>> out = DecodeRankRuns(bytes);
  ASSERT_OK(out);
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[0].result.result.failure.message(), "disk on fire");
  EXPECT_TRUE((*out)[0].intervals.empty());
  EXPECT_EQ((*out)[1].result.result.events, in[1].result.result.events);
  ASSERT_EQ((*out)[1].intervals.size(), 2u);
  EXPECT_EQ((*out)[1].intervals[0].events, 7u);
  EXPECT_EQ((*out)[1].intervals[0].counters, in[1].intervals[0].counters);
  ASSERT_EQ((*out)[1].intervals[1].latency.size(), 1u);
  ExpectSameHistogram(in[1].intervals[1].latency[0].histogram,
                      (*out)[1].intervals[1].latency[0].histogram);
  EXPECT_EQ((*out)[2].result.result.events, 0u);
  for (size_t n = 0; n < bytes.size(); n += 7) {
    EXPECT_FALSE(DecodeRankRuns(std::string_view(bytes).substr(0, n)).ok()) << n;
  }
  EXPECT_FALSE(DecodeRankRuns(bytes + "x").ok());
  // One rank result is not a set of runs, nor the other way round.
  EXPECT_FALSE(DecodeRankRuns(EncodeRankResult(Rich())).ok());
  EXPECT_FALSE(DecodeRankResult(bytes).ok());
}

}  // namespace
}  // namespace loadcell
