#pragma once
// The fixture of the file-safety tests (file_safety_test.cpp,
// file_safety_lock_test.cpp): a test folder and, beside it, the user's own
// file, which must never change.

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::file_safety {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;
using testing::TempDir;

constexpr uint64_t kFileSize = 256 * 1024;  // each of the 4 test files

inline int Lines(const std::string& s) { return testing::OutputLines(s); }

inline bool Exists(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

// A folder to test in, and beside it the user's own file, which must never
// change: kFileSize bytes, so that a size check alone cannot tell it from a
// test file.
class FileSafety : public ::testing::Test {
 public:
  void SetUp() override {
    std::string bytes(kFileSize, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>('a' + i % 23);
    user_bytes_ = bytes;
    user_ = home_.Write("user.dat", user_bytes_);
    ASSERT_EQ(::mkdir(Dir().c_str(), 0755), 0);
  }

  std::string Dir() const { return home_.File("tests"); }
  std::string In(const std::string& name) const { return Dir() + "/" + name; }

  ProcessResult Fileio(std::vector<std::string> args) const {
    std::vector<std::string> all = {"fileio", "--file-dir=" + Dir(), "--file-num=4",
                                    "--file-total-size=1M", "--file-block-size=4K"};
    all.insert(all.end(), args.begin(), args.end());
    return RunLoadcell(all);
  }
  void Prepare(std::vector<std::string> extra = {}) const {
    extra.emplace_back("prepare");
    ProcessResult p = Fileio(extra);
    ASSERT_EQ(p.exit_code, 0) << Show(p);
  }
  // One line on stderr, exit 2, naming `says`.
  static void ExpectRefused(const ProcessResult& r, const std::string& says) {
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    EXPECT_EQ(Lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  void ExpectUserFileUnchanged() const {
    EXPECT_EQ(testing::ReadFile(user_), user_bytes_) << "the user's file changed";
  }
  // The user's own file (a new inode, the size of a test file) put in the
  // place of `name`.
  void PutUsersFileAt(const std::string& name) const {
    const std::string tmp = home_.Write("incoming", user_bytes_);
    ASSERT_EQ(::rename(tmp.c_str(), In(name).c_str()), 0);
  }

  TempDir home_;
  std::string user_;
  std::string user_bytes_;
};

inline constexpr const char* kManifest = ".loadcell-fileio.manifest";
inline constexpr const char* kTmp = ".loadcell-fileio.manifest.tmp";
inline constexpr const char* kLock = ".loadcell-fileio.lock";

}  // namespace loadcell::file_safety
