// fio job files across MPI ranks: every rank runs every job (its files in
// the sub-folder rankN of the job's folder, or every rank on the same files
// with --mpi-files=shared), rank 0 prints fio's report of each job merged
// exactly across the ranks, with each rank's own figures in the job's
// "loadcell" object. Through the real binary under mpirun (testing/mpirun.h)
// and MPICH's mpiexec.

#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testing/mpirun.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
// Named, not anonymous: a unity build joins this file with the other MPI
// tests.
namespace mpi_fio {

namespace fs = std::filesystem;
using testing::CountOf;
using testing::ProcessResult;
using testing::RunMpi;
using testing::Show;
using testing::TempDir;
using testing::Tree;

// Two size-bound jobs in `dir`: a random read, then (a group of its own) a
// sequential write; `extra` goes into [global].
std::string JobFile(const TempDir& dir, const std::string& extra = "") {
  return dir.Write("job.fio", "[global]\ndirectory=" + dir.path() + "\nbs=4k\nioengine=psync\n" +
                                  extra +
                                  "[a]\nrw=randread\nsize=1m\n"
                                  "[b]\nstonewall\nrw=write\nsize=512k\n");
}

nlohmann::json Json(const ProcessResult& r) {
  return nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

std::set<std::string> Keys(const nlohmann::json& o) {
  std::set<std::string> out;
  for (auto it = o.begin(); it != o.end(); ++it) out.insert(it.key());
  return out;
}

// One process' run of the same jobs: what every rank does.
nlohmann::json SingleRun() {
  const TempDir dir;
  const ProcessResult r =
      testing::RunLoadcell({"fio", "--output-format=json", "--mpi=off", JobFile(dir)});
  EXPECT_EQ(r.exit_code, 0) << Show(r);
  return Json(r);
}

// The merged report of `ranks` ranks: each job's I/Os `ranks` times one
// process', in fio's fields (the same fields as one process' report), and
// each rank's own in loadcell's object.
void ExpectMerged(const ProcessResult& r, int ranks, const std::string& layout) {
  const nlohmann::json one = SingleRun();
  const nlohmann::json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  ASSERT_EQ(doc["jobs"].size(), 2u) << Show(r);
  ASSERT_EQ(one["jobs"].size(), 2u);
  std::set<std::string> top = Keys(one);
  top.insert("loadcell");
  EXPECT_EQ(Keys(doc), top);
  EXPECT_EQ(doc["loadcell"]["ranks"], ranks);
  EXPECT_EQ(doc["loadcell"]["mpi_files"], layout);
  for (size_t j = 0; j < 2; ++j) {
    const nlohmann::json& job = doc["jobs"][j];
    const nlohmann::json& alone = one["jobs"][j];
    SCOPED_TRACE(job["jobname"].get<std::string>());
    EXPECT_EQ(Keys(job), Keys(alone));
    EXPECT_EQ(Keys(job["read"]), Keys(alone["read"]));
    for (const char* dir : {"read", "write"}) {
      const uint64_t ios = alone[dir]["total_ios"].get<uint64_t>();
      EXPECT_EQ(job[dir]["total_ios"].get<uint64_t>(), ios * ranks) << dir;
      EXPECT_EQ(job[dir]["io_bytes"].get<uint64_t>(),
                alone[dir]["io_bytes"].get<uint64_t>() * ranks)
          << dir;
      // The histograms merged bucket for bucket: every rank's samples.
      EXPECT_EQ(job[dir]["clat_ns"]["N"].get<uint64_t>(), ios * ranks) << dir;
    }
    const nlohmann::json& rows = job["loadcell"]["ranks"];
    ASSERT_EQ(rows.size(), static_cast<size_t>(ranks)) << job["loadcell"].dump();
    for (int k = 0; k < ranks; ++k) {
      EXPECT_EQ(rows[k]["rank"], k);
      EXPECT_EQ(
          rows[k]["total_ios"].get<uint64_t>(),
          alone["read"]["total_ios"].get<uint64_t>() + alone["write"]["total_ios"].get<uint64_t>());
    }
  }
}

TEST(MpiFioTest, EveryRankRunsEveryJobOnItsOwnFilesMergedExactly) {
  const TempDir dir;
  const std::string job = JobFile(dir);
  const ProcessResult r = RunMpi(2, {"fio", "--output-format=json", job});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 2, "per-rank");
  std::set<std::string> expected = {"job.fio"};
  for (const char* sub : {"rank0", "rank1"}) {
    for (const char* f : {"", "/a.0.0", "/b.0.0", "/.loadcell-sqlio.manifest"}) {
      expected.insert(std::string(sub) + f);
    }
    EXPECT_EQ(fs::file_size(dir / (std::string(sub) + "/a.0.0")), 1u << 20) << sub;
    EXPECT_EQ(fs::file_size(dir / (std::string(sub) + "/b.0.0")), 512u << 10) << sub;
  }
  EXPECT_EQ(Tree(dir.path()), expected);

  // fio's text, once, from rank 0: each group's status line once.
  const ProcessResult text = RunMpi(2, {"fio", job});
  ASSERT_EQ(text.exit_code, 0) << Show(text);
  EXPECT_EQ(CountOf(text.out, "Starting 2 threads"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "Run status group 0 (all jobs):"), 1u) << Show(text);
  EXPECT_EQ(CountOf(text.out, "Run status group 1 (all jobs):"), 1u) << Show(text);
}

TEST(MpiFioTest, UnlinkRemovesEveryRanksFilesAndItsFolder) {
  const TempDir dir;
  const ProcessResult r = RunMpi(2, {"fio", "--output-format=json", JobFile(dir, "unlink=1\n")});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 2, "per-rank");  // both ranks' files were there, read and written
  EXPECT_EQ(Tree(dir.path()), std::set<std::string>{"job.fio"});
}

