// The comparability of two saved results (cli/commands/comparability.h):
// each fact that differs is named with both values, a fact one side does
// not record is "not recorded" and never a difference, and the noise rule
// wants 3 runs each.

#include "cli/commands/comparability.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace loadcell {
namespace {

// A fileio-like result: one buffered sync target, a verdict with a cache
// warning, the database check absent.
ResultData FileResult(const std::string& source = "a.json") {
  ResultData r;
  r.source = source;
  r.manifest.test = "fileio";
  r.manifest.tool_version = "1.0.0";
  r.manifest.system.kernel = "Linux 6.1.0";
  r.manifest.targets_recorded = true;
  TargetManifest t;
  t.engine = "sync";
  t.direct = false;
  t.block_bytes = 16384;
  t.queue_depth_asked = 1;
  t.queue_depth = 1;
  t.write_pattern = "random";
  t.file_set_bytes = 8u << 20;
  t.file_system = "ext4";
  t.mount_options = "rw,relatime";
  r.manifest.targets.push_back(t);
  r.events_per_second = 1000;
  return r;
}

std::string Names(const Comparability& c) {
  std::string out;
  for (const FactDifference& d : c.differences) out += (out.empty() ? "" : ",") + d.name;
  return out;
}

TEST(Comparability, IdenticalResultsAreComparable) {
  const Comparability c = CompareFacts(FileResult(), FileResult("b.json"));
  EXPECT_TRUE(c.comparable());
  EXPECT_TRUE(c.differences.empty());
  EXPECT_TRUE(c.not_recorded.empty());
  EXPECT_EQ(ComparabilityText(c), "comparable");
}

struct FactCase {
  const char* fact;
  void (*change)(ResultData& r);
  const char* a;
  const char* b;
};

const FactCase kFactCases[] = {
    {"engine", [](ResultData& r) { r.manifest.targets[0].engine = "io_uring"; }, "sync",
     "io_uring"},
    {"caching", [](ResultData& r) { r.manifest.targets[0].direct = true; }, "buffered", "direct"},
    {"block size", [](ResultData& r) { r.manifest.targets[0].block_bytes = 4096; }, "16 KiB",
     "4 KiB"},
    {"queue depth",
     [](ResultData& r) {
       r.manifest.targets[0].queue_depth_asked = 32;
       r.manifest.targets[0].queue_depth = 32;
     },
     "1", "32"},
    {"write data", [](ResultData& r) { r.manifest.targets[0].write_pattern = "zero"; }, "random",
     "zero"},
    {"file set size", [](ResultData& r) { r.manifest.targets[0].file_set_bytes = 1u << 30; },
     "8 MiB", "1 GiB"},
    {"tool version", [](ResultData& r) { r.manifest.tool_version = "1.1.0"; }, "1.0.0", "1.1.0"},
    {"kernel", [](ResultData& r) { r.manifest.system.kernel = "Linux 6.8.0"; }, "Linux 6.1.0",
     "Linux 6.8.0"},
    {"file system", [](ResultData& r) { r.manifest.targets[0].file_system = "xfs"; }, "ext4",
     "xfs"},
    {"mount options",
     [](ResultData& r) { r.manifest.targets[0].mount_options = "rw,noatime,nobarrier"; },
     "rw,relatime", "rw,noatime,nobarrier"},
};

TEST(Comparability, EachFactThatDiffersIsNamedWithBothValues) {
  for (const FactCase& f : kFactCases) {
    SCOPED_TRACE(f.fact);
    ResultData b = FileResult("b.json");
    f.change(b);
    const Comparability c = CompareFacts(FileResult(), b);
    ASSERT_EQ(c.differences.size(), 1u) << Names(c);
    EXPECT_EQ(c.differences[0].name, f.fact);
    EXPECT_EQ(c.differences[0].a, f.a);
    EXPECT_EQ(c.differences[0].b, f.b);
    EXPECT_FALSE(c.comparable());
    EXPECT_TRUE(c.not_recorded.empty());
    EXPECT_EQ(ComparabilityText(c),
              std::string("not comparable: ") + f.fact + " " + f.a + " vs " + f.b);
  }
}

TEST(Comparability, AnEngineThatRanAnotherDepthSaysSo) {
  ResultData a = FileResult();
  a.manifest.targets[0].queue_depth_asked = 32;  // sync ran 1
  ResultData b = FileResult("b.json");
  b.manifest.targets[0].engine = "io_uring";
  b.manifest.targets[0].queue_depth_asked = 32;
  b.manifest.targets[0].queue_depth = 32;
  const Comparability c = CompareFacts(a, b);
  EXPECT_EQ(ComparabilityText(c),
            "not comparable: engine sync vs io_uring, queue depth 32 (ran 1) vs 32");
}

TEST(Comparability, SeveralDifferencesInTheListsOrder) {
  ResultData b = FileResult("b.json");
  b.manifest.targets[0].engine = "io_uring";
  b.manifest.targets[0].direct = true;
  EXPECT_EQ(ComparabilityText(CompareFacts(FileResult(), b)),
            "not comparable: engine sync vs io_uring, caching buffered vs direct");
}

TEST(Comparability, AResultWithoutTargetsIsNotRecordedNotADifference) {
  ResultData old = FileResult("old.json");
  old.manifest.targets.clear();
  old.manifest.targets_recorded = false;  // written before targets were saved
  for (const bool old_first : {true, false}) {
    const Comparability c =
        old_first ? CompareFacts(old, FileResult()) : CompareFacts(FileResult(), old);
    EXPECT_TRUE(c.comparable()) << Names(c);
    EXPECT_EQ(c.not_recorded, (std::vector<std::string>{
                                  "engine", "caching", "block size", "queue depth", "write data",
                                  "file set size", "file system", "mount options"}));
  }
}

TEST(Comparability, AFactTheSystemDidNotGiveIsNotRecorded) {
  ResultData b = FileResult("b.json");
  b.manifest.targets[0].mount_options = "";  // e.g. Windows: no mount table
  b.manifest.system.kernel = "";
  const Comparability c = CompareFacts(FileResult(), b);
  EXPECT_TRUE(c.comparable()) << Names(c);
  EXPECT_EQ(c.not_recorded, (std::vector<std::string>{"kernel", "mount options"}));
}

TEST(Comparability, FactsOfFilesDoNotConcernATestWithout) {
  ResultData cpu;
  cpu.manifest.test = "cpu";
  cpu.manifest.tool_version = "1.0.0";
  cpu.manifest.system.kernel = "Linux 6.1.0";
  cpu.manifest.targets_recorded = true;
  ResultData old_cpu = cpu;
  old_cpu.manifest.targets_recorded = false;
  for (const ResultData* b : {&cpu, &old_cpu}) {
    const Comparability c = CompareFacts(cpu, *b);
    EXPECT_TRUE(c.comparable()) << Names(c);
    EXPECT_TRUE(c.not_recorded.empty());
  }
}

// The database check's cache_bytes figure, as a saved verdict holds it.
void AddDatabaseCheck(ResultData& r, double cache_bytes) {
  r.validity.judged = true;
  CheckOutcome c;
  c.id = "database";
  c.figures = {{"data_bytes", 1e9}, {"cache_bytes", cache_bytes}};
  r.validity.checks.push_back(c);
}

TEST(Comparability, TheDatabaseCacheFromTheVerdict) {
  ResultData a, b, unjudged;
  for (ResultData* r : {&a, &b, &unjudged}) {
    r->manifest.test = "oltp_read_only";
    r->manifest.tool_version = "1.0.0";
    r->manifest.system.kernel = "Linux 6.1.0";
    r->manifest.targets_recorded = true;
    r->manifest.options.push_back({"oltp_read_only", "db-driver", "pgsql", false});
    r->manifest.database_settings = {{"server", "PostgreSQL 16.4"}};
  }
  AddDatabaseCheck(a, 128.0 * (1 << 20));
  AddDatabaseCheck(b, 1024.0 * (1 << 20));
  EXPECT_EQ(ComparabilityText(CompareFacts(a, b)),
            "not comparable: database cache 128 MiB vs 1 GiB");
  EXPECT_TRUE(CompareFacts(a, a).comparable());
  // --verdict=off on one side: not recorded there, not a difference.
  const Comparability c = CompareFacts(a, unjudged);
  EXPECT_TRUE(c.comparable());
  EXPECT_EQ(c.not_recorded, (std::vector<std::string>{"database cache"}));
  // Judged, but the sizes could not be read: not recorded either.
  ResultData unread = a;
  unread.validity.checks[0].level = CheckLevel::kNotChecked;
  unread.validity.checks[0].figures.clear();
  EXPECT_EQ(CompareFacts(a, unread).not_recorded, (std::vector<std::string>{"database cache"}));
  // A test without a database: nothing to compare, judged or not.
  ResultData cpu_a, cpu_b;
  cpu_a.manifest.tool_version = cpu_b.manifest.tool_version = "1.0.0";
  cpu_a.manifest.system.kernel = cpu_b.manifest.system.kernel = "Linux 6.1.0";
  cpu_a.manifest.targets_recorded = cpu_b.manifest.targets_recorded = true;
  cpu_a.validity.judged = true;
  const Comparability none = CompareFacts(cpu_a, cpu_b);
  EXPECT_TRUE(none.comparable());
  EXPECT_TRUE(none.not_recorded.empty());
}

// An OLTP result on PostgreSQL with its server's settings in the manifest,
// judged without the database check (its cache is no fact here).
ResultData PgResult() {
  ResultData r;
  r.validity.judged = true;
  r.manifest.test = "oltp_read_write";
  r.manifest.tool_version = "1.0.0";
  r.manifest.system.kernel = "Linux 6.1.0";
  r.manifest.targets_recorded = true;
  r.manifest.options.push_back({"oltp_read_write", "db-driver", "pgsql", false});
  r.manifest.database_settings = {{"server", "PostgreSQL 16.4"},
                                  {"default_transaction_isolation", "read committed"},
                                  {"fsync", "on"},
                                  {"synchronous_commit", "on"},
                                  {"full_page_writes", "on"}};
  return r;
}

// Every setting that differs is named, in the order A records them, in the
// one comparability list, after the other facts.
TEST(Comparability, EveryDifferingDatabaseSettingIsNamed) {
  const ResultData a = PgResult();
  ResultData b = PgResult();
  EXPECT_TRUE(CompareFacts(a, b).comparable());
  b.manifest.database_settings[0].second = "PostgreSQL 17.2";
  b.manifest.database_settings[3].second = "off";
  b.manifest.database_settings[1].second = "repeatable read";
  ResultData a_judged = a;
  AddDatabaseCheck(a_judged, 128.0 * (1 << 20));
  AddDatabaseCheck(b, 1024.0 * (1 << 20));
  const Comparability c = CompareFacts(a_judged, b);
  EXPECT_EQ(ComparabilityText(c),
            "not comparable: database cache 128 MiB vs 1 GiB, database server PostgreSQL 16.4 vs "
            "PostgreSQL 17.2, default_transaction_isolation read committed vs repeatable read, "
            "synchronous_commit on vs off");
  EXPECT_TRUE(c.not_recorded.empty()) << Names(c);
}

// A setting only one server has (MariaDB against PostgreSQL) is not a
// difference of its own: the server's is named. A database test that
// records no settings (written before they were, or a Lua script's run):
// "not recorded", never a difference; a test without a database: nothing.
TEST(Comparability, DatabaseSettingsOneSideDoesNotRecord) {
  const ResultData a = PgResult();
  ResultData maria = PgResult();
  maria.manifest.database_settings = {{"server", "5.5.5-10.11.6-MariaDB"},
                                      {"transaction_isolation", "REPEATABLE-READ"},
                                      {"innodb_flush_log_at_trx_commit", "1"}};
  EXPECT_EQ(ComparabilityText(CompareFacts(a, maria)),
            "not comparable: database server PostgreSQL 16.4 vs 5.5.5-10.11.6-MariaDB");
  ResultData old = PgResult();
  old.manifest.database_settings.clear();
  for (const Comparability& c : {CompareFacts(a, old), CompareFacts(old, a)}) {
    EXPECT_TRUE(c.comparable()) << Names(c);
    EXPECT_EQ(c.not_recorded, (std::vector<std::string>{"database settings"}));
  }
  ResultData cpu = FileResult();
  cpu.manifest.targets.clear();
  const Comparability none = CompareFacts(cpu, cpu);
  EXPECT_TRUE(none.comparable());
  EXPECT_TRUE(none.not_recorded.empty()) << Names(none);
  // A saved value's control bytes stay escaped, as every fact's.
  ResultData hostile = PgResult();
  hostile.manifest.database_settings[2].second = "on\nOverall: comparable";
  const Comparability h = CompareFacts(a, hostile);
  ASSERT_EQ(h.differences.size(), 1u);
  EXPECT_EQ(h.differences[0].name, "fsync");
  EXPECT_EQ(h.differences[0].b, "on\\x0aOverall: comparable");
}

TEST(Comparability, ValuesOfASavedResultAreCut) {
  ResultData b = FileResult("b.json");
  b.manifest.targets[0].engine = std::string(1000, 'e');
  const Comparability c = CompareFacts(FileResult(), b);
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0].b, std::string(64, 'e') + "...");
  // A line break in a saved value never starts a line of its own.
  b.manifest.targets[0].engine = "sync\nOverall: comparable";
  const Comparability broken = CompareFacts(FileResult(), b);
  ASSERT_EQ(broken.differences.size(), 1u);
  EXPECT_EQ(broken.differences[0].b, "sync\\x0aOverall: comparable");
  Validity v;
  v.judged = true;
  v.checks.push_back({"cache\x1b[2J", CheckLevel::kWarn, "", "", {}});
  EXPECT_EQ(ValidityText(v), "valid with warnings (1): cache\\x1b[2J (WARN)");
}

