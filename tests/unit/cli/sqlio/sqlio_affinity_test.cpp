// SQLIO's -p, -a and param file masks against the CPUs a machine has and a
// process may use (the facts given, not this machine's).

#include "cli/sqlio/sqlio_affinity.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell {
namespace {

SqlioSwitches Switches(const std::vector<std::string>& args) {
  Result<SqlioSwitches> sw = ParseSqlioArgs(args);
  EXPECT_TRUE(sw.ok()) << sw.status().ToString();
  return sw.ok() ? *sw : SqlioSwitches{};
}

SqlioParamLine Line(int line, uint64_t mask) {
  SqlioParamLine p;
  p.path = "t.dat";
  p.line = line;
  p.mask = mask;
  return p;
}

const CpuFacts kTwoCpus{2, {0, 1}};

TEST(SqlioAffinity, CpuRanges) {
  EXPECT_EQ(CpuRanges({}), "");
  EXPECT_EQ(CpuRanges({3}), "3");
  EXPECT_EQ(CpuRanges({0, 1}), "0-1");
  EXPECT_EQ(CpuRanges({0, 2, 3, 4, 7}), "0,2-4,7");
}

TEST(SqlioAffinity, MasksOfCpusThereAreAccepted) {
  EXPECT_OK(CheckSqlioAffinity(Switches({"-a0x3", "-p1"}), {Line(1, 0x2), Line(2, 0)}, kTwoCpus));
  EXPECT_OK(CheckSqlioAffinity(Switches({"-aR3"}), {}, kTwoCpus));
  // A mask of 0 is SQLIO's "no affinity".
  EXPECT_OK(CheckSqlioAffinity(Switches({}), {Line(1, 0)}, kTwoCpus));
  // Nothing known: nothing refused.
  EXPECT_OK(CheckSqlioAffinity(Switches({"-a0xff00"}), {Line(1, 1ULL << 63)}, CpuFacts{}));
}

TEST(SqlioAffinity, CpusTheMachineLacksAreRefused) {
  Status st = CheckSqlioAffinity(Switches({"-a0x8000000000000000"}), {}, kTwoCpus);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "sqlio: '-a0x8000000000000000': affinity mask 0x8000000000000000 names CPU 63; this "
            "machine has CPUs 0-1");
  st = CheckSqlioAffinity(Switches({"-aR12"}), {}, kTwoCpus);  // decimal: CPUs 2 and 3
  EXPECT_EQ(st.message(),
            "sqlio: '-aR12': affinity mask 0xc names CPUs 2-3; this machine has "
            "CPUs 0-1");
  st = CheckSqlioAffinity(Switches({"-p5"}), {}, kTwoCpus);
  EXPECT_EQ(st.message(), "sqlio: '-p5': -p names CPU 5; this machine has CPUs 0-1");
  SqlioSwitches sw = Switches({"-Fparam.txt"});
  st = CheckSqlioAffinity(sw, {Line(1, 0x1), Line(3, 0x7)}, kTwoCpus);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "param file param.txt line 3: affinity mask 0x7 names CPU 2; this machine has CPUs "
            "0-1");
}

TEST(SqlioAffinity, CpusOutsideTheProcessAffinityAreRefused) {
  const CpuFacts facts{4, {0, 2}};  // as under taskset -c 0,2
  EXPECT_OK(CheckSqlioAffinity(Switches({"-a0x5"}), {}, facts));
  Status st = CheckSqlioAffinity(Switches({"-a0xf"}), {}, facts);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "sqlio: '-a0xf': affinity mask 0xf names CPUs 1,3, outside this process's "
            "affinity: it may run on CPUs 0,2");
  st = CheckSqlioAffinity(Switches({"-Fp.txt"}), {Line(2, 0x2)}, facts);
  EXPECT_EQ(st.message(),
            "param file p.txt line 2: affinity mask 0x2 names CPU 1, outside this process's "
            "affinity: it may run on CPUs 0,2");
  // A CPU the machine lacks is named as such first.
  st = CheckSqlioAffinity(Switches({"-a0x12"}), {}, facts);
  EXPECT_EQ(st.message(),
            "sqlio: '-a0x12': affinity mask 0x12 names CPU 4; this machine has "
            "CPUs 0-3");
}

}  // namespace
}  // namespace loadcell