TEST(MpiFioTest, SharedFilesAreLaidOutOnceForEveryRank) {
  const TempDir dir;
  const ProcessResult r =
      RunMpi(2, {"fio", "--mpi-files=shared", "--output-format=json", JobFile(dir)});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 2, "shared");
  EXPECT_EQ(Tree(dir.path()),
            (std::set<std::string>{"job.fio", "a.0.0", "b.0.0", ".loadcell-sqlio.manifest"}));
}

TEST(MpiFioTest, MpichRunsTheSameJobs) {
  const TempDir dir;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  const ProcessResult r = testing::RunCommand(
      testing::MpichCommand(2, {"fio", "--output-format=json", JobFile(dir)}), watch);
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  ExpectMerged(r, 2, "per-rank");
}

// A rank's refusal is one line, rank 0's, naming the rank; nothing is laid
// out on any rank.
TEST(MpiFioTest, ARankWhoseFileIsNotLoadcellsIsOneLineNamingIt) {
  const TempDir dir;
  fs::create_directory(dir / "rank1");
  dir.Write("rank1/b.0.0", std::string(512 << 10, 'x'));
  const ProcessResult r = RunMpi(2, {"fio", JobFile(dir)});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_EQ(CountOf(r.err, "loadcell: error: "), 1u) << Show(r);
  EXPECT_EQ(r.err.find("loadcell: error: rank 1 ("), 0u) << Show(r);
  EXPECT_NE(r.err.find("job b writes to " + (dir / "rank1/b.0.0")), std::string::npos) << Show(r);
  EXPECT_FALSE(fs::exists(dir / "rank0")) << Show(r);
  EXPECT_EQ(fs::file_size(dir / "rank1/b.0.0"), 512u << 10);
}