TEST(Comparability, NoiseWantsThreeRunsEachSide) {
  // Ranges apart, but two runs a side: too few.
  EXPECT_EQ(NoiseVerdict(2, 100, 101, 2, 200, 201), kTooFewRuns);
  EXPECT_EQ(NoiseVerdict(1, 100, 100, 3, 200, 201), kTooFewRuns);
  EXPECT_EQ(NoiseVerdict(3, 100, 101, 2, 200, 201), kTooFewRuns);
  EXPECT_EQ(NoiseVerdict(3, 100, 101, 3, 200, 201), "beyond spread");
  EXPECT_EQ(NoiseVerdict(3, 100, 101, 3, 50, 60), "beyond spread");
  EXPECT_EQ(NoiseVerdict(3, 100, 150, 4, 140, 201), "within spread");
}

TEST(Comparability, ValidityTextNamesTheChecksThatDidNotPass) {
  Validity v;
  EXPECT_EQ(ValidityText(v), "not judged");
  v.judged = true;
  EXPECT_EQ(ValidityText(v), "valid");
  v.checks.push_back({"samples", CheckLevel::kWarn, "", "", {}});
  v.checks.push_back({"cache", CheckLevel::kInvalid, "", "", {}});
  v.checks.push_back({"errors", CheckLevel::kPass, "", "", {}});
  v.checks.push_back({"device-reads", CheckLevel::kNotChecked, "", "", {}});
  EXPECT_EQ(ValidityText(v),
            "INVALID (1): cache (INVALID), samples (WARN), device-reads (not checked)");
}

