// The driver-independent parts: registry, driver selection, placeholders,
// ignore lists, emulated statements' quoting.

#include "db/db_driver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <optional>

#include "testing/option_args.h"
#include "testing/status.h"

namespace loadcell {
namespace {

TEST(DbRegistry, NamesAndUnknownDriver) {
  const std::vector<std::string> names = DbDriverNames();
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names.front(), "sqlite");
  for (const std::string& n : names) {
    auto d = MakeDbDriver(n);
    ASSERT_OK(d) << n;
    EXPECT_EQ((*d)->Name(), n);
  }
  auto bad = MakeDbDriver("oracle");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ExitCodeFor(bad.status()), 2);
  EXPECT_NE(bad.status().message().find("oracle"), std::string::npos);
  EXPECT_NE(bad.status().message().find("sqlite"), std::string::npos);
  EXPECT_EQ(bad.status().message().find('\n'), std::string::npos);
}

TEST(Placeholders, DollarTranslation) {
  int n = -1;
  EXPECT_EQ(TranslatePlaceholdersDollar("SELECT c FROM t WHERE id=?", &n),
            "SELECT c FROM t WHERE id=$1");
  EXPECT_EQ(n, 1);
  EXPECT_EQ(TranslatePlaceholdersDollar("SELECT c FROM t WHERE id BETWEEN ? AND ?", &n),
            "SELECT c FROM t WHERE id BETWEEN $1 AND $2");
  EXPECT_EQ(n, 2);
  // Inside quotes, identifiers and comments a `?` is text.
  EXPECT_EQ(TranslatePlaceholdersDollar("SELECT '?', \"a?\", 'it''s?' FROM t WHERE x=? -- ?\n"
                                        "AND y=? /* ? */",
                                        &n),
            "SELECT '?', \"a?\", 'it''s?' FROM t WHERE x=$1 -- ?\nAND y=$2 /* ? */");
  EXPECT_EQ(n, 2);
  EXPECT_EQ(TranslatePlaceholdersDollar("INSERT INTO t VALUES (?,?,?,?,?,?,?,?,?,?,?)", &n),
            "INSERT INTO t VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)");
  EXPECT_EQ(n, 11);
  EXPECT_EQ(TranslatePlaceholdersDollar("SELECT 1", &n), "SELECT 1");
  EXPECT_EQ(n, 0);
  // An unterminated quote swallows the rest rather than reading past the end.
  EXPECT_EQ(CountPlaceholders("SELECT 'abc ?"), 0);
  EXPECT_EQ(CountPlaceholders("SELECT ? 'a\\'?' ?"), 2);
}

