#include "core/options.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "testing/status.h"

namespace loadcell {
namespace {

constexpr uint64_t kKiB = 1024;
constexpr uint64_t kMiB = kKiB * 1024;
constexpr uint64_t kGiB = kMiB * 1024;
constexpr uint64_t kTiB = kGiB * 1024;

uint64_t SizeOf(const char* text) {
  auto r = ParseSize(text);
  EXPECT_OK(r) << text;
  return r.ok() ? *r : 0;
}

double SecondsOf(const char* text) {
  auto r = ParseSeconds(text);
  EXPECT_OK(r) << text;
  return r.ok() ? *r : -1;
}

TEST(ParseSizeTest, PlainNumberIsBytes) {
  EXPECT_EQ(SizeOf("0"), 0u);
  EXPECT_EQ(SizeOf("1000"), 1000u);
  EXPECT_EQ(SizeOf("3"), 3u);
  EXPECT_EQ(SizeOf("12b"), 12u);
  EXPECT_EQ(SizeOf("12B"), 12u);
}

TEST(ParseSizeTest, SuffixesInEitherCaseArePowersOf1024) {
  EXPECT_EQ(SizeOf("16k"), 16 * kKiB);
  EXPECT_EQ(SizeOf("16K"), 16 * kKiB);
  EXPECT_EQ(SizeOf("16KB"), 16 * kKiB);
  EXPECT_EQ(SizeOf("16kb"), 16 * kKiB);
  EXPECT_EQ(SizeOf("16KiB"), 16 * kKiB);
  EXPECT_EQ(SizeOf("16kib"), 16 * kKiB);
  EXPECT_EQ(SizeOf("3m"), 3 * kMiB);
  EXPECT_EQ(SizeOf("3MiB"), 3 * kMiB);
  EXPECT_EQ(SizeOf("4G"), 4 * kGiB);
  EXPECT_EQ(SizeOf("4g"), 4 * kGiB);
  EXPECT_EQ(SizeOf("4GB"), 4 * kGiB);
  EXPECT_EQ(SizeOf("2T"), 2 * kTiB);
  EXPECT_EQ(SizeOf("2tib"), 2 * kTiB);
  EXPECT_EQ(SizeOf("1.5K"), 1536u);
}

TEST(ParseSizeTest, RejectsJunkNegativeAndOverflow) {
  for (const char* bad : {"", "12Q", "K", "abc", "16KiBB", "1..5K", "16 K", "1.K", "0x10", "1bB"}) {
    auto r = ParseSize(bad);
    EXPECT_FALSE(r.ok()) << "'" << bad << "'";
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    }
  }
  auto neg = ParseSize("-1G");
  ASSERT_FALSE(neg.ok());
  EXPECT_NE(neg.status().message().find("negative"), std::string::npos);
  auto big = ParseSize("20000000T");  // 2e7 * 2^40 > 2^64
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("too large"), std::string::npos);
  EXPECT_FALSE(ParseSize("99999999999999999999999").ok());
  EXPECT_OK(ParseSize("16777215T"));          // just under 2^64
  EXPECT_FALSE(ParseSize("16777216T").ok());  // exactly 2^64
  auto msg = ParseSize("12Q");
  ASSERT_FALSE(msg.ok());
  EXPECT_EQ(msg.status().message(),
            "not a size; use a number with an optional K, M, G or T suffix");
}

TEST(FormatSizeTest, UsesLargestExactUnit) {
  EXPECT_EQ(FormatSize(0), "0");
  EXPECT_EQ(FormatSize(1000), "1000");
  EXPECT_EQ(FormatSize(1024), "1K");
  EXPECT_EQ(FormatSize(16384), "16K");
  EXPECT_EQ(FormatSize(1536), "1536");
  EXPECT_EQ(FormatSize(3 * kMiB), "3M");
  EXPECT_EQ(FormatSize(100 * kGiB), "100G");
  EXPECT_EQ(FormatSize(kTiB), "1T");
  EXPECT_EQ(FormatSize(1025 * kGiB), "1025G");
  for (uint64_t v : {uint64_t{1}, 4 * kKiB, 7 * kMiB + 3, 5 * kTiB}) {
    EXPECT_EQ(SizeOf(FormatSize(v).c_str()), v);
  }
}

