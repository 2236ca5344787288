// A worker's I/O error ends the run with exit 1 (a failed run) through the
// path main takes: the fileio workload on a file system that fails, the
// runner, then ExitCodeAfterRun. EINTR in particular is a failed call, never
// the user's interrupt (130).

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <string>

#include "cli/app.h"
#include "os/file_system.h"
#include "testing/fileio_test_util.h"
#include "testing/status.h"

namespace loadcell {
namespace {

using testing::Prepared;
using testing::RunEvents;
using testing::TempDir;

struct IoFaultCase {
  const char* name;
  const char* test_mode;  // --file-test-mode
  bool on_write;          // the fault is on PWrite, else on PRead
  int err;
};

// One row per errno class; the next finding of the kind joins the table.
const IoFaultCase kIoFaultCases[] = {
    {"eintr_read", "rndrd", false, EINTR},
    {"eio_read", "rndrd", false, EIO},
    {"eintr_write", "rndwr", true, EINTR},
    {"enospc_write", "rndwr", true, ENOSPC},
};

void PrintTo(const IoFaultCase& c, std::ostream* os) { *os << c.name; }

class RunExitTest : public ::testing::TestWithParam<IoFaultCase> {};

TEST_P(RunExitTest, WorkerIoErrorExitsOneWithTheError) {
  const IoFaultCase& c = GetParam();
  TempDir dir;
  FaultInjectingFileSystem fs(DefaultFileSystem());
  FileIoWorkload w(fs);
  Prepared(w, dir, {{"file-test-mode", c.test_mode}});
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  if (c.on_write) {
    fs.FailWritesAfter(10, c.err);
  } else {
    fs.FailReadsAfter(10, c.err);
  }
  Result<RunResult> r = RunEvents(w, 100);
  ASSERT_OK(r);
  EXPECT_FALSE(r->interrupted);
  ASSERT_FALSE(r->failure.ok());
  EXPECT_EQ(r->failure.err(), c.err) << r->failure.ToString();
  std::ostringstream err;
  EXPECT_EQ(ExitCodeAfterRun(*r, kExitOk, err), kExitRunFailed) << err.str();
  EXPECT_EQ(err.str().rfind("loadcell: error: ", 0), 0u) << err.str();
  EXPECT_NE(err.str().find(std::strerror(c.err)), std::string::npos) << err.str();
  EXPECT_EQ(err.str().find("interrupted"), std::string::npos) << err.str();
}

INSTANTIATE_TEST_SUITE_P(All, RunExitTest, ::testing::ValuesIn(kIoFaultCases),
                         [](const ::testing::TestParamInfo<IoFaultCase>& info) {
                           return std::string(info.param.name);
                         });

RunResult JudgedInvalid(VerdictMode mode) {
  RunResult r;
  r.validity.judged = true;
  r.validity.mode = mode;
  r.validity.checks = {{"cache", CheckLevel::kInvalid, "in memory", "direct", {}}};
  return r;
}

TEST(VerdictExitTest, StrictExitsThreeOnAnInvalidVerdictOnly) {
  std::ostringstream err;
  EXPECT_EQ(ExitCodeAfterRun(JudgedInvalid(VerdictMode::kStrict), kExitOk, err), kExitInvalid);
  EXPECT_NE(err.str().find("--verdict=strict"), std::string::npos) << err.str();
  EXPECT_EQ(ExitCodeAfterRun(JudgedInvalid(VerdictMode::kOn), kExitOk, err), kExitOk);
  RunResult warned = JudgedInvalid(VerdictMode::kStrict);
  warned.validity.checks[0].level = CheckLevel::kWarn;
  EXPECT_EQ(ExitCodeAfterRun(warned, kExitOk, err), kExitOk);
  // A failed run stays a failed run.
  RunResult failed = JudgedInvalid(VerdictMode::kStrict);
  failed.failure = Status::IoError("boom");
  EXPECT_EQ(ExitCodeAfterRun(failed, kExitOk, err), kExitRunFailed);
  EXPECT_EQ(kExitInvalid, 3);
}

// The front ends of several results (fio's jobs, DiskSpd's targets, dbsim's
// users): one INVALID result under strict exits 3, naming how many.
TEST(VerdictExitTest, OneInvalidResultAmongSeveralExitsThreeUnderStrict) {
  const RunResult bad = JudgedInvalid(VerdictMode::kStrict);
  RunResult good = JudgedInvalid(VerdictMode::kStrict);
  good.validity.checks[0].level = CheckLevel::kPass;
  const Validity unjudged;
  std::ostringstream err;
  EXPECT_EQ(ExitCodeForVerdicts({&good.validity, &bad.validity, &unjudged, nullptr}, kExitOk, err),
            kExitInvalid);
  EXPECT_NE(err.str().find("1 of 4 results are INVALID"), std::string::npos) << err.str();
  std::ostringstream quiet;
  EXPECT_EQ(ExitCodeForVerdicts({&good.validity, &unjudged}, kExitOk, quiet), kExitOk);
  EXPECT_EQ(ExitCodeForVerdicts({&bad.validity}, kExitRunFailed, quiet), kExitRunFailed);
  EXPECT_EQ(quiet.str(), "");
}

TEST(VerdictExitTest, TheVerdictOptionOfTheFrontEndsIsOffOnOrStrict) {
  Result<VerdictMode> strict = ParseVerdictOption("dbsim: ", "strict");
  ASSERT_TRUE(strict.ok());
  EXPECT_EQ(*strict, VerdictMode::kStrict);
  Result<VerdictMode> off = ParseVerdictOption("", "off");
  Result<VerdictMode> on = ParseVerdictOption("", "on");
  ASSERT_TRUE(off.ok() && on.ok());
  EXPECT_EQ(*off, VerdictMode::kOff);
  EXPECT_EQ(*on, VerdictMode::kOn);
  const Result<VerdictMode> bad = ParseVerdictOption("dbsim: ", "maybe");
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsUsageError());
  EXPECT_EQ(bad.status().message(), "dbsim: --verdict=maybe: the verdict is off, on or strict");
}

}  // namespace
}  // namespace loadcell