std::vector<std::vector<ResultData>> Groups(std::vector<ResultData> a, std::vector<ResultData> b) {
  return {std::move(a), std::move(b)};
}

TEST(Comparability, TheVerdictBlockOfSingleRuns) {
  ResultData a = FileResult("a.json");
  a.validity.judged = true;
  ResultData b = FileResult("b.json");
  b.manifest.targets[0].direct = true;
  b.validity.judged = true;
  b.validity.checks.push_back({"cache", CheckLevel::kInvalid, "", "", {}});
  const auto groups = Groups({a}, {b});
  const ComparisonVerdict v = JudgeComparison(groups);
  const std::string text = ComparisonVerdictText(groups, v);
  EXPECT_NE(text.find("  B: not comparable: caching buffered vs direct\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  B vs A: too few runs to call a difference (1 and 1 runs)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  A (a.json): valid\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  B (b.json): INVALID (1): cache (INVALID)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Overall: not comparable (B); too few runs to call a difference; "
                      "INVALID: B\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(ComparisonVerdictCsv(groups[1], 1, v),
            "no,caching buffered vs direct,too few runs to call a difference,invalid,"
            "cache:invalid");
  EXPECT_EQ(ComparisonVerdictCsv(groups[0], 0, v), ",,,valid,");
}

TEST(Comparability, TheVerdictBlockOfThreeRunsEach) {
  std::vector<ResultData> a, b;
  for (int i = 0; i < 3; ++i) {
    a.push_back(FileResult("a" + std::to_string(i) + ".json"));
    a.back().events_per_second = 1000 + i;
    a.back().validity.judged = true;
    b.push_back(FileResult("b" + std::to_string(i) + ".json"));
    b.back().events_per_second = 2000 + i;
    b.back().validity.judged = true;
  }
  // The third run of B ran another engine than its first.
  b[2].manifest.targets[0].engine = "mmap";
  const auto groups = Groups(a, b);
  const ComparisonVerdict v = JudgeComparison(groups);
  EXPECT_EQ(v.noise[1], "beyond spread");
  EXPECT_TRUE(v.against_a[1].comparable());
  ASSERT_EQ(v.within[1].size(), 1u);
  EXPECT_EQ(v.within[1][0].first, 2u);
  const std::string text = ComparisonVerdictText(groups, v);
  EXPECT_NE(text.find("  B: comparable\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  B run 3 against B run 1: not comparable: engine sync vs mmap\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Overall: not comparable (B); B beyond spread; every result valid\n"),
            std::string::npos)
      << text;
}

TEST(Comparability, GroupLabels) {
  EXPECT_EQ(GroupLabel(0), "A");
  EXPECT_EQ(GroupLabel(25), "Z");
  EXPECT_EQ(GroupLabel(26), "AA");
  EXPECT_EQ(GroupLabel(27), "AB");
}

}  // namespace
}  // namespace loadcell