TEST(ParseSecondsTest, Units) {
  EXPECT_DOUBLE_EQ(SecondsOf("300"), 300);
  EXPECT_DOUBLE_EQ(SecondsOf("300s"), 300);
  EXPECT_DOUBLE_EQ(SecondsOf("1.5"), 1.5);
  EXPECT_DOUBLE_EQ(SecondsOf("100ms"), 0.1);
  EXPECT_DOUBLE_EQ(SecondsOf("250us"), 250e-6);
  EXPECT_DOUBLE_EQ(SecondsOf("5m"), 300);
  EXPECT_DOUBLE_EQ(SecondsOf("1h"), 3600);
  EXPECT_DOUBLE_EQ(SecondsOf("10ns"), 10e-9);
  EXPECT_DOUBLE_EQ(SecondsOf("0"), 0);
  EXPECT_DOUBLE_EQ(SecondsOf("1e3"), 1000);
  EXPECT_DOUBLE_EQ(SecondsOf("2e-3"), 0.002);
  EXPECT_DOUBLE_EQ(SecondsOf("2MS"), 0.002);
}

TEST(ParseSecondsTest, RejectsJunkAndNegative) {
  for (const char* bad : {"", "abc", "5x", "ms", "1.2.3", "5 s", "inf", "nan", "1e"}) {
    EXPECT_FALSE(ParseSeconds(bad).ok()) << "'" << bad << "'";
  }
  auto neg = ParseSeconds("-1");
  ASSERT_FALSE(neg.ok());
  EXPECT_NE(neg.status().message().find("negative"), std::string::npos);
}

TEST(ParseBoolTest, AllSpellings) {
  for (const char* yes : {"on", "ON", "true", "True", "yes", "YES", "1"}) {
    auto r = ParseBool(yes);
    ASSERT_OK(r) << yes;
    EXPECT_TRUE(*r) << yes;
  }
  for (const char* no : {"off", "Off", "false", "FALSE", "no", "No", "0"}) {
    auto r = ParseBool(no);
    ASSERT_OK(r) << no;
    EXPECT_FALSE(*r) << no;
  }
  for (const char* bad : {"", "maybe", "2", "onn", "y"}) {
    EXPECT_FALSE(ParseBool(bad).ok()) << bad;
  }
}

TEST(ParseIntTest, DecimalWithSuffixes) {
  EXPECT_EQ(ParseInt("0").value(), 0);
  EXPECT_EQ(ParseInt("42").value(), 42);
  EXPECT_EQ(ParseInt("-3").value(), -3);
  EXPECT_EQ(ParseInt("+7").value(), 7);
  EXPECT_EQ(ParseInt("10K").value(), 10240);
  EXPECT_EQ(ParseInt("10k").value(), 10240);
  EXPECT_EQ(ParseInt("2M").value(), 2 * 1024 * 1024);
  EXPECT_EQ(ParseInt("1G").value(), int64_t{1} << 30);
  EXPECT_EQ(ParseInt("9223372036854775807").value(), INT64_MAX);
  for (const char* bad :
       {"", "x", "1.5", "12Q", "-", "1b", "9223372036854775808", "9000000000G", "0x10", " 1"}) {
    EXPECT_FALSE(ParseInt(bad).ok()) << "'" << bad << "'";
  }
}

TEST(ParseDoubleTest, Numbers) {
  EXPECT_DOUBLE_EQ(ParseDouble("0.2").value(), 0.2);
  EXPECT_DOUBLE_EQ(ParseDouble("99.9").value(), 99.9);
  EXPECT_DOUBLE_EQ(ParseDouble("-5").value(), -5);
  EXPECT_DOUBLE_EQ(ParseDouble("+5").value(), 5);
  EXPECT_DOUBLE_EQ(ParseDouble("1e3").value(), 1000);
  for (const char* bad : {"", "x", "1.5.2", "inf", "nan", "1e999", "5%"}) {
    EXPECT_FALSE(ParseDouble(bad).ok()) << "'" << bad << "'";
  }
}

TEST(NormalizeTest, UnderscoreIsDash) {
  EXPECT_EQ(NormalizeOptionName("num_threads"), "num-threads");
  EXPECT_EQ(NormalizeOptionName("memory-block_size"), "memory-block-size");
}

// A set exercising every option type, as a test would register it.
struct Fixture {
  bool flag = false;
  int64_t threads = 0;
  double ratio = 0;
  uint64_t block = 0;
  double time = 0;
  std::string name;
  std::string mode;
  std::vector<std::string> items;
  std::vector<std::string> ops;
  int64_t even = 0;
  int64_t big = 0;
  OptionSet set{"test options"};