TEST(IgnoreList, ParsesCodesStatesAllNone) {
  auto l = DbIgnoreList::Parse({"1213", "1020", "1205"});
  ASSERT_OK(l);
  EXPECT_TRUE(l->Matches(1213, "40001"));
  EXPECT_TRUE(l->Matches(1205, ""));
  EXPECT_FALSE(l->Matches(1062, "23000"));
  EXPECT_FALSE(l->Matches(0, ""));
  EXPECT_FALSE(l->all());

  auto s = DbIgnoreList::Parse({"40p01", " 23505 "});
  ASSERT_OK(s);
  EXPECT_TRUE(s->Matches(0, "40P01"));
  EXPECT_TRUE(s->Matches(0, "23505"));
  EXPECT_FALSE(s->Matches(0, "40001"));

  auto all = DbIgnoreList::Parse({"all"});
  ASSERT_OK(all);
  EXPECT_TRUE(all->all());
  EXPECT_TRUE(all->Matches(1, "XXXXX"));

  auto none = DbIgnoreList::Parse({"none"});
  ASSERT_OK(none);
  EXPECT_TRUE(none->empty());
  auto empty = DbIgnoreList::Parse({});
  ASSERT_OK(empty);
  EXPECT_TRUE(empty->empty());

  auto bad = DbIgnoreList::Parse({"1213", "deadlock"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.status().message().find("deadlock"), std::string::npos);
}

using testing::ApplyArgs;

TEST(DriverSelection, ExplicitAutoAndConflicts) {
  {
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {}));
    ASSERT_OK(db.Resolve(set));
    EXPECT_EQ(db.driver().Name(), "sqlite");
  }
  {
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {{"db-driver", "nosuch"}}));
    Status s = db.Resolve(set);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find("nosuch"), std::string::npos);
  }
  const auto names = DbDriverNames();
  const bool have_servers = std::find(names.begin(), names.end(), "pgsql") != names.end() &&
                            std::find(names.begin(), names.end(), "mysql") != names.end();
  if (!have_servers) return;
  {
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {{"mysql-user", "root"}, {"mysql-password", "pw"}}));
    ASSERT_OK(db.Resolve(set));
    EXPECT_EQ(db.driver().Name(), "mysql");
    // The password never shows in the option's value text (the manifest).
    const OptionSpec* pw = set.Find("mysql-password");
    ASSERT_NE(pw, nullptr);
    EXPECT_EQ(pw->ValueText().find("pw"), std::string::npos);
    EXPECT_EQ(db.driver().Describe().find("pw"), std::string::npos);
  }
  {
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {{"pgsql-host", "127.0.0.1"}}));
    ASSERT_OK(db.Resolve(set));
    EXPECT_EQ(db.driver().Name(), "pgsql");
  }
  {
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {{"pgsql-host", "a"}, {"mysql-host", "b"}}));
    Status s = db.Resolve(set);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  }
  {
    // --db-driver wins over other drivers' options.
    OptionSet set("t");
    DbDrivers db;
    db.RegisterOptions(set);
    ASSERT_OK(ApplyArgs(set, {{"db-driver", "pgsql"}, {"mysql-host", "b"}}));
    ASSERT_OK(db.Resolve(set));
    EXPECT_EQ(db.driver().Name(), "pgsql");
  }
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

TEST(DbTextRow, EscapesAndMarksNull) {
  std::string out = "x";
  const std::vector<DbValue> row = {
      DbValue::Int(-7),    DbValue::Double(0.5),
      DbValue::Null(),     DbValue::String(std::string("a\\b\tc\nd\re\0f", 11)),
      DbValue::String(""), DbValue::String("\\N")};
  const TextRowInfo info = AppendTextRow(out, row, true);
  EXPECT_TRUE(info.ascii);
  EXPECT_TRUE(info.escaped);
  EXPECT_EQ(out, "x-7\t0.5\t\\N\ta\\\\b\\tc\\nd\\re\\0f\t\t\\\\N\n");
}

// A row with nothing escaped says so: LOAD DATA may then read it with
// escapes off, where "NULL" and "N" stay text.
TEST(DbTextRow, SaysWhetherAnythingWasEscaped) {
  std::string out;
  const std::vector<DbValue> plain = {DbValue::Int(3),         DbValue::Double(-1.5),
                                      DbValue::String("NULL"), DbValue::String("N"),
                                      DbValue::String(""),     DbValue::String("12-34 ab")};
  TextRowInfo info = AppendTextRow(out, plain, true);
  EXPECT_FALSE(info.escaped);
  EXPECT_TRUE(info.ascii);
  EXPECT_EQ(out, "3\t-1.5\tNULL\tN\t\t12-34 ab\n");
  for (const DbValue& v :
       {DbValue::Null(), DbValue::String("a\tb"), DbValue::String("a\\b"), DbValue::String("a\nb"),
        DbValue::String("a\rb"), DbValue::String(std::string("a\0b", 3)), DbValue::Double(NAN)}) {
    out.clear();
    info = AppendTextRow(out, std::vector<DbValue>{DbValue::Int(1), v}, true);
    EXPECT_TRUE(info.escaped) << out;
  }
  out.clear();
  info = AppendTextRow(out, std::vector<DbValue>{DbValue::String("caf\xc3\xa9")}, true);
  EXPECT_FALSE(info.escaped);
  EXPECT_FALSE(info.ascii);
  EXPECT_EQ(out, "caf\xc3\xa9\n");
}

