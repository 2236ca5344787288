#include "cli/command_line.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell {
namespace {

bool IsTest(const std::string& name) { return name == "cpu" || name == "memory" || name == "oltp"; }

CommandLine Tokenize(const std::vector<std::string>& args) {
  auto r = TokenizeArgs(args);
  EXPECT_OK(r);
  return r.ok() ? std::move(r).value() : CommandLine{};
}

Result<Invocation> InterpretArgs(const std::vector<std::string>& args) {
  auto cl = TokenizeArgs(args);
  if (!cl.ok()) return cl.status();
  return Interpret(*cl, &IsTest);
}

TEST(TokenizeTest, OptionsAndWordsInAnyOrder) {
  CommandLine cl = Tokenize({"--threads=4", "cpu", "--cpu-max-prime=20000", "run", "--histogram"});
  EXPECT_EQ(cl.words, (std::vector<std::string>{"cpu", "run"}));
  ASSERT_EQ(cl.options.entries().size(), 3u);
  EXPECT_EQ(cl.options.Find("threads")->value, "4");
  EXPECT_TRUE(cl.options.Find("threads")->has_value);
  EXPECT_EQ(cl.options.Find("cpu-max-prime")->value, "20000");
  EXPECT_FALSE(cl.options.Find("histogram")->has_value);
  EXPECT_EQ(cl.options.Find("threads")->origin, "command line");
  EXPECT_TRUE(cl.warnings.empty());
}

TEST(TokenizeTest, BareFlagThenWordIsFlagPlusWord) {
  CommandLine cl = Tokenize({"--histogram", "cpu"});
  EXPECT_EQ(cl.words, std::vector<std::string>{"cpu"});
  EXPECT_EQ(cl.flag_before, std::vector<std::string>{"--histogram"});
  EXPECT_FALSE(cl.options.Find("histogram")->has_value);
}

TEST(TokenizeTest, ValuesMayContainEqualsAndDashes) {
  CommandLine cl = Tokenize({"--rate=-5", "--name=a=b"});
  EXPECT_EQ(cl.options.Find("rate")->value, "-5");
  EXPECT_EQ(cl.options.Find("name")->value, "a=b");
}

TEST(TokenizeTest, DoubleDashEndsOptions) {
  CommandLine cl = Tokenize({"cpu", "--", "--x"});
  EXPECT_EQ(cl.words, (std::vector<std::string>{"cpu", "--x"}));
  EXPECT_TRUE(cl.options.entries().empty());
}

TEST(TokenizeTest, TypographicDashesBecomeDoubleDash) {
  const std::string en = "\xE2\x80\x93", em = "\xE2\x80\x94", minus = "\xE2\x88\x92";
  CommandLine cl = Tokenize(
      {en + "test=cpu", em + "-threads=2", minus + minus + "time=1", "-" + en + "events=5"});
  EXPECT_EQ(cl.options.Find("test")->value, "cpu");
  EXPECT_EQ(cl.options.Find("test")->spelled, "--test");
  EXPECT_EQ(cl.options.Find("threads")->value, "2");
  EXPECT_EQ(cl.options.Find("time")->value, "1");
  EXPECT_EQ(cl.options.Find("events")->value, "5");
  ASSERT_EQ(cl.warnings.size(), 4u);
  EXPECT_EQ(cl.warnings[0], "'" + en + "test=cpu' uses a typographic dash; read as '--test=cpu'");
}

TEST(TokenizeTest, SingleDashAndEmptyNamesAreErrors) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"-t"}, {"-threads=2"}, {"--=5"}, {"--a b=1"}}) {
    auto r = TokenizeArgs(args);
    ASSERT_FALSE(r.ok()) << args[0];
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(r.status().message().find(args[0]), std::string::npos) << r.status().message();
  }
  CommandLine help = Tokenize({"-h"});
  EXPECT_NE(help.options.Find("help"), nullptr);
}

TEST(InterpretTest, CurrentSyntax) {
  auto inv = InterpretArgs({"cpu"});
  ASSERT_OK(inv);
  EXPECT_EQ(inv->command, Command::kRun);
  EXPECT_EQ(inv->test, "cpu");
  for (auto [word, cmd] :
       std::vector<std::pair<std::string, Command>>{{"run", Command::kRun},
                                                    {"prepare", Command::kPrepare},
                                                    {"cleanup", Command::kCleanup},
                                                    {"help", Command::kTestHelp}}) {
    auto r = InterpretArgs({"--threads=2", "memory", "--x=1", word, "--y=2"});
    ASSERT_OK(r) << word;
    EXPECT_EQ(r->command, cmd) << word;
    EXPECT_EQ(r->test, "memory");
  }
}

TEST(InterpretTest, LegacySyntax) {
  auto cl = TokenizeArgs({"--test=cpu", "--num-threads=2", "run"});
  ASSERT_OK(cl);
  auto inv = Interpret(*cl, &IsTest);
  ASSERT_OK(inv);
  EXPECT_EQ(inv->test, "cpu");
  EXPECT_EQ(inv->command, Command::kRun);
  EXPECT_TRUE(cl->options.Find("test")->consumed);
  EXPECT_FALSE(cl->options.Find("num-threads")->consumed);

  auto lua =
      InterpretArgs({"--test=/usr/share/sysbench/tests/include/oltp_legacy/oltp.lua", "prepare"});
  ASSERT_OK(lua);
  EXPECT_EQ(lua->test, "oltp");
  EXPECT_EQ(lua->test_spelled, "/usr/share/sysbench/tests/include/oltp_legacy/oltp.lua");
  EXPECT_EQ(lua->command, Command::kPrepare);
}

