#pragma once
// The fixture of the sqlio binary tests (sqlio_test.cpp, sqlio_posix_test.cpp):
// a temporary folder as drive C: with a param file naming one 8 MB file for
// two threads.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

class SqlioRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
    param_ = dir_ + "/param.txt";
    std::ofstream(param_) << "# one 8 MB file, two threads\nc:\\testfile.dat 2 0x0 8\n";
  }

  ProcessResult Sqlio(std::vector<std::string> args, int sigint_after_ms = -1) {
    args.insert(args.begin(), {"sqlio", "--drive=C=" + dir_, "--quiet"});
    return RunLoadcell(args, sigint_after_ms, 60, "initialization done");
  }
  static double Figure(const std::string& out, const std::string& label) {
    const size_t at = out.find(label);
    if (at == std::string::npos) return -1;
    return std::stod(out.substr(at + label.size()));
  }
  static void ExpectReport(const ProcessResult& r) {
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("initialization done\nCUMULATIVE DATA:\nthroughput metrics:\n"),
              std::string::npos)
        << r.out;
    EXPECT_GT(Figure(r.out, "IOs/sec:"), 0) << r.out;
    EXPECT_GT(Figure(r.out, "MBs/sec:"), 0) << r.out;
  }
  testing::TempDir tmp_;
  std::string dir_;  // tmp_.path()
  std::string param_;
};

// A refused affinity: one line, exit 2, before anything is made (the
// param file's 8 MB file is not created).
inline void ExpectAffinityRefused(const ProcessResult& r, const std::string& names,
                                  const std::string& file) {
  EXPECT_EQ(r.exit_code, 2) << r.err << r.out;
  EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(names), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(file)) << file;
}

}  // namespace loadcell::testing