// Strings are scanned eight bytes at a time: a byte to escape or outside
// ASCII is found at every position of strings of every length up to 40, and
// other control bytes pass as they are, unescaped.
TEST(DbTextRow, FindsEveryByteAtEveryPosition) {
  for (size_t len = 1; len <= 40; ++len) {
    for (size_t at = 0; at < len; ++at) {
      for (char c : {'\\', '\t', '\n', '\r', '\0', '\x01', '\x1f', '\x7f', '\x80', '\xff'}) {
        std::string s(len, 'a');
        s[at] = c;
        std::string out;
        const TextRowInfo info = AppendTextRow(out, std::vector<DbValue>{DbValue::String(s)}, true);
        const bool needs_escape = c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '\0';
        SCOPED_TRACE(::testing::Message() << "len " << len << " at " << at << " byte "
                                          << static_cast<int>(static_cast<unsigned char>(c)));
        EXPECT_EQ(info.escaped, needs_escape);
        EXPECT_EQ(info.ascii, static_cast<unsigned char>(c) < 0x80);
        EXPECT_EQ(out.size(), len + (needs_escape ? 2 : 1));  // escape pairs, newline
        if (!needs_escape) {
          EXPECT_EQ(out, s + "\n");
        }
      }
    }
  }
}

TEST(DbTextRow, LoadDataReadsEscapesOnlyWhenTheRowsHaveThem) {
  EXPECT_EQ(LoadDataFieldsClause(true), " FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\'");
  EXPECT_EQ(LoadDataFieldsClause(false), " FIELDS TERMINATED BY '\\t' ESCAPED BY ''");
}

DbRows ShowWarnings(std::initializer_list<const char*> levels) {
  DbRows w;
  w.columns = {"Level", "Code", "Message"};
  for (const char* level : levels) {
    w.rows.push_back({std::string(level), std::string("1265"), std::string("Data truncated")});
  }
  return w;
}

TEST(DbLoadWarnings, NotesAloneFailNothing) {
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({})), std::nullopt);
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({"Note"})), std::nullopt);
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({"Note", "Note", "Note"})), std::nullopt);
}

TEST(DbLoadWarnings, TheFirstWarningOrErrorIsChosenPastNotes) {
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({"Warning"})), 0u);
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({"Note", "Warning", "Error"})), 1u);
  EXPECT_EQ(FirstFailingWarning(ShowWarnings({"Note", "Note", "Error", "Warning"})), 2u);
}

TEST(DbLoadWarnings, RowsWithoutALevelAreSkipped) {
  DbRows w = ShowWarnings({"Note"});
  w.rows.push_back({std::nullopt, std::string("1"), std::string("x")});
  w.rows.push_back({});
  EXPECT_EQ(FirstFailingWarning(w), std::nullopt);
  w.rows.push_back({std::string("Warning")});
  EXPECT_EQ(FirstFailingWarning(w), 3u);
}

TEST(DbTextRow, NulFollowedByDigitsKeepsItsMeaningInCopysDialect) {
  // COPY reads \0 plus up to two more octal digits as one byte: "\012" would
  // be a newline. Its dialect writes NUL with all three digits.
  const std::vector<DbValue> row = {
      DbValue::String(std::string("a\0"
                                  "12",
                                  4))};
  std::string copy, load_data;
  AppendTextRow(copy, row, false);
  AppendTextRow(load_data, row, true);
  EXPECT_EQ(copy, "a\\00012\n");
  EXPECT_EQ(load_data, "a\\012\n");
}

TEST(DbTextRow, NonFiniteDoublesAndNonAscii) {
  const std::vector<DbValue> row = {DbValue::Double(INFINITY), DbValue::String("caf\xc3\xa9")};
  std::string as_null;
  EXPECT_FALSE(AppendTextRow(as_null, row, true).ascii);
  EXPECT_EQ(as_null, "\\N\tcaf\xc3\xa9\n");
  std::string as_text;
  AppendTextRow(as_text, std::span<const DbValue>(row).first(1), false);
  EXPECT_EQ(as_text, "inf\n");
}

}  // namespace
}  // namespace loadcell
