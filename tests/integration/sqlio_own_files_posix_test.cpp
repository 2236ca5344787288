// `loadcell sqlio` touches only what is provably its own: a write test
// (-kW) writes to a file only when the folder's SQLIO manifest lists it as
// created with its identity, or with --sqlio-use-existing=write; never to
// the param file, the manifest or the lock; nothing is created under /dev;
// a control byte in a path is refused; two writers never share a folder; a
// file a killed creation left short is refused until it is made again.

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ChildWatch;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;

class SqlioOwnFiles : public ::testing::Test {
 protected:
  // `loadcell sqlio` with drive C: as the test folder, 8 KB blocks, 1 s.
  ProcessResult Sqlio(std::vector<std::string> args, const ChildWatch& watch = ChildWatch()) {
    args.insert(args.begin(), {"sqlio", "--drive=C=" + dir_, "--quiet", "-s1", "-b8", "-BY"});
    return RunLoadcell(args, watch);
  }
  static std::string Read(const std::string& path) { return testing::ReadFile(path); }
  static ino_t InodeOf(const std::string& path) {
    struct stat st {};
    EXPECT_EQ(::stat(path.c_str(), &st), 0) << path;
    return st.st_ino;
  }
  // A refusal before anything is written: one line naming `says`, exit 2.
  static void ExpectRefused(const ProcessResult& r, const std::string& says) {
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    EXPECT_EQ(testing::OutputLines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind("loadcell: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;  // every byte shown escaped
    EXPECT_EQ(r.err.find("\xc2\x9b"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();  // drive C:
  testing::TempDir home_;                // the user's own files
};

// 64 KB of a user's text (a copy of a system file, say).
std::string UserText() {
  std::string text;
  while (text.size() < (64 << 10)) text += "root:x:0:0:root:/root:/bin/bash\n";
  return text;
}

TEST_F(SqlioOwnFiles, FilesThatAreNotItsOwnAreRefused) {
  struct Case {
    const char* name;
    // The param file's text; @P is the param file's path, @U a user's file,
    // @D the folder of drive C:.
    std::string param;
    std::vector<std::string> extra;
    std::string says;
    // A hard link made in the folder of drive C: under this name, to the
    // manifest ("m") or to the param file ("p"), before the run.
    std::string link = "";
    char link_to = 0;
  };
  const std::string dev = "/dev/loadcell-missing-" + std::to_string(::getpid());
  const std::string padding = "# " + std::string(16 << 10, 'x') + "\n";  // over one block
  const std::vector<Case> cases = {
      {"a copy of a user's file at an absolute path",
       "@U 1 0x0\n",
       {"-kW"},
       "is not listed as created by loadcell sqlio in " + home_.path() +
           "/.loadcell-sqlio.manifest"},
      {"the same file through the drive",
       "c:\\user.dat 1 0x0\n",
       {"-kW"},
       "is not listed as created by loadcell sqlio"},
      {"the param file itself", "@P 1 0x0\n" + padding, {"-kW"}, "is the param file (-F) itself"},
      {"the param file itself, with the opt-in",
       "@P 1 0x0\n" + padding,
       {"-kW", "--sqlio-use-existing=write"},
       "is the param file (-F) itself"},
      {"the param file itself, read",
       "@P 1 0x0\n" + padding,
       {"-kR"},
       "is the param file (-F) itself"},
      {"the manifest",
       "c:\\.loadcell-sqlio.manifest 1 0x0 1\n",
       {"-kW", "--sqlio-use-existing=write"},
       "is loadcell sqlio's own bookkeeping file"},
      {"a hard link to the manifest",
       "c:\\mlink.dat 1 0x0 1\n",
       {"-kW", "--sqlio-use-existing=write"},
       "is the folder's .loadcell-sqlio.manifest under another name",
       "mlink.dat",
       'm'},
      {"a hard link to the param file",
       "c:\\plink.dat 1 0x0 1\n" + padding,
       {"-kW", "--sqlio-use-existing=write"},
       "is the param file (-F) itself",
       "plink.dat",
       'p'},
      {"the lock",
       "c:\\.loadcell-sqlio.lock 1 0x0 1\n",
       {"-kR"},
       "is loadcell sqlio's own bookkeeping file"},
      {"a missing /dev/NAME",
       dev + " 1 0x0 1\n",
       {"-kW"},
       dev + " does not exist; loadcell never creates files under /dev"},
      {"a missing /dev/NAME, read",
       dev + " 1 0x0 1\n",
       {"-kR"},
       dev + " does not exist; loadcell never creates files under /dev"},
      {"a NUL in a path",
       std::string("c:\\te\0st.dat 1 0x0 1\n", 21),
       {"-kW"},
       "line 1: the path holds the control byte \\x00"},
      {"an escape byte in a path",
       "# two\n\nc:\\te\x1bst.dat 1 0x0 1\n",
       {"-kW"},
       "line 3: the path holds the control byte \\x1b"},
      // U+009B (CSI to a UTF-8 terminal) in UTF-8: a C1 control.
      {"a C1 control in a path",
       "c:\\te\xc2\x9bst.dat 1 0x0 1\n",
       {"-kW"},
       "line 1: the path holds the control byte \\xc2\\x9b"},
  };
  const std::string user_text = UserText();
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string user = home_.Write("passwd-copy", user_text);
    std::ofstream(dir_ + "/user.dat", std::ios::binary) << user_text;
    const std::string param_path = home_.File("param.txt");
    std::string param = c.param;
    for (const auto& [at, what] :
         std::vector<std::pair<std::string, std::string>>{{"@P", param_path}, {"@U", user}}) {
      for (size_t i = param.find(at); i != std::string::npos; i = param.find(at)) {
        param.replace(i, at.size(), what);
      }
    }
    home_.Write("param.txt", param);
    // A manifest made by an earlier run, for the manifest's own row.
    std::ofstream(dir_ + "/.loadcell-sqlio.manifest", std::ios::app);
    if (!c.link.empty()) {
      const std::string link = dir_ + "/" + c.link;
      std::filesystem::remove(link);
      std::filesystem::create_hard_link(
          c.link_to == 'm' ? dir_ + "/.loadcell-sqlio.manifest" : param_path, link);
    }
    ProcessResult r = Sqlio(testing::Concat(c.extra, {"-F" + param_path}));
    ExpectRefused(r, c.says);
    EXPECT_EQ(Read(user), user_text);
    EXPECT_EQ(Read(dir_ + "/user.dat"), user_text);
    EXPECT_EQ(Read(param_path), param);
    EXPECT_EQ(Read(dir_ + "/.loadcell-sqlio.manifest"), "");
    EXPECT_FALSE(std::filesystem::exists(dev));
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/te"));
    EXPECT_FALSE(std::filesystem::exists(dir_ + "/.loadcell-sqlio.lock"));
  }
}

TEST_F(SqlioOwnFiles, AUserFileIsReadFreelyAndWrittenOnlyWithTheOptIn) {
  const std::string user_text = UserText();
  const std::string user = home_.Write("data.dat", user_text);
  const std::string param = home_.Write("param.txt", user + " 1 0x0\n");
  ProcessResult read = Sqlio({"-kR", "-F" + param});
  EXPECT_EQ(read.exit_code, 0) << Show(read);
  EXPECT_EQ(Read(user), user_text);
  ProcessResult write = Sqlio({"-kW", "--sqlio-use-existing=write", "-F" + param});
  EXPECT_EQ(write.exit_code, 0) << Show(write);
  EXPECT_NE(Read(user), user_text);
  EXPECT_EQ(Read(user).size(), user_text.size());  // never grown or truncated
  EXPECT_FALSE(std::filesystem::exists(home_.File(".loadcell-sqlio.manifest")));  // not ours
  ExpectRefused(Sqlio({"-kW", "--sqlio-use-existing=yes", "-F" + param}),
                "--sqlio-use-existing is write");
}

TEST_F(SqlioOwnFiles, ItsOwnFileIsWrittenUntilItChanges) {
  const std::string param = home_.Write("param.txt", "c:\\own.dat 1 0x0 1\n");
  ProcessResult made = Sqlio({"-kW", "-F" + param});
  ASSERT_EQ(made.exit_code, 0) << Show(made);
  ProcessResult again = Sqlio({"-kW", "-F" + param});
  EXPECT_EQ(again.exit_code, 0) << Show(again);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/.loadcell-sqlio.lock"));  // let go
  // Replaced by another file of the same name and size: not ours any more,
  // even with the inode number of the one removed, which ext4 gives to a
  // later file: new files are made (and the others kept aside) until one
  // has it, or 64 were made (a file system that does not reuse it).
  const std::string own = dir_ + "/own.dat";
  const std::string text = Read(own);
  const ino_t was = InodeOf(own);
  std::filesystem::remove(own);
  for (int i = 0;; ++i) {
    std::ofstream(own, std::ios::binary) << text;
    if (InodeOf(own) == was || i == 64) break;
    std::filesystem::rename(own, home_.File("aside." + std::to_string(i)));
  }
  ExpectRefused(Sqlio({"-kW", "-F" + param}), "is not listed as created by loadcell sqlio");
  EXPECT_EQ(Read(own), text);
}

TEST_F(SqlioOwnFiles, TwoWritersNeverShareAFolder) {
  const std::string param = home_.Write("param.txt", "c:\\big.dat 1 0x0 400\n");
  ProcessResult second;
  ChildWatch watch;
  watch.marker = "creating file";
  watch.during = [&](int pid) {
    // The first one is creating its file: the second may neither measure it
    // nor create it too.
    second = Sqlio({"-kW", "-F" + param});
    testing::SendInterrupt(pid);
  };
  ProcessResult first = Sqlio({"-kW", "-F" + param}, watch);
  EXPECT_EQ(first.exit_code, 130) << Show(first);
  ExpectRefused(second, "sqlio: " + dir_ + " is in use by another loadcell (pid ");
  EXPECT_NE(second.err.find(" loadcell sqlio)"), std::string::npos) << second.err;
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/.loadcell-sqlio.lock"));
}

TEST_F(SqlioOwnFiles, AFileAKilledCreationLeftShortIsRefusedUntilMadeAgain) {
  const std::string big = dir_ + "/big.dat";
  const std::string param = home_.Write("param.txt", "c:\\big.dat 1 0x0 256\n");
  ChildWatch watch;
  watch.marker = "creating file";
  watch.during = [&](int pid) {
    // Killed once the first MB is written.
    for (int i = 0; i < 1000; ++i) {
      std::error_code ec;
      if (std::filesystem::file_size(big, ec) >= (1 << 20)) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
  };
  ProcessResult killed = Sqlio({"-kW", "-F" + param}, watch);
  ASSERT_EQ(killed.exit_code, 128 + SIGKILL) << Show(killed);
  ASSERT_TRUE(std::filesystem::exists(big));
  const uintmax_t size = std::filesystem::file_size(big);
  ASSERT_LT(size, 256u << 20);
  for (const char* mode : {"-kR", "-kW"}) {
    SCOPED_TRACE(mode);
    ProcessResult r = Sqlio({mode, "--sqlio-use-existing=write", "-F" + param});
    ExpectRefused(r, "is incomplete (" + std::to_string(size) + " of 268435456 bytes)");
    EXPECT_EQ(std::filesystem::file_size(big), size);
  }
  // Made again (here smaller): measured.
  std::filesystem::remove(big);
  home_.Write("param.txt", "c:\\big.dat 1 0x0 1\n");
  ProcessResult made = Sqlio({"-kR", "-F" + param});
  EXPECT_EQ(made.exit_code, 0) << Show(made);
  EXPECT_EQ(std::filesystem::file_size(big), 1u << 20);
}

}  // namespace
}  // namespace loadcell