TEST(InterpretTest, TopLevelCommands) {
  EXPECT_EQ(InterpretArgs({"list"})->command, Command::kList);
  EXPECT_EQ(InterpretArgs({"suite", "--threads=2"})->command, Command::kSuite);
  EXPECT_EQ(InterpretArgs({"version"})->command, Command::kVersion);
  EXPECT_EQ(InterpretArgs({"--version"})->command, Command::kVersion);
  EXPECT_EQ(InterpretArgs({"help"})->command, Command::kUsage);
  EXPECT_EQ(InterpretArgs({"--help"})->command, Command::kUsage);
  EXPECT_EQ(InterpretArgs({"--help=off", "cpu"})->command, Command::kRun);
  auto help_cpu = InterpretArgs({"help", "cpu"});
  EXPECT_EQ(help_cpu->command, Command::kTestHelp);
  EXPECT_EQ(help_cpu->test, "cpu");
  EXPECT_EQ(InterpretArgs({"cpu", "--help"})->command, Command::kTestHelp);
}

TEST(InterpretTest, Errors) {
  struct Case {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"cpu", "memory"}, "test given twice: 'cpu' and 'memory'"},
      {{"--test=cpu", "cpu"}, "test given twice: --test=cpu and 'cpu'"},
      {{"cpu", "x.lua"}, "test given twice"},
      {{"cpu", "runn"},
       "unknown command 'runn' for test 'cpu'; use prepare, run, cleanup or help (did you mean "
       "'run'?)"},
      {{"cpu", "run", "extra"}, "unexpected argument 'extra' after 'run'"},
      {{"cpu", "run", "prepare"}, "more than one command given: 'run' and 'prepare'"},
      {{"list", "cpu"}, "unexpected argument 'cpu' after 'list'"},
      {{"cpu", "--threads", "4"},
       "'--threads 4': options take their value after '=': write '--threads=4'"},
      {{"--threads=2"}, "no test given"},
      {{"run"}, "no test given"},
      {{"--test", "run"}, "--test: needs a test name"},
      {{"--help=maybe", "cpu"}, "--help=maybe: not a boolean"},
  };
  for (const Case& c : cases) {
    auto r = InterpretArgs(c.args);
    ASSERT_FALSE(r.ok()) << c.args[0] << " " << c.args[1 % c.args.size()];
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(r.status().message().rfind(c.expected, 0), 0u) << r.status().message();
  }
}

TEST(TestNameTest, BasenameWithoutLua) {
  EXPECT_EQ(TestNameFromSpelling("cpu"), "cpu");
  EXPECT_EQ(TestNameFromSpelling("oltp.lua"), "oltp");
  EXPECT_EQ(TestNameFromSpelling("/x/y/oltp_read_only.lua"), "oltp_read_only");
  EXPECT_EQ(TestNameFromSpelling("./select"), "select");
}

TEST(ConfigFileTest, ParsesLinesCommentsAndQuotes) {
  auto r = ParseConfigText(
      "# comment\n\nthreads=4\n--time = 5s\n  rand_type=uniform  \nhistogram\n"
      "mysql-password=\"a b\"\r\n",
      "my.conf");
  ASSERT_OK(r);
  RawOptions& raw = *r;
  ASSERT_EQ(raw.entries().size(), 5u);
  EXPECT_EQ(raw.Find("threads")->value, "4");
  EXPECT_EQ(raw.Find("threads")->origin, "config file my.conf line 3");
  EXPECT_EQ(raw.Find("threads")->spelled, "--threads");
  EXPECT_EQ(raw.Find("time")->value, "5s");
  EXPECT_EQ(raw.Find("rand-type")->value, "uniform");
  EXPECT_FALSE(raw.Find("histogram")->has_value);
  EXPECT_EQ(raw.Find("mysql-password")->value, "a b");
}

TEST(ConfigFileTest, BadLineNamesFileAndLine) {
  auto r = ParseConfigText("threads=4\n\nnot an option\n", "my.conf");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "config file my.conf line 3: expected 'name=value' with a name of letters, digits, "
            "'-' and '_' (the line is not shown: it may hold a secret)");
  EXPECT_FALSE(ParseConfigText("=5\n", "f").ok());
}

TEST(ConfigFileTest, CommandLineWins) {
  CommandLine cl =
      Tokenize({"--threads=8", "--config-file=" LOADCELL_SOURCE_DIR "/nonexistent.conf"});
  Status missing = MergeConfigFile(cl.options);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(missing.message().find("nonexistent.conf"), std::string::npos);

  RawOptions file = ParseConfigText("threads=2\ntime=3\n", "f").value();
  RawOptions cmd = Tokenize({"--threads=8"}).options;
  cmd.AddDefaults(file);
  EXPECT_EQ(cmd.Find("threads")->value, "8");
  EXPECT_EQ(cmd.Find("time")->value, "3");
}

TEST(ClosestMatchTest, SuggestsNearNames) {
  std::vector<std::string> names = {"threads", "time", "events", "cpu-max-prime"};
  EXPECT_EQ(ClosestMatch("thread", names), "threads");
  EXPECT_EQ(ClosestMatch("tim", names), "time");
  EXPECT_EQ(ClosestMatch("cpu-max", names), "cpu-max-prime");
  EXPECT_EQ(ClosestMatch("zzzzzz", names), "");
}

}  // namespace
}  // namespace loadcell
