// A secret option's value (a password) never appears in a message, warning,
// table, file name or report, whatever form it was given in. One row per
// form; the next form found joins the table.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/build_info.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Expand;
using testing::ProcessResult;
using testing::RunLoadcell;
using testing::TempDir;

constexpr const char* kSecret = "Sup3rS3cret";

struct Form {
  const char* name;
  std::vector<std::string> args;  // "@" is the temp folder
  int exit_code;                  // 2: refused as bad usage; -1: not checked
  const char* says;               // in the refusal's line ("" for a run that goes on)
};

// Every file below `dir`: its name and its content hold no secret.
void ExpectNoSecretIn(const std::string& dir) {
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    EXPECT_EQ(e.path().string().find(kSecret), std::string::npos) << e.path();
    if (!e.is_regular_file()) continue;
    std::string text = testing::ReadFile(e.path().string());
    EXPECT_EQ(text.find(kSecret), std::string::npos) << e.path();
  }
}

TEST(Secrets, NoFormOfAPasswordIsEverPrinted) {
  const std::string s = kSecret;
  const std::vector<Form> forms = {
      {"space form",
       {"oltp_read_write", "--pgsql-password", s, "run"},
       2,
       "'--pgsql-password (hidden)': options take their value after '='"},
      {"space form, mysql",
       {"oltp_read_write", "--mysql-password", s, "run"},
       2,
       "'--mysql-password (hidden)': options take their value after '='"},
      {"en dash",
       {"oltp_read_write", "\u2013pgsql-password=" + s, "--db-driver=nosuch", "run"},
       2,
       "--db-driver=nosuch: unknown database driver"},
      {"em dash",
       {"oltp_read_write", "\u2014mysql-password=" + s, "--db-driver=nosuch", "run"},
       2,
       "--db-driver=nosuch: unknown database driver"},
      {"minus sign",
       {"oltp_read_write", "\u2212pgsql-password=" + s, "--db-driver=nosuch", "run"},
       2,
       "--db-driver=nosuch: unknown database driver"},
      {"config line without =",
       {"oltp_read_write", "--config-file=@/space.cfg", "run"},
       2,
       "space.cfg line 1: expected 'name=value' with a name of letters, digits, '-' and '_' (the "
       "line is not shown: it may hold a secret)"},
      {"config file holding a .pgpass line",
       {"cpu", "--config-file=@/pgpass.cfg", "run"},
       2,
       "pgpass.cfg line 1: expected 'name=value' with a name of letters, digits, '-' and '_' (the "
       "line is not shown: it may hold a secret)"},
      // A password file as the config file: one word, which reads as an option.
      {"config file holding one bare word",
       {"cpu", "--config-file=@/word.cfg", "run"},
       2,
       "word.cfg line 1: unknown option (the line is not shown: it may hold a secret) for test "
       "'cpu'; see 'loadcell cpu help'"},
      {"sqlio param file holding a .pgpass line, 2 fields",
       {"sqlio", "-kR", "-F@/pgpass2.txt"},
       2,
       "pgpass2.txt line 1: the thread count (field 2) must be 1 to 256"},
      {"sqlio param file, the secret as the mask",
       {"sqlio", "-kR", "-F@/pgpass3.txt"},
       2,
       "pgpass3.txt line 1: the affinity mask (field 3) is not a mask"},
      {"sqlio param file, the secret as the size",
       {"sqlio", "-kR", "-F@/pgpass4.txt"},
       2,
       "pgpass4.txt line 1: the size (field 4) is not a number of MB"},
      {"config line, dash and =",
       {"oltp_read_write", "--config-file=@/dash.cfg", "--db-driver=nosuch", "run"},
       2,
       "--db-driver=nosuch: unknown database driver"},
      {"sweep list, text",
       {"sweep", "--mysql-password=" + s + ",other", "--output-dir=@/sweep", "--", "cpu",
        "--time=0.1", "run"},
       2,
       "sweep point mysql-password=hidden-1: unknown option '--mysql-password' (sweep) for test "
       "'cpu'"},
      // Where the build has pgsql, the sweep runs (exit 0, and checked
      // below); a build without it stops at the option (not checked here).
      {"sweep list, csv",
       {"sweep", "--pgsql-password=" + s + ",other", "--format=csv", "--output-dir=@/sweep2",
        "--report-html=@/sweep.html", "--", "oltp_point_select", "--db-driver=sqlite",
        "--sqlite-db=@/x.db", "--table-size=10", "--time=0.1", "run"},
       IsLeftOut("pgsql") ? -1 : 0,
       ""},
  };
  bool swept = false;  // the sweep that runs wrote its files
  for (const Form& f : forms) {
    SCOPED_TRACE(f.name);
    TempDir dir;
    dir.Write("space.cfg", "pgsql-password " + s + "\n");
    dir.Write("dash.cfg", "\u2013mysql-password=" + s + "\n");
    dir.Write("pgpass.cfg", "localhost:5432:shop:loadcell:" + s + "\n");
    dir.Write("pgpass2.txt", "localhost:5432:shop " + s + "\n");
    dir.Write("pgpass3.txt", "localhost:5432:shop 1 " + s + "\n");
    dir.Write("pgpass4.txt", "localhost:5432:shop 1 0x0 " + s + "\n");
    dir.Write("word.cfg", s + "\n");
    ASSERT_EQ(RunLoadcell({"oltp_point_select", "--db-driver=sqlite",
                           "--sqlite-db=" + dir.File("x.db"), "--table-size=10", "prepare"})
                  .exit_code,
              0);
    ProcessResult r = RunLoadcell(Expand(f.args, dir.path()));
    EXPECT_EQ(r.out.find(kSecret), std::string::npos) << r.out;
    EXPECT_EQ(r.err.find(kSecret), std::string::npos) << r.err;
    EXPECT_FALSE(r.err.empty() && r.out.empty());
    if (f.exit_code >= 0) {
      EXPECT_EQ(r.exit_code, f.exit_code) << r.err;
    }
    if (f.exit_code == 2) {  // refused in one line that says why
      EXPECT_EQ(testing::CountOf(r.err, "error:"), 1u) << r.err;
      EXPECT_NE(r.err.find(f.says), std::string::npos) << r.err;
    }
    std::filesystem::remove(dir.File("space.cfg"));
    std::filesystem::remove(dir.File("dash.cfg"));
    for (const char* name :
         {"pgpass.cfg", "pgpass2.txt", "pgpass3.txt", "pgpass4.txt", "word.cfg"}) {
      std::filesystem::remove(dir.File(name));
    }
    ExpectNoSecretIn(dir.path());
    if (std::filesystem::exists(dir.File("sweep.html"))) {
      swept = true;
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_NE(r.out.find("hidden-1"), std::string::npos) << r.out;
      EXPECT_TRUE(std::filesystem::exists(
          dir.File("sweep2/oltp_point_select-pgsql-password=hidden-1.json")));
    }
  }
  // The sweeps name --pgsql-password, an option of a part that a build may
  // leave out (so far the Windows build): there they stop at it, unrun.
  EXPECT_EQ(swept, !IsLeftOut("pgsql"));
}

}  // namespace
}  // namespace loadcell
