// `loadcell fio`: what options do, seen in the files made, the JSON and the
// per-I/O logs (each figure as fio 3.33 gives it for the same job; the
// side-by-side runs with fio are scripts/test-fio-compat).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "testing/fio_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

// The one job of a run's JSON (a failed test when there is none).
nlohmann::json OneJob(const ProcessResult& r) {
  const nlohmann::json jobs = FioJsonJobs(r);
  EXPECT_EQ(jobs.size(), 1u) << r.out << r.err;
  return jobs.empty() ? nlohmann::json::object() : jobs[0];
}

uint64_t Ios(const nlohmann::json& job) {
  return job["read"]["total_ios"].get<uint64_t>() + job["write"]["total_ios"].get<uint64_t>();
}

// The offsets of a per-I/O latency log written with log_offset=1 (time,
// latency, direction, size, offset, ...).
std::vector<uint64_t> LoggedOffsets(const std::string& path) {
  std::vector<uint64_t> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string f;
    for (int i = 0; i < 5 && std::getline(fields, f, ','); ++i) {
      if (i == 4) out.push_back(std::stoull(f));
    }
  }
  return out;
}

TEST(FioEffectsTest, TheSynchronousEnginesAndMmapRunTheirJobs) {
  TempDir dir;
  const std::tuple<const char*, const char*> engines[] = {
      {"sync", "sync"}, {"pvsync", "sync"}, {"pvsync2", "sync"}, {"mmap", "mmap"}};
  for (const auto& [fio_engine, engine] : engines) {
    ProcessResult r = RunFio(dir, {"--output-format=json", "--name=e", "--rw=randrw", "--bs=4k",
                                   "--size=256k", std::string("--ioengine=") + fio_engine});
    ASSERT_EQ(r.exit_code, 0) << fio_engine << ": " << r.err;
    const nlohmann::json job = OneJob(r);
    EXPECT_EQ(Ios(job), 64u) << fio_engine;
    EXPECT_GT(job["write"]["total_ios"].get<uint64_t>(), 0u) << fio_engine;
    EXPECT_EQ(job["loadcell"]["engine"], engine) << fio_engine;
  }
  // rw=rw: the sequential mix, both directions, the whole size.
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=m", "--rw=rw", "--bs=4k",
                                 "--size=256k", "--rwmixread=70"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = OneJob(r);
  EXPECT_EQ(Ios(job), 64u);
  EXPECT_GT(job["read"]["total_ios"].get<uint64_t>(), job["write"]["total_ios"].get<uint64_t>());
}

// fio 3.33's figures for 32 writes: fsync=4 syncs after every 4 writes but
// the last (sync.total_ios 7, lat_ns N 7); fdatasync=8 after 8, 16 and 24
// (total_ios 0, N 3); end_fsync and fsync_on_close in neither. Every sync
// loadcell issued is in its own object's "syncs".
TEST(FioEffectsTest, SyncsAreIssuedAndCountedAsFio) {
  TempDir dir;
  const std::tuple<const char*, int, int, int> cases[] = {{"--fsync=4", 7, 7, 7},
                                                          {"--fdatasync=8", 0, 3, 3},
                                                          {"--fsync_on_close=1", 0, 0, 1},
                                                          {"--end_fsync=1", 0, 0, 1},
                                                          {"--fsync=0", 0, 0, 0}};
  for (const auto& [option, total, timed, issued] : cases) {
    ProcessResult r = RunFio(
        dir, {"--output-format=json", "--name=s", "--rw=write", "--bs=4k", "--size=128k", option});
    ASSERT_EQ(r.exit_code, 0) << option << ": " << r.err;
    const nlohmann::json job = OneJob(r);
    EXPECT_EQ(job["sync"]["total_ios"], total) << option;
    EXPECT_EQ(job["sync"]["lat_ns"]["N"], timed) << option;
    EXPECT_EQ(job["loadcell"]["syncs"], issued) << option;
  }
}