  Fixture() {
    set.Bool("flag", &flag, false, "a flag");
    set.Int("threads", &threads, 1, "number of threads").Alias("num-threads").Min(1);
    set.Int("big", &big, 5, "a bounded number").Min(1).Max(100000);
    set.Double("percentile", &ratio, 95, "percentile").Min(0).Max(100);
    set.Size("block-size", &block, 16 * 1024, "block size").PowerOfTwo().Min(1).Max(1024.0 * kMiB);
    set.Seconds("time", &time, 10, "time limit").Alias("max-time").Min(0);
    set.String("name", &name, "abc", "a name");
    set.Enum("mode", &mode, "seq", {"seq", "rnd"}, "access mode");
    set.List("items", &items, "a,b", "some items");
    set.List("ops", &ops, "read", "operations").Choices({"read", "write", "fsync"});
    set.Int("even", &even, 2, "an even number").Check([this]() -> std::string {
      return even % 2 == 0 ? "" : "must be even";
    });
  }
};

RawOptions Raw(std::vector<std::pair<std::string, std::string>> kv) {
  RawOptions raw;
  for (auto& [k, v] : kv) raw.Add("--" + k, v, true, "command line");
  return raw;
}

Status ApplyOne(Fixture& f, const std::string& name, const std::string& value) {
  RawOptions raw = Raw({{name, value}});
  return f.set.Apply(raw);
}

TEST(OptionSetTest, DefaultsAreWrittenAtRegistration) {
  Fixture f;
  EXPECT_FALSE(f.flag);
  EXPECT_EQ(f.threads, 1);
  EXPECT_EQ(f.ratio, 95);
  EXPECT_EQ(f.block, 16384u);
  EXPECT_EQ(f.time, 10);
  EXPECT_EQ(f.name, "abc");
  EXPECT_EQ(f.mode, "seq");
  EXPECT_EQ(f.items, (std::vector<std::string>{"a", "b"}));
  for (const auto& s : f.set.specs()) EXPECT_TRUE(s.is_default()) << s.name();
}

TEST(OptionSetTest, AppliesEveryTypeAndMarksConsumed) {
  Fixture f;
  RawOptions raw = Raw({{"threads", "8"},
                        {"percentile", "99.9"},
                        {"block-size", "4K"},
                        {"time", "100ms"},
                        {"name", "xyz"},
                        {"mode", "rnd"},
                        {"items", "x,y,z"},
                        {"ops", "write,fsync"},
                        {"other", "1"}});
  raw.Add("--flag", "", false, "command line");
  ASSERT_OK(f.set.Apply(raw));
  EXPECT_TRUE(f.flag);
  EXPECT_EQ(f.threads, 8);
  EXPECT_DOUBLE_EQ(f.ratio, 99.9);
  EXPECT_EQ(f.block, 4096u);
  EXPECT_DOUBLE_EQ(f.time, 0.1);
  EXPECT_EQ(f.name, "xyz");
  EXPECT_EQ(f.mode, "rnd");
  EXPECT_EQ(f.items, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(f.ops, (std::vector<std::string>{"write", "fsync"}));
  for (const auto& e : raw.entries()) EXPECT_EQ(e.consumed, e.name != "other") << e.name;
  EXPECT_FALSE(f.set.Find("threads")->is_default());
  EXPECT_TRUE(f.set.Find("even")->is_default());
  Status s = raw.CheckAllConsumed("for test 'cpu'; see 'loadcell cpu help'");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "unknown option '--other' for test 'cpu'; see 'loadcell cpu help'");
}

// A word from a config file that no one takes is not quoted: the file may be
// a password file, one word that is all secret.
TEST(RawOptionsTest, AnUnknownOptionOfAConfigFileIsNotQuoted) {
  RawOptions raw;
  raw.Add("--Sup3rS3cret", "", false, "config file f line 2");
  const Status s = raw.CheckAllConsumed("for test 'cpu'; see 'loadcell cpu help'");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "config file f line 2: unknown option (the line is not shown: it may hold a secret) "
            "for test 'cpu'; see 'loadcell cpu help'");
}