// A rank's folder (rankN) is locked from the first run, when it does not
// exist yet: a second run on the same folders is refused in one line (exit
// 2) while the first goes on (its ranks holding their folders' locks); the
// first, interrupted then, reports once and leaves its files but no lock
// file.
TEST(MpiFioTest, ASecondRunOnTheRankFoldersIsRefusedFromTheFirstRun) {
  const TempDir dir;
  const std::string job =
      dir.Write("long.fio", "[global]\ndirectory=" + dir.path() +
                                "\nbs=4k\nioengine=psync\n[w]\nrw=randwrite\nsize=256k\n"
                                "time_based\nruntime=60\n");
  ProcessResult second;
  testing::ChildWatch watch;
  watch.timeout_s = 90;
  watch.marker = "Laying out IO file";
  watch.during = [&](int) {
    second = RunMpi(2, {"fio", job});
    // Then the first run's ranks, named by their lock files ("pid N loadcell
    // fio"), are stopped as mpirun's Ctrl-C stops them (SIGTERM).
    for (const char* sub : {"rank0", "rank1"}) {
      const std::string holder = dir.Read(std::string(sub) + "/.loadcell-sqlio.lock");
      int pid = 0;
      if (holder.rfind("pid ", 0) == 0) pid = std::atoi(holder.c_str() + 4);
      EXPECT_GT(pid, 0) << sub << ": " << holder;
      if (pid > 0) kill(pid, SIGTERM);
    }
  };
  const ProcessResult first = testing::RunCommand(testing::MpirunCommand(2, {"fio", job}), watch);
  EXPECT_EQ(second.exit_code, 2) << Show(second);
  EXPECT_EQ(CountOf(second.err, "loadcell: error: "), 1u) << Show(second);
  EXPECT_NE(second.err.find(" is in use by another loadcell (pid "), std::string::npos)
      << Show(second);
  EXPECT_EQ(CountOf(second.out, "Laying out IO file"), 0u) << Show(second);
  EXPECT_NE(first.exit_code, 124) << Show(first);
  EXPECT_LT(first.seconds_after_action, 30) << Show(first);
  EXPECT_EQ(CountOf(first.out, "Run status group 0 (all jobs):"), 1u) << Show(first);
  std::set<std::string> expected = {"long.fio"};
  for (const char* sub : {"rank0", "rank1"}) {
    for (const char* f : {"", "/w.0.0", "/.loadcell-sqlio.manifest"}) {
      expected.insert(std::string(sub) + f);
    }
  }
  EXPECT_EQ(Tree(dir.path()), expected);
}

// group_reporting: the group's one row in fio's fields, each rank's own
// row of the group (its clones merged) in loadcell's.
TEST(MpiFioTest, GroupReportingHasEachRanksRowOfTheGroup) {
  const TempDir dir;
  const std::string job = dir.Write(
      "group.fio", "[global]\ndirectory=" + dir.path() +
                       "\nbs=4k\nioengine=psync\ngroup_reporting\n[g]\nrw=randread\nsize=256k\n"
                       "numjobs=2\n");
  const ProcessResult r = RunMpi(2, {"fio", "--output-format=json", job});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = Json(r);
  ASSERT_EQ(doc["jobs"].size(), 1u) << Show(r);
  const nlohmann::json& g = doc["jobs"][0];
  // 2 ranks x 2 clones x 64 reads of 4 KiB.
  EXPECT_EQ(g["read"]["total_ios"].get<uint64_t>(), 256u) << Show(r);
  const nlohmann::json& rows = g["loadcell"]["ranks"];
  ASSERT_EQ(rows.size(), 2u) << g["loadcell"].dump();
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(rows[k]["rank"], k);
    EXPECT_EQ(rows[k]["total_ios"].get<uint64_t>(), 128u) << rows[k].dump();
  }
}