// Where fio 3.33 puts the files: made-up names put each clone in the next
// folder of a directory= list; named files are in its first folder; the
// size is shared over the files.
TEST(FioEffectsTest, FilesFollowDirectoryFilenameAndFilenameFormat) {
  TempDir dir;
  std::filesystem::create_directories(dir / "d1");
  std::filesystem::create_directories(dir / "d2");
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=j", "--directory=d1:d2",
                                 "--numjobs=2", "--nrfiles=2", "--size=64k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"d1/j.0.0", "d1/j.0.1", "d2/j.1.0", "d2/j.1.1"}) {
    ASSERT_TRUE(std::filesystem::exists(dir / f)) << f;
    EXPECT_EQ(std::filesystem::file_size(dir / f), 32u << 10) << f;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "d2/j.0.1"));

  r = RunFio(dir, {"--output-format=json", "--name=n", "--directory=d1:d2",
                   "--filename=a.dat:b.dat", "--size=64k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Ios(OneJob(r)), 16u);
  EXPECT_EQ(std::filesystem::file_size(dir / "d1/a.dat"), 32u << 10);
  EXPECT_EQ(std::filesystem::file_size(dir / "d1/b.dat"), 32u << 10);
  EXPECT_FALSE(std::filesystem::exists(dir / "d2/b.dat"));

  r = RunFio(dir, {"--output-format=json", "--name=f", "--filename_format=x.$jobnum.$filenum.dat",
                   "--nrfiles=2", "--size=64k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(std::filesystem::file_size(dir / "x.0.0.dat"), 32u << 10);
  EXPECT_EQ(std::filesystem::file_size(dir / "x.0.1.dat"), 32u << 10);
}

TEST(FioEffectsTest, SizePercentIsAShareOfAnExistingFile) {
  TempDir dir;
  dir.Write("big.dat", std::string(1 << 20, 'x'));
  ProcessResult r = RunFio(
      dir, {"--output-format=json", "--name=p", "--filename=big.dat", "--size=50%", "--bs=4k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Ios(OneJob(r)), 128u);  // fio 3.33: 128
  EXPECT_EQ(std::filesystem::file_size(dir / "big.dat"), 1u << 20);
}

TEST(FioEffectsTest, OffsetIncrementAndRandseedReachTheOffsets) {
  TempDir dir;
  // Two clones, the second 64k further on.
  ProcessResult r =
      RunFio(dir, {"--name=o", "--ioengine=null", "--rw=read", "--bs=4k", "--size=64k",
                   "--numjobs=2", "--offset_increment=64k", "--write_lat_log=o", "--log_offset=1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<uint64_t> first = LoggedOffsets(dir / "o_lat.1.log");
  const std::vector<uint64_t> second = LoggedOffsets(dir / "o_lat.2.log");
  ASSERT_EQ(first.size(), 16u);
  ASSERT_EQ(second.size(), 16u);
  EXPECT_EQ(first.front(), 0u);
  EXPECT_EQ(second.front(), 64u << 10);
  EXPECT_EQ(second.back(), (128u << 10) - 4096);

  // The same randseed, the same offsets; another, others.
  const auto offsets = [&](const std::string& seed, const std::string& name) {
    ProcessResult s =
        RunFio(dir, {"--name=" + name, "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1m",
                     "--randseed=" + seed, "--write_lat_log=" + name, "--log_offset=1"});
    EXPECT_EQ(s.exit_code, 0) << s.err;
    return LoggedOffsets(dir / (name + "_lat.1.log"));
  };
  const std::vector<uint64_t> a = offsets("5", "a"), b = offsets("5", "b"), c = offsets("6", "c");
  ASSERT_EQ(a.size(), 256u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

TEST(FioEffectsTest, PercentileOptionsShapeTheLatencyObjects) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=p", "--ioengine=null",
                                 "--size=256k", "--percentile_list=50:99", "--lat_percentiles=1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json job = OneJob(r);
  for (const char* lat : {"clat_ns", "lat_ns"}) {
    std::vector<std::string> keys;
    for (const auto& [k, v] : job["read"][lat]["percentile"].items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"50.000000", "99.000000"})) << lat;
  }
  r = RunFio(dir, {"--output-format=json", "--name=q", "--ioengine=null", "--size=256k",
                   "--clat_percentiles=0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  job = OneJob(r);
  EXPECT_TRUE(job["read"]["clat_ns"].contains("N")) << job["read"]["clat_ns"];
  EXPECT_FALSE(job["read"]["clat_ns"].contains("percentile")) << job["read"]["clat_ns"];
  EXPECT_FALSE(job["read"]["lat_ns"].contains("percentile"));
}

TEST(FioEffectsTest, UnifiedReportingMixedIsOneDirection) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=u", "--rw=randrw", "--bs=4k",
                                 "--size=256k", "--unified_rw_reporting=mixed"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = OneJob(r);
  EXPECT_EQ(job["mixed"]["total_ios"], 64);
  EXPECT_FALSE(job.contains("read"));
  EXPECT_FALSE(job.contains("write"));
  r = RunFio(dir,
             {"--name=u", "--rw=randrw", "--bs=4k", "--size=256k", "--unified_rw_reporting=mixed"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("  mixed: IOPS="), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("issued rwts: total=64,0,0,0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  MIXED: bw="), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("  read: IOPS="), std::string::npos) << r.out;
}

TEST(FioEffectsTest, OutputFormatListWritesTheTextThenTheJson) {
  TempDir dir;
  ProcessResult r =
      RunFio(dir, {"--output-format=normal,json", "--name=x", "--ioengine=null", "--size=256k"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t text = r.out.find("Run status group 0 (all jobs):");
  const size_t json = r.out.find("\"fio version\"");
  ASSERT_NE(text, std::string::npos) << r.out;
  ASSERT_NE(json, std::string::npos) << r.out;
  EXPECT_LT(text, json);
  const size_t open = r.out.rfind("\n{", json);
  ASSERT_NE(open, std::string::npos) << r.out;
  const nlohmann::json doc = nlohmann::json::parse(r.out.substr(open + 1), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out.substr(open + 1);
  EXPECT_EQ(doc["jobs"][0]["read"]["total_ios"], 64);
}

TEST(FioEffectsTest, EtaTakesFiosValuesAndWarningsFatalChangesNothing) {
  TempDir dir;
  for (const char* eta : {"--eta=never", "--eta=always", "--eta=auto", "--warnings-fatal"}) {
    ProcessResult r = RunFio(dir, {eta, "--name=x", "--ioengine=null", "--size=64k"});
    EXPECT_EQ(r.exit_code, 0) << eta << ": " << r.err;
  }
  ProcessResult r = RunFio(dir, {"--eta=bogus", "--name=y", "--size=64k"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--eta=bogus: not one of always, never, auto"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "y.0.0"));
  // What fio only warns about is refused with or without --warnings-fatal.
  dir.Write("w.fio", "[j]\nsize=64k\ninclude missing.fio\n");
  for (const bool fatal : {false, true}) {
    std::vector<std::string> args = {"w.fio"};
    if (fatal) args.insert(args.begin(), "--warnings-fatal");
    r = RunFio(dir, args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("w.fio:3: include: cannot open job file 'missing.fio'"), std::string::npos)
        << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "j.0.0"));
}

// fio forks a process per job unless thread= is set; loadcell runs each as
// a thread and says so in its object. Its CPU figures are its thread's
// own: a job that spins its think time shows the CPU, the one beside it
// that sleeps its think time does not (with figures of the whole process
// both would show the same).
TEST(FioEffectsTest, EachJobIsAThreadWithItsOwnCpuFigures) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--output-format=json", "--ioengine=null", "--rw=read", "--bs=4k",
                                 "--size=1m", "--number_ios=6", "--thinktime=100ms", "--name=spin",
                                 "--thinktime_spin=100ms", "--name=sleep", "--thread"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json jobs = FioJsonJobs(r);
  ASSERT_EQ(jobs.size(), 2u) << r.out;
  const nlohmann::json& spin = jobs[0]["jobname"] == "spin" ? jobs[0] : jobs[1];
  const nlohmann::json& sleep = jobs[0]["jobname"] == "spin" ? jobs[1] : jobs[0];
  EXPECT_EQ(spin["loadcell"]["runs_as"], "thread");
  EXPECT_EQ(spin["loadcell"]["fio_runs_as"], "process");
  EXPECT_EQ(sleep["loadcell"]["runs_as"], "thread");
  EXPECT_EQ(sleep["loadcell"]["fio_runs_as"], "thread");
  const auto cpu = [](const nlohmann::json& j) {
    return j["usr_cpu"].get<double>() + j["sys_cpu"].get<double>();
  };
  EXPECT_GT(cpu(spin), 1.0) << spin;
  // Windows' figures are GetThreadTimes of each job's thread; under Wine,
  // where this suite runs, a thread's times are not its own (the sleeping
  // job read 310%, the spinning one 31%), so the comparison is POSIX's.
#ifndef _WIN32
  EXPECT_GT(cpu(spin), 10 * cpu(sleep)) << spin << sleep;
#endif
}

// description= is in the text (fio's "job: (g=0): ..." block) and the
// JSON ("desc").
TEST(FioEffectsTest, DescriptionIsInTheTextAndTheJson) {
  TempDir dir;
  dir.Write("d.fio", "[d]\ndescription=four reads of null\nioengine=null\nsize=16k\n");
  ProcessResult r = RunFio(dir, {"--output-format=normal,json", "d.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t json_at = r.out.find("\n{");
  ASSERT_NE(json_at, std::string::npos) << r.out;
  const std::string text = r.out.substr(0, json_at);
  EXPECT_NE(text.find("Description  : [four reads of null]"), std::string::npos) << text;
  const nlohmann::json doc = nlohmann::json::parse(r.out.substr(json_at + 1));
  EXPECT_EQ(doc["jobs"][0]["desc"], "four reads of null");
}

// randrepeat=0: the seed is the clock's, so two runs draw other offsets
// (randrepeat=1, the default, repeats them: OffsetIncrementAndRandseed...),
// unless randseed= is given: fio 3.33 keeps it (two runs of `rw=randread
// size=64k randrepeat=0 randseed=42` read the same offsets).
TEST(FioEffectsTest, RandrepeatZeroDrawsOtherOffsetsEachRunUnlessRandseedIsGiven) {
  TempDir dir;
  const auto offsets = [&](const std::string& name, const std::string& seed) {
    std::vector<std::string> args = {
        "--name=" + name, "--ioengine=null", "--rw=randread",           "--bs=4k",
        "--size=1m",      "--randrepeat=0",  "--write_lat_log=" + name, "--log_offset=1"};
    if (!seed.empty()) args.push_back("--randseed=" + seed);
    ProcessResult s = RunFio(dir, args);
    EXPECT_EQ(s.exit_code, 0) << s.err;
    return LoggedOffsets(dir / (name + "_lat.1.log"));
  };
  const std::vector<uint64_t> a = offsets("a", ""), b = offsets("b", "");
  ASSERT_EQ(a.size(), 256u);
  ASSERT_EQ(b.size(), 256u);
  EXPECT_NE(a, b);
  // Each still a pass over every block once.
  EXPECT_EQ(std::set<uint64_t>(a.begin(), a.end()).size(), 256u);
  const std::vector<uint64_t> c = offsets("c", "42"), d = offsets("d", "42");
  ASSERT_EQ(c.size(), 256u);
  EXPECT_EQ(c, d);
  EXPECT_NE(c, offsets("e", "43"));
}

// size bounds the whole job, ramp_time included (fio 3.33): a job done
// inside the ramp reports all its I/Os and bytes but no latency (fio's
// `ioengine=null size=400k rate_iops=200 ramp_time=1`: 100 reads, clat
// N=0); one still running when the ramp ends reports what follows it.
TEST(FioEffectsTest, SizeBoundsTheJobRampTimeIncluded) {
  TempDir dir;
  const auto run = [&](const std::string& rate) {
    ProcessResult r =
        RunFio(dir, {"--output-format=json", "--name=r", "--ioengine=null", "--rw=randread",
                     "--bs=4k", "--size=400k", "--rate_iops=" + rate, "--ramp_time=500ms"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return OneJob(r);
  };
  nlohmann::json inside = run("400");  // 0.25 s of I/O
  EXPECT_EQ(inside["read"]["total_ios"], 100u);
  EXPECT_EQ(inside["read"]["io_bytes"], 409600u);
  EXPECT_EQ(inside["read"]["clat_ns"]["N"], 0u);
  EXPECT_GT(inside["job_runtime"].get<uint64_t>(), 0u);
  nlohmann::json past = run("100");  // 1 s of I/O, half of it after the ramp
  EXPECT_GT(past["read"]["total_ios"].get<uint64_t>(), 0u);
  EXPECT_LT(past["read"]["total_ios"].get<uint64_t>(), 100u);
  EXPECT_EQ(past["read"]["clat_ns"]["N"], past["read"]["total_ios"]);
}

// bs=R,W: reads of R bytes, writes of W (fio's per-direction sizes).
TEST(FioEffectsTest, PerDirectionBlockSizesAreEachDirections) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--output-format=json", "--name=p", "--ioengine=null", "--rw=rw",
                                 "--bs=4k,16k", "--size=4m"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json job = OneJob(r);
  const uint64_t reads = job["read"]["total_ios"], writes = job["write"]["total_ios"];
  ASSERT_GT(reads, 0u);
  ASSERT_GT(writes, 0u);
  EXPECT_EQ(job["read"]["io_bytes"].get<uint64_t>(), reads * 4096);
  EXPECT_EQ(job["write"]["io_bytes"].get<uint64_t>(), writes * 16384);
  // 4 MiB in all (the last request may pass it by less than a write).
  EXPECT_GE(reads * 4096 + writes * 16384, 4u << 20);
  EXPECT_LT(reads * 4096 + writes * 16384, (4u << 20) + 16384);
}

// fio's normal text for a job: after the `read:` line its clat and lat
// lines, the percentile table, the bw and iops statistics (a 2 s job has
// bw samples), then the latency distribution in nsec, usec and msec rows,
// each line in the shape fio 3.33 prints (`fio --ioengine=null --rw=read
// --rate_iops=2000 --runtime=2 --time_based` gives
// "    clat (nsec): min=70, max=66565, avg=512.58, stdev=1080.33",
// "   bw (  KiB/s): min= 7968, max= 8008, per=100.00%, avg=7996.00,
// stdev=19.04, samples=4", "   iops        : min= 1992, max= 2002,
// avg=1999.00, stdev= 4.76, samples=4", "  lat (nsec)   : 100=0.23%,
// 250=5.73%, 500=37.44%, 750=54.10%, 1000=1.90%").
// fio 3.33's split of each I/O's latency for the asynchronous engines:
// slat (start to the submission call's return) for every I/O, clat (from
// there to completion) and lat (start to completion, their sum); the
// synchronous engines (and fio's null engine at iodepth=1) have no slat
// (N 0) and clat is lat. The text has the slat line before clat's for the
// asynchronous jobs alone.
TEST(FioEffectsTest, AsynchronousEnginesTimeSubmissionApartAsFio) {
  TempDir dir;
  {
    std::ofstream f(dir / "s.fio");
    // Windows' asynchronous engine is windowsaio (IOCP) in both places.
#if defined(_WIN32)
    const char* aio = "windowsaio";
    const char* uring = "windowsaio";
#else
    const char* aio = "libaio";
    const char* uring = "io_uring";
#endif
    f << "[global]\nfilename=s.dat\nsize=2m\nbs=4k\ndirect=1\nrw=randread\n"
      << "[aio]\nioengine=" << aio << "\niodepth=4\n"
      << "[uring]\nioengine=" << uring << "\niodepth=4\n"
      << "[psync]\nioengine=psync\n"
         "[null1]\nioengine=null\n"  // fio's null is synchronous at iodepth=1
         "[null4]\nioengine=null\niodepth=4\n";
  }
  ProcessResult r = RunFio(dir, {"--output-format=normal,json", "s.fio"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t brace = r.out.find("\n{");
  ASSERT_NE(brace, std::string::npos) << r.out;
  const std::string text = r.out.substr(0, brace + 1);
  const nlohmann::json doc = nlohmann::json::parse(r.out.substr(brace + 1), nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const nlohmann::json& jobs = doc["jobs"];
  ASSERT_EQ(jobs.size(), 5u);
  for (const nlohmann::json& job : jobs) {
    const std::string name = job["jobname"];
    SCOPED_TRACE(name);
    const nlohmann::json& rd = job["read"];
    const uint64_t ios = rd["total_ios"];
    EXPECT_EQ(ios, 512u);
    const nlohmann::json& slat = rd["slat_ns"];
    const nlohmann::json& clat = rd["clat_ns"];
    const nlohmann::json& lat = rd["lat_ns"];
    EXPECT_EQ(clat["N"], ios);
    EXPECT_EQ(lat["N"], ios);
    EXPECT_FALSE(slat.contains("percentile"));  // as fio without slat_percentiles
    // The job's own section of the text: its slat line, or none.
    const size_t from = text.find(name + ": (groupid=");
    ASSERT_NE(from, std::string::npos) << text;
    const std::string own = text.substr(from, text.find("  cpu ", from) - from);
    if (name == "psync" || name == "null1") {
      EXPECT_EQ(slat["N"], 0u);
      EXPECT_EQ(slat["mean"], 0.0);
      EXPECT_EQ(clat["mean"], lat["mean"]);
      EXPECT_EQ(clat["min"], lat["min"]);
      EXPECT_EQ(own.find("slat"), std::string::npos) << own;
      continue;
    }
    EXPECT_EQ(slat["N"], ios);
    EXPECT_GT(slat["min"].get<uint64_t>(), 0u);
    EXPECT_LE(slat["min"].get<uint64_t>(), slat["max"].get<uint64_t>());
    EXPECT_GT(slat["stddev"].get<double>(), 0.0);
    // lat = slat + clat for each I/O, so for the means (each histogram's
    // mean is exact; 1% for rounding).
    const double sum = slat["mean"].get<double>() + clat["mean"].get<double>();
    EXPECT_NEAR(lat["mean"].get<double>(), sum, sum * 0.01);
    EXPECT_LT(clat["mean"].get<double>(), lat["mean"].get<double>());
    const std::regex line(R"(\n    slat \((nsec|usec|msec)\): min=[^\n]*\n    clat \()");
    EXPECT_TRUE(std::regex_search(own, line)) << own;
  }
}

TEST(FioEffectsTest, TheTextHasFiosLatencyBandwidthAndDistributionLines) {
  TempDir dir;
  ProcessResult r = RunFio(dir, {"--name=t", "--ioengine=null", "--rw=read", "--bs=4k", "--size=4m",
                                 "--rate_iops=2000", "--runtime=2", "--time_based"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::string unit = "\\((nsec|usec|msec)\\)";
  const std::string num = " *[0-9]+";
  const std::string six = "[0-9]+(\\.[0-9]+)?[kMG]?";  // fio's six-character numbers
  const std::string dec = " *[0-9]+\\.[0-9]{2}";
  const std::vector<std::pair<std::string, std::regex>> shapes = {
      {"read", std::regex("  read: IOPS=[0-9.]+k?, BW=.*")},
      {"clat", std::regex("    clat " + unit + ": min=" + six + ", max=" + six + ", avg=" + dec +
                          ", stdev=" + dec)},
      {"lat", std::regex("     lat " + unit + ": min=" + six + ", max=" + six + ", avg=" + dec +
                         ", stdev=" + dec)},
      {"percentiles", std::regex("    clat percentiles " + unit + ":")},
      {"bw", std::regex("   bw \\(  KiB/s\\): min=" + num + ", max=" + num + ", per=" + dec +
                        "%, avg=" + dec + ", stdev=" + dec + ", samples=[0-9]+")},
      {"iops", std::regex("   iops        : min=" + num + ", max=" + num + ", avg=" + dec +
                          ", stdev=" + dec + ", samples=[0-9]+")},
      {"distribution", std::regex("  lat " + unit + "   : [0-9>=]+=[0-9]+\\.[0-9]{2}%" +
                                  "(, [0-9>=]+=[0-9]+\\.[0-9]{2}%){0,4}")},
      {"cpu", std::regex("  cpu          : usr=.*")},
  };
  // Each shape in that order, each at least once.
  size_t at = 0;
  for (const auto& [what, shape] : shapes) {
    while (at < lines.size() && !std::regex_match(lines[at], shape)) ++at;
    ASSERT_LT(at, lines.size()) << "no " << what << " line where fio has one:\n" << r.out;
  }
  // The min, max and avg of the bw and iops lines agree, and the
  // distribution adds up to 100%.
  double share = 0;
  const std::regex stats(
      "   (bw|iops).*min= *([0-9]+), max= *([0-9]+), (per=[0-9.]+%, )?avg= *"
      "([0-9.]+).*");
  const std::regex part("=([0-9]+\\.[0-9]{2})%");
  for (const std::string& line : lines) {
    std::smatch m;
    if (std::regex_match(line, m, stats)) {
      const double lo = std::stod(m[2]), hi = std::stod(m[3]), avg = std::stod(m[5]);
      EXPECT_LE(lo, avg + 0.01) << line;
      EXPECT_LE(avg, hi + 0.01) << line;
    }
    if (line.rfind("  lat (", 0) == 0) {
      for (auto it = std::sregex_iterator(line.begin(), line.end(), part);
           it != std::sregex_iterator(); ++it) {
        share += std::stod((*it)[1]);
      }
    }
  }
  EXPECT_NEAR(share, 100, 0.2) << r.out;
}

}  // namespace
}  // namespace loadcell::testing
