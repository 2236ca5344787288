// fileio's test folder through the real binary: a file is loadcell's only
// when it can prove it. Links and special files where loadcell's files
// belong, forged manifests, files replaced after prepare; every case checks
// that the user's file is byte for byte as it was. The lock, the folder and
// size options and SQLIO's files: file_safety_lock_test.cpp.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "integration/file_safety_fixture.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::file_safety {
namespace {

// ---- Links and special files where loadcell's files belong ----

enum class Intruder { kLinkToUserFile, kDanglingLink, kLinkToFolder, kFifo };

struct PlacedCase {
  const char* name;
  const char* entry;   // where the intruder goes (replacing what is there)
  bool after_prepare;  // placed after a prepare
  Intruder intruder;
  std::vector<std::string> command;
  int exit_code;     // 2: refused in one line; 0: cleanup that leaves it
  const char* says;  // in stderr (exit 2) or stdout (exit 0)
};

const PlacedCase kPlacedCases[] = {
    {"test file: link to the user's file, prepare",
     "test_file.0",
     false,
     Intruder::kLinkToUserFile,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"test file: dangling link, prepare",
     "test_file.0",
     false,
     Intruder::kDanglingLink,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"test file: link to a folder, prepare",
     "test_file.1",
     false,
     Intruder::kLinkToFolder,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"test file: fifo, prepare",
     "test_file.2",
     false,
     Intruder::kFifo,
     {"prepare"},
     2,
     "is not a regular file"},
    {"test file: fifo, seqwr run",
     "test_file.0",
     false,
     Intruder::kFifo,
     {"--file-test-mode=seqwr", "--time=1", "run"},
     2,
     "is not a regular file"},
    {"test file: dangling link, seqwr run",
     "test_file.3",
     false,
     Intruder::kDanglingLink,
     {"--file-test-mode=seqwr", "--time=1", "run"},
     2,
     "is a symbolic link"},
    {"manifest: link to the user's file, prepare",
     kManifest,
     false,
     Intruder::kLinkToUserFile,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"temp manifest: link to the user's file, prepare",
     kTmp,
     false,
     Intruder::kLinkToUserFile,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"temp manifest: dangling link, prepare",
     kTmp,
     false,
     Intruder::kDanglingLink,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"lock: link to the user's file, prepare",
     kLock,
     false,
     Intruder::kLinkToUserFile,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"test file swapped for a link after prepare, rndwr",
     "test_file.0",
     true,
     Intruder::kLinkToUserFile,
     {"--file-test-mode=rndwr", "--events=200", "run"},
     2,
     "is a symbolic link"},
    {"test file swapped for a link after prepare, rndrd",
     "test_file.1",
     true,
     Intruder::kLinkToUserFile,
     {"--file-test-mode=rndrd", "--events=200", "run"},
     2,
     "is a symbolic link"},
    {"test file swapped for a link after prepare, prepare",
     "test_file.0",
     true,
     Intruder::kLinkToUserFile,
     {"prepare"},
     2,
     "is a symbolic link"},
    {"test file swapped for a link after prepare, cleanup",
     "test_file.0",
     true,
     Intruder::kLinkToUserFile,
     {"cleanup"},
     0,
     "Left '"},
    {"test file swapped for a fifo after prepare, rndrd",
     "test_file.2",
     true,
     Intruder::kFifo,
     {"--file-test-mode=rndrd", "--events=200", "run"},
     2,
     "is not a regular file"},
    {"test file swapped for a fifo after prepare, cleanup",
     "test_file.2",
     true,
     Intruder::kFifo,
     {"cleanup"},
     0,
     "Left '"},
    {"manifest swapped for a link after prepare, run",
     kManifest,
     true,
     Intruder::kLinkToUserFile,
     {"--file-test-mode=rndwr", "--events=200", "run"},
     2,
     "is a symbolic link"},
    {"manifest swapped for a link after prepare, cleanup",
     kManifest,
     true,
     Intruder::kLinkToUserFile,
     {"cleanup"},
     2,
     "is a symbolic link"},
    {"temp manifest a link after prepare, seqwr (which rewrites the manifest)",
     kTmp,
     true,
     Intruder::kLinkToUserFile,
     {"--file-test-mode=seqwr", "--events=200", "run"},
     2,
     "is a symbolic link"},
    {"temp manifest a dangling link after prepare, prepare",
     kTmp,
     true,
     Intruder::kDanglingLink,
     {"--file-write-pattern=zero", "prepare"},
     2,
     "is a symbolic link"},
};

TEST_F(FileSafety, LinksAndSpecialFilesAreRefusedAndLeftAlone) {
  for (const PlacedCase& c : kPlacedCases) {
    SCOPED_TRACE(c.name);
    std::filesystem::remove_all(Dir());
    ASSERT_EQ(::mkdir(Dir().c_str(), 0755), 0);
    if (c.after_prepare) Prepare();
    const std::string at = In(c.entry);
    if (c.after_prepare) {
      ASSERT_TRUE(!Exists(at) || ::unlink(at.c_str()) == 0);
    }
    const std::string dangling = home_.File("nothing-here");
    switch (c.intruder) {
      case Intruder::kLinkToUserFile:
        ASSERT_EQ(::symlink(user_.c_str(), at.c_str()), 0);
        break;
      case Intruder::kDanglingLink:
        ASSERT_EQ(::symlink(dangling.c_str(), at.c_str()), 0);
        break;
      case Intruder::kLinkToFolder:
        ASSERT_EQ(::symlink(home_.path().c_str(), at.c_str()), 0);
        break;
      case Intruder::kFifo:
        ASSERT_EQ(::mkfifo(at.c_str(), 0644), 0);
        break;
    }
    struct stat before;
    ASSERT_EQ(::lstat(at.c_str(), &before), 0);

    ProcessResult r = Fileio(c.command);
    if (c.exit_code == 2) {
      ExpectRefused(r, c.says);
      EXPECT_NE(r.err.find(at), std::string::npos) << r.err;
    } else {
      EXPECT_EQ(r.exit_code, c.exit_code) << Show(r);
      EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
    }
    // The intruder is exactly where it was, and nothing was made through it.
    struct stat after;
    EXPECT_EQ(::lstat(at.c_str(), &after), 0) << "the intruder is gone";
    EXPECT_EQ(after.st_ino, before.st_ino);
    EXPECT_EQ(after.st_mode, before.st_mode);
    EXPECT_FALSE(Exists(dangling));
    ExpectUserFileUnchanged();
    if (std::string(c.entry) != kLock) {
      EXPECT_FALSE(Exists(In(kLock))) << "a lock was left";
    }
  }
}

// ---- Forged and foreign manifests ----

struct ForgeryCase {
  const char* name;
  // Edits the manifest text; `victim` is the path of a file of the user's
  // that the forgery names.
  std::function<std::string(const std::string& manifest, const std::string& victim_line)> forge;
  const char* victim_name;  // where the victim lives, relative to the test folder
  std::vector<std::string> command;
  const char* says;
};

// "file NAME size=... state=complete device=D inode=I" for the file at `path`.
std::string EntryFor(const std::string& name, const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "";
  return "file " + name + " size=" + std::to_string(st.st_size) +
         " state=complete device=" + std::to_string(st.st_dev) +
         " inode=" + std::to_string(st.st_ino) + "\n";
}

TEST_F(FileSafety, ForgedManifestsAreRefusedWithNothingTouched) {
  const std::vector<ForgeryCase> cases = {
      {"an entry naming another file of the folder",
       [](const std::string& m, const std::string& v) { return m + v; },
       "victim.txt",
       {"cleanup"},
       "which is not a loadcell test file"},
      {"an entry naming a file above the folder",
       [](const std::string& m, const std::string& v) { return m + v; },
       "../victim.txt",
       {"cleanup"},
       "which is not a loadcell test file"},
      {"an entry with an absolute path",
       [](const std::string& m, const std::string& v) { return m + v; },
       "/ABS",
       {"cleanup"},
       "which is not a loadcell test file"},
      {"a test file name with a leading zero",
       [](const std::string& m, const std::string&) {
         return m + "file test_file.01 size=1 state=complete device=1 inode=1\n";
       },
       "",
       {"cleanup"},
       "which is not a loadcell test file"},
      {"a test file listed twice",
       [](const std::string& m, const std::string&) {
         const size_t at = m.find("file test_file.0 ");
         return m + m.substr(at, m.find('\n', at) + 1 - at);
       },
       "",
       {"cleanup"},
       "listed twice"},
      {"an entry without its identity",
       [](const std::string& m, const std::string&) {
         return m + "file test_file.9 size=262144 state=complete\n";
       },
       "",
       {"cleanup"},
       "without its identity fields"},
      {"an unknown field",
       [](const std::string& m, const std::string&) {
         return m + "file test_file.9 size=1 state=complete device=1 inode=1 path=/etc/passwd\n";
       },
       "",
       {"--file-test-mode=rndrd", "run"},
       "is not a field of a file line"},
      {"a manifest of version 1 (no identities)",
       [](const std::string&, const std::string&) {
         return std::string(
             "version 1\nblock-size 4096\npattern random\nstamped 1\n"
             "file test_file.0 262144 complete\n");
       },
       "",
       {"cleanup"},
       "version 1"},
      {"a version-1 manifest, prepare",
       [](const std::string&, const std::string&) {
         return std::string("version 1\nfile test_file.0 262144 complete\n");
       },
       "",
       {"prepare"},
       "version 1"},
  };
  for (const ForgeryCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::filesystem::remove_all(Dir());
    ASSERT_EQ(::mkdir(Dir().c_str(), 0755), 0);
    Prepare();
    std::string victim_line;
    std::string victim;
    if (*c.victim_name != '\0') {
      victim = std::string(c.victim_name) == "/ABS" ? user_ : In(c.victim_name);
      if (victim != user_) {
        std::ofstream(victim) << user_bytes_;
      }
      const std::string name = std::string(c.victim_name) == "/ABS" ? user_ : c.victim_name;
      victim_line = EntryFor(name, victim);
      ASSERT_FALSE(victim_line.empty());
    }
    const std::string forged = c.forge(testing::ReadFile(In(kManifest)), victim_line);
    std::ofstream(In(kManifest), std::ios::trunc) << forged;

    ProcessResult r = Fileio(c.command);
    ExpectRefused(r, c.says);
    EXPECT_NE(r.err.find("manifest line"), std::string::npos) << r.err;
    if (!victim.empty()) {
      EXPECT_EQ(testing::ReadFile(victim), user_bytes_);
    }
    ExpectUserFileUnchanged();
    // Nothing listed was touched: the test files and the forged manifest stay.
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(Exists(In("test_file." + std::to_string(i))));
    EXPECT_EQ(testing::ReadFile(In(kManifest)), forged);
    if (!victim.empty() && victim != user_) std::filesystem::remove(victim);
  }
}

// ---- A test file replaced after prepare ----

struct ReplacedCase {
  const char* name;
  std::vector<std::string> prepare_extra;
  // Replaces test_file.1 (what the user does after prepare).
  std::function<void(const FileSafety&)> replace;
  std::vector<std::string> command;
  int exit_code;
  const char* says;
};

TEST_F(FileSafety, AFileThatIsNotTheOnePreparedIsLeftInPlace) {
  auto with_users_file = [](const FileSafety& t) { t.PutUsersFileAt("test_file.1"); };
  auto rewritten_in_place = [](const FileSafety& t) {
    // Same inode and size, another program's bytes at the start.
    std::fstream f(t.In("test_file.1"), std::ios::in | std::ios::out | std::ios::binary);
    f.write(t.user_bytes_.data(), 4096);
  };
  auto grown = [](const FileSafety& t) {
    std::ofstream(t.In("test_file.1"), std::ios::app) << "more";
  };
  const std::vector<ReplacedCase> cases = {
      {"the user's file, cleanup", {}, with_users_file, {"cleanup"}, 0, "Left '"},
      {"the user's file, rndwr",
       {},
       with_users_file,
       {"--file-test-mode=rndwr", "--events=100", "run"},
       2,
       "is not the file loadcell created"},
      {"the user's file, rndrd",
       {},
       with_users_file,
       {"--file-test-mode=rndrd", "--events=100", "run"},
       2,
       "is not the file loadcell created"},
      {"the user's file, seqwr",
       {},
       with_users_file,
       {"--file-test-mode=seqwr", "--events=100", "run"},
       2,
       "is not the file loadcell created"},
      {"the user's file, prepare",
       {},
       with_users_file,
       {"prepare"},
       2,
       "is not the file loadcell created"},
      {"the user's file, prepare with another pattern",
       {},
       with_users_file,
       {"--file-write-pattern=sequence", "prepare"},
       2,
       "is not the file loadcell created"},
      {"zero pattern: the user's file, cleanup",
       {"--file-write-pattern=zero"},
       with_users_file,
       {"cleanup"},
       0,
       "Left '"},
      {"rewritten in place by another program, cleanup",
       {},
       rewritten_in_place,
       {"cleanup"},
       0,
       "does not start with loadcell's block stamp"},
      {"rewritten in place by another program, rndrd",
       {},
       rewritten_in_place,
       {"--file-test-mode=rndrd", "--events=100", "run"},
       2,
       "does not start with loadcell's block stamp"},
      {"zero pattern, rewritten in place, prepare",
       {"--file-write-pattern=zero"},
       rewritten_in_place,
       {"--file-write-pattern=zero", "prepare"},
       2,
       "does not start with the zero pattern"},
      {"grown by another program, cleanup",
       {},
       grown,
       {"cleanup"},
       0,
       "bytes where loadcell wrote"},
  };
  for (const ReplacedCase& c : cases) {
    SCOPED_TRACE(c.name);
    std::filesystem::remove_all(Dir());
    ASSERT_EQ(::mkdir(Dir().c_str(), 0755), 0);
    Prepare(c.prepare_extra);
    c.replace(*this);
    const std::string kept = testing::ReadFile(In("test_file.1"));

    ProcessResult r = Fileio(c.command);
    if (c.exit_code == 2) {
      ExpectRefused(r, c.says);
      for (int i = 0; i < 4; ++i) EXPECT_TRUE(Exists(In("test_file." + std::to_string(i))));
    } else {
      EXPECT_EQ(r.exit_code, 0) << Show(r);
      EXPECT_NE(r.out.find(c.says), std::string::npos) << r.out;
      EXPECT_NE(r.out.find("Removed 3 files and the manifest; left 1 file that loadcell did not "
                           "create."),
                std::string::npos)
          << r.out;
      for (int i : {0, 2, 3}) EXPECT_FALSE(Exists(In("test_file." + std::to_string(i))));
      EXPECT_FALSE(Exists(In(kManifest)));
    }
    EXPECT_EQ(testing::ReadFile(In("test_file.1")), kept) << "the file was changed";
    ExpectUserFileUnchanged();
  }
}

}  // namespace
}  // namespace loadcell::file_safety