// Each rank's rows in `part`'s cluster object, in rank order: its events
// `events`, and its threads (one per job of the part) where first_thread
// says, with those events.
void ExpectRankRows(const nlohmann::json& part, uint64_t events, int jobs) {
  const nlohmann::json& c = part["cluster"];
  ASSERT_TRUE(c.is_object()) << part.dump().substr(0, 400);
  ASSERT_EQ(c["ranks"].size(), 2u) << c.dump();
  EXPECT_EQ(part["threads"].size(), static_cast<size_t>(2 * jobs)) << part["threads"].dump();
  uint64_t all = 0;
  for (int k = 0; k < 2; ++k) {
    const nlohmann::json& row = c["ranks"][k];
    SCOPED_TRACE("rank " + std::to_string(k));
    EXPECT_EQ(row["rank"], k);
    EXPECT_EQ(row["events"].get<uint64_t>(), events) << row.dump();
    EXPECT_EQ(row["threads"], jobs);
    EXPECT_EQ(row["first_thread"], k * jobs);
    uint64_t own = 0;
    for (int t = 0; t < jobs; ++t) {
      own += part["threads"][row["first_thread"].get<size_t>() + t]["events"].get<uint64_t>();
    }
    EXPECT_EQ(own, events) << part["threads"].dump();
    // Its span within the merged window.
    EXPECT_GE(row["start_s"].get<double>(), 0) << row.dump();
    EXPECT_GT(row["end_s"].get<double>(), row["start_s"].get<double>()) << row.dump();
    EXPECT_LE(row["end_s"].get<double>(), part["summary"]["total_time_s"].get<double>() + 1e-6)
        << row.dump();
    all += row["events"].get<uint64_t>();
  }
  EXPECT_EQ(all, part["summary"]["events"].get<uint64_t>());
}

// loadcell's own JSON (--format=json) of an MPI run: each rank's rows of
// the whole run and of each group, beside each job's, the merged figures
// every rank's work.
TEST(MpiFioTest, LoadcellsJsonHasEachRanksRowsOfTheRunAndItsGroups) {
  const TempDir dir;
  const std::string json = dir / "run.json";
  const ProcessResult r =
      RunMpi(2, {"fio", "--format=json", "--output-file=" + json, JobFile(dir)});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(testing::ReadFile(json), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << Show(r);
  // a: 256 reads of 4 KiB, b (its own group): 128 writes; on each rank.
  EXPECT_EQ(doc["summary"]["events"].get<uint64_t>(), 2u * (256 + 128));
  ExpectRankRows(doc, 256 + 128, 2);
  ASSERT_EQ(doc["groups"].size(), 2u);
  ExpectRankRows(doc["groups"][0], 256, 1);
  ExpectRankRows(doc["groups"][1], 128, 1);
  ASSERT_EQ(doc["jobs"].size(), 2u);
  ExpectRankRows(doc["jobs"][0], 256, 1);
  ExpectRankRows(doc["jobs"][1], 128, 1);
}

// fio's logs under MPI: each rank writes its own, fio's names with the
// rank appended (as fio's client appends a server's host name).
TEST(MpiFioTest, EachRankWritesItsOwnLogs) {
  const TempDir dir;
  const std::string prefix = dir / "lg";
  const ProcessResult r =
      RunMpi(2, {"fio", "--output-format=json", JobFile(dir, "write_bw_log=" + prefix + "\n")});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  for (const char* rank : {"rank0", "rank1"}) {
    for (int job = 1; job <= 2; ++job) {
      const std::string log =
          testing::ReadFile(prefix + "_bw." + std::to_string(job) + ".log." + rank);
      SCOPED_TRACE(rank + std::string(" job ") + std::to_string(job));
      ASSERT_FALSE(log.empty()) << Show(r);
      // fio's log line: time, value, direction, block size.
      std::istringstream first(log.substr(0, log.find('\n')));
      uint64_t ms = 0, kib = 0, dir_bit = 9, bs = 0;
      char comma = 0;
      first >> ms >> comma >> kib >> comma >> dir_bit >> comma >> bs;
      EXPECT_EQ(bs, 4096u) << log.substr(0, 200);
      EXPECT_EQ(dir_bit, job == 1 ? 0u : 1u) << log.substr(0, 200);
    }
  }
  EXPECT_FALSE(fs::exists(prefix + "_bw.1.log")) << Show(r);
}

}  // namespace mpi_fio
}  // namespace loadcell