TEST(OptionSetTest, BoolSpellingsAndBareFlag) {
  Fixture f;
  ASSERT_OK(ApplyOne(f, "flag", "yes"));
  EXPECT_TRUE(f.flag);
  ASSERT_OK(ApplyOne(f, "flag", "OFF"));
  EXPECT_FALSE(f.flag);
  Status s = ApplyOne(f, "flag", "maybe");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("--flag=maybe: ", 0), 0u) << s.message();
}

TEST(OptionSetTest, ErrorMessagesNameOptionAndWhatIsValid) {
  struct Case {
    std::string name, value, expected;
  };
  const std::vector<Case> cases = {
      {"block-size", "12Q",
       "--block-size=12Q: not a size; use a number with an optional K, M, G or T suffix"},
      {"block-size", "3", "--block-size=3: must be a power of two (e.g. 1K, 4K, 16K, 1M)"},
      {"block-size", "2G", "--block-size=2G: must be between 1 and 1G"},
      {"block-size", "-1G", "--block-size=-1G: must not be negative"},
      {"threads", "0", "--threads=0: must be at least 1"},
      {"threads", "-1", "--threads=-1: must be at least 1"},
      {"big", "0", "--big=0: must be between 1 and 100000"},
      {"big", "200000", "--big=200000: must be between 1 and 100000"},
      {"threads", "x",
       "--threads=x: not an integer; use a whole number, optionally with a K, M or G suffix"},
      {"percentile", "101", "--percentile=101: must be between 0 and 100"},
      {"percentile", "-1", "--percentile=-1: must be between 0 and 100"},
      {"time", "abc",
       "--time=abc: not a duration; use a number of seconds, or add a unit: us, ms, s, m or h"},
      {"time", "-5", "--time=-5: must not be negative"},
      {"mode", "foo", "--mode=foo: not a valid choice; use seq or rnd"},
      {"ops", "read,copy",
       "--ops=read,copy: 'copy' is not a valid item; use a comma-separated list of read, write or "
       "fsync"},
      {"even", "3", "--even=3: must be even"},
  };
  for (const Case& c : cases) {
    Fixture f;
    Status s = ApplyOne(f, c.name, c.value);
    ASSERT_FALSE(s.ok()) << c.name << "=" << c.value;
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(s.message(), c.expected);
    EXPECT_EQ(s.message().find('\n'), std::string::npos);
  }
}

TEST(OptionSetTest, MissingValueForNonBool) {
  Fixture f;
  RawOptions raw;
  raw.Add("--threads", "", false, "command line");
  Status s = f.set.Apply(raw);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind("--threads: needs a value", 0), 0u) << s.message();
}

TEST(OptionSetTest, AliasesAndUnderscores) {
  Fixture f;
  RawOptions raw;
  raw.Add("--num_threads", "4", true, "command line");
  raw.Add("--max-time", "2m", true, "command line");
  raw.Add("--block_size", "1M", true, "command line");
  ASSERT_OK(f.set.Apply(raw));
  EXPECT_EQ(f.threads, 4);
  EXPECT_DOUBLE_EQ(f.time, 120);
  EXPECT_EQ(f.block, kMiB);
  ASSERT_OK(raw.CheckAllConsumed(""));
  EXPECT_TRUE(f.set.Find("num-threads") == f.set.Find("threads"));
  EXPECT_FALSE(f.set.Find("threads")->is_default());

  // The error names the option as the user spelled it.
  Fixture g;
  Status s = ApplyOne(g, "num-threads", "0");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "--num-threads=0: must be at least 1");
}

TEST(RawOptionsTest, LaterAddReplacesSameNormalisedName) {
  RawOptions raw;
  raw.Add("--threads", "2", true, "command line");
  raw.Add("--threads", "4", true, "command line");
  raw.Add("threads", "5", true, "command line");
  ASSERT_EQ(raw.entries().size(), 1u);
  EXPECT_EQ(raw.entries()[0].value, "5");
  EXPECT_EQ(raw.entries()[0].spelled, "--threads");
  raw.Add("--a_b", "1", true, "command line");
  ASSERT_NE(raw.Find("a-b"), nullptr);
  EXPECT_EQ(raw.Find("a-b")->spelled, "--a_b");
}

