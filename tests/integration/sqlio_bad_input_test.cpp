// `loadcell sqlio` on bad input: one line on stderr, exit 2, nothing
// written, no file created.

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

class SqlioBadInput : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    return tmp_.Write(name, text);
  }
  std::vector<std::string> Listing() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  // Runs `args` (with --drive C=dir so c:\ paths land in the temp folder)
  // and checks the contract; returns stderr.
  std::string ExpectUsageError(std::vector<std::string> args) {
    args.insert(args.begin(), {"sqlio", "--drive=C=" + dir_});
    const std::vector<std::string> before = Listing();
    testing::ProcessResult r = testing::RunLoadcell(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << r.err;
    EXPECT_EQ(Listing(), before);
    return r.err;
  }
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

TEST_F(SqlioBadInput, UnknownSwitch) {
  EXPECT_NE(ExpectUsageError({"-kR", "-x5", "c:\\t.dat"}).find("'-x5'"), std::string::npos);
}

TEST_F(SqlioBadInput, KindWithoutReadOrWrite) {
  EXPECT_NE(ExpectUsageError({"-k", "c:\\t.dat"}).find("-k takes R"), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-kQ", "c:\\t.dat"}).find("'-kQ'"), std::string::npos);
}

TEST_F(SqlioBadInput, MalformedParamLineNamesFileAndLine) {
  const std::string p = Write("param.txt", "# header\nc:\\t.dat 2 0x0 8\nc:\\u.dat\n");
  EXPECT_NE(ExpectUsageError({"-kR", "-F" + p}).find(p + " line 3:"), std::string::npos);
}

TEST_F(SqlioBadInput, TooManyThreads) {
  EXPECT_NE(ExpectUsageError({"-t257", "c:\\t.dat"}).find("1 to 256"), std::string::npos);
  const std::string p = Write("param.txt", "c:\\t.dat 300 0x0 8\n");
  EXPECT_NE(ExpectUsageError({"-F" + p}).find("line 1:"), std::string::npos);
}

TEST_F(SqlioBadInput, PlacementSwitchesSayWhatIsValid) {
  // Not a number, zero, and a number too long for 64 bits: each names its range.
  EXPECT_NE(ExpectUsageError({"-Sx", "c:\\t.dat"}).find("must be a whole number"),
            std::string::npos);
  EXPECT_NE(ExpectUsageError({"-S99999999999999999999", "c:\\t.dat"}).find("must be 0 to "),
            std::string::npos);
  EXPECT_NE(ExpectUsageError({"-i0", "c:\\t.dat"}).find("must be 1 to "), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-f0", "c:\\t.dat"}).find("a number of 1 to"), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-f99999999999999999999", "c:\\t.dat"}).find("a number of 1 to"),
            std::string::npos);
}

TEST_F(SqlioBadInput, ZeroBlockSize) {
  EXPECT_NE(ExpectUsageError({"-b0", "c:\\t.dat"}).find("'-b0'"), std::string::npos);
}

TEST_F(SqlioBadInput, SizeNotANumber) {
  const std::string p = Write("param.txt", "c:\\t.dat 1 0x0 eight\n");
  EXPECT_NE(ExpectUsageError({"-F" + p}).find("line 1: the size (field 4) is not a number of MB"),
            std::string::npos);
}

// Placement that cannot fit the file is refused before the (missing) file
// is created.
TEST_F(SqlioBadInput, PlacementOutsideTheFile) {
  const std::string p = Write("param.txt", "c:\\t.dat 2 0x0 1\n");  // 1 MB: 64 blocks of 16KB
  EXPECT_NE(ExpectUsageError({"-b16", "-S64", "-F" + p}).find("-S64: the start offset"),
            std::string::npos);
  EXPECT_NE(ExpectUsageError({"-b16", "-S60", "-f8", "-F" + p}).find("-f8: a row of 8 blocks"),
            std::string::npos);
  EXPECT_NE(ExpectUsageError({"-b16", "-f1", "-F" + p}).find("at least the thread count"),
            std::string::npos);
}

TEST_F(SqlioBadInput, RawDrivesAndMalformedSqlioSwitches) {
  EXPECT_NE(ExpectUsageError({"-RD", "c:\\t.dat"}).find("raw drives"), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-v2", "c:\\t.dat"}).find("'-v2'"), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-Ux", "c:\\t.dat"}).find("'-Ux'"), std::string::npos);
  EXPECT_NE(ExpectUsageError({"-LSx", "c:\\t.dat"}).find("'-LSx'"), std::string::npos);
}

TEST_F(SqlioBadInput, ParamFileMissing) {
  EXPECT_NE(ExpectUsageError({"-F" + dir_ + "/nope.txt"}).find("nope.txt"), std::string::npos);
}

// Values SQLIO front-ends once changed silently are refused, naming what is
// valid: each row is one such value.
TEST_F(SqlioBadInput, SilentlyChangedValuesAreRefused) {
  struct Row {
    std::vector<std::string> args;
    const char* param;  // param file text ("" for none)
    const char* error;
  };
  const std::vector<Row> rows = {
      {{"-kR", "-o0", "c:\\t.dat"}, "", "'-o0': the outstanding I/O count must be 1 to 1024"},
      {{"-kR"}, "c:\\t.dat 1 0x0 0\n", "line 1: size 0 MB: give 1 to 1073741824 MB"},
  };
  for (const Row& row : rows) {
    std::vector<std::string> args = row.args;
    if (*row.param != '\0') args.push_back("-F" + Write("p.txt", row.param));
    EXPECT_NE(ExpectUsageError(args).find(row.error), std::string::npos) << row.error;
  }
}

}  // namespace
}  // namespace loadcell