TEST(RawOptionsTest, ConfigFileDefaultsLoseToCommandLine) {
  RawOptions cmd;
  cmd.Add("--threads", "8", true, "command line");
  RawOptions file;
  file.Add("threads", "2", true, "config file f line 1");
  file.Add("time", "5", true, "config file f line 2");
  cmd.AddDefaults(file);
  ASSERT_EQ(cmd.entries().size(), 2u);
  Fixture f;
  ASSERT_OK(f.set.Apply(cmd));
  EXPECT_EQ(f.threads, 8);
  EXPECT_DOUBLE_EQ(f.time, 5);

  // A bad value from the file names the file and line.
  RawOptions bad;
  bad.Add("time", "x", true, "config file f line 7");
  Fixture g;
  Status s = g.set.Apply(bad);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("config file f line 7"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("--time=x"), std::string::npos) << s.message();
}

TEST(OptionSetTest, CommandLineAliasBeatsConfigFileName) {
  RawOptions cmd;
  cmd.Add("--num-threads", "8", true, "command line");
  RawOptions file;
  file.Add("threads", "2", true, "config file f line 1");
  file.Add("max-time", "7", true, "config file f line 2");
  file.Add("time", "9", true, "config file f line 3");
  cmd.AddDefaults(file);
  Fixture f;
  ASSERT_OK(f.set.Apply(cmd));
  EXPECT_EQ(f.threads, 8);
  EXPECT_DOUBLE_EQ(f.time, 7);  // the first of the file's entries
  ASSERT_OK(cmd.CheckAllConsumed(""));

  // On the command line alone, the later of a name and its alias wins.
  RawOptions both;
  both.Add("--threads", "3", true, "command line");
  both.Add("--num-threads", "5", true, "command line");
  Fixture g;
  ASSERT_OK(g.set.Apply(both));
  EXPECT_EQ(g.threads, 5);
}

TEST(OptionSetTest, ValueText) {
  Fixture f;
  EXPECT_EQ(f.set.Find("block-size")->ValueText(), "16K");
  EXPECT_EQ(f.set.Find("flag")->ValueText(), "off");
  EXPECT_EQ(f.set.Find("percentile")->ValueText(), "95");
  EXPECT_EQ(f.set.Find("items")->ValueText(), "a,b");
  EXPECT_EQ(f.set.Find("time")->ValueText(), "10");
  RawOptions raw = Raw({{"block-size", "1048576"}, {"percentile", "99.9"}, {"time", "1.5"}});
  raw.Add("--flag", "", false, "command line");
  ASSERT_OK(f.set.Apply(raw));
  EXPECT_EQ(f.set.Find("block-size")->ValueText(), "1M");
  EXPECT_EQ(f.set.Find("flag")->ValueText(), "on");
  EXPECT_EQ(f.set.Find("percentile")->ValueText(), "99.9");
  EXPECT_EQ(f.set.Find("time")->ValueText(), "1.5");
  EXPECT_EQ(f.set.Find("block-size")->default_text(), "16K");
}

TEST(FormatHelpTest, ListsEveryVisibleOptionAligned) {
  Fixture f;
  bool hidden = false;
  f.set.Bool("secret", &hidden, false, "not shown").Hidden();
  std::string help = FormatHelp(f.set);
  EXPECT_EQ(help.rfind("test options:\n", 0), 0u) << help;
  for (const auto& s : f.set.specs()) {
    if (s.hidden()) {
      EXPECT_EQ(help.find("--" + s.name()), std::string::npos);
    } else {
      EXPECT_NE(help.find("--" + s.name()), std::string::npos) << s.name();
      EXPECT_NE(help.find(s.help()), std::string::npos) << s.name();
    }
  }
  EXPECT_NE(help.find("--block-size=SIZE"), std::string::npos);
  EXPECT_NE(help.find("--flag[=on|off]"), std::string::npos);
  EXPECT_NE(help.find("[16K]"), std::string::npos);
  EXPECT_NE(help.find("{seq,rnd}"), std::string::npos);
  EXPECT_NE(help.find("--num-threads"), std::string::npos);
  // Help texts start in the same column on every option line.
  size_t column = std::string::npos;
  size_t pos = help.find('\n') + 1;
  while (pos < help.size()) {
    size_t end = help.find('\n', pos);
    std::string line = help.substr(pos, end - pos);
    size_t name_end = line.find(' ', 2);
    size_t text = line.find_first_not_of(' ', name_end);
    if (column == std::string::npos) column = text;
    EXPECT_EQ(text, column) << line;
    pos = end + 1;
  }
}

}  // namespace
}  // namespace loadcell
