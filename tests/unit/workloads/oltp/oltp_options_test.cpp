#include "workloads/oltp/oltp_options.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "testing/status.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {
namespace {

// Applies `args` ("name=value") to the options of `kind`.
Status ApplyArgs(OltpKind kind, OltpOptions& o, const std::vector<std::string>& args) {
  OptionSet set("oltp");
  RegisterOltpOptions(kind, o, set);
  RawOptions raw;
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    raw.Add("--" + a.substr(0, eq), eq == std::string::npos ? "" : a.substr(eq + 1),
            eq != std::string::npos, "test");
  }
  LC_RETURN_IF_ERROR(set.Apply(raw));
  return raw.CheckAllConsumed("test");
}

// The options' fields by name, as text, for the table below.
std::string FieldText(const OltpOptions& o, const std::string& field) {
  const std::vector<std::pair<const char*, int64_t OltpOptions::*>> ints = {
      {"tables", &OltpOptions::tables},
      {"table_size", &OltpOptions::table_size},
      {"range_size", &OltpOptions::range_size},
      {"point_selects", &OltpOptions::point_selects},
      {"simple_ranges", &OltpOptions::simple_ranges},
      {"sum_ranges", &OltpOptions::sum_ranges},
      {"order_ranges", &OltpOptions::order_ranges},
      {"distinct_ranges", &OltpOptions::distinct_ranges},
      {"index_updates", &OltpOptions::index_updates},
      {"non_index_updates", &OltpOptions::non_index_updates},
      {"delete_inserts", &OltpOptions::delete_inserts},
      {"connect_delay_us", &OltpOptions::connect_delay_us},
      {"user_delay_min_us", &OltpOptions::user_delay_min_us},
      {"user_delay_max_us", &OltpOptions::user_delay_max_us},
  };
  const std::vector<std::pair<const char*, bool OltpOptions::*>> bools = {
      {"range_selects", &OltpOptions::range_selects},
      {"auto_inc", &OltpOptions::auto_inc},
      {"skip_trx", &OltpOptions::skip_trx},
      {"secondary", &OltpOptions::secondary},
      {"create_secondary", &OltpOptions::create_secondary},
  };
  for (const auto& [name, member] : ints) {
    if (field == name) return std::to_string(o.*member);
  }
  for (const auto& [name, member] : bools) {
    if (field == name) return o.*member ? "on" : "off";
  }
  if (field == "mysql_storage_engine") return o.mysql_storage_engine;
  if (field == "reconnect") return std::to_string(static_cast<int>(o.reconnect()));
  if (field == "has_think_time") return o.has_think_time() ? "on" : "off";
  ADD_FAILURE() << "no field " << field;
  return "";
}

struct FieldsCase {
  const char* name;
  OltpKind kind;
  std::vector<std::string> args;                            // "name=value"
  std::vector<std::pair<std::string, std::string>> fields;  // field, FieldText
};

const std::string kSession = std::to_string(static_cast<int>(ReconnectMode::kSession));
const std::string kTransaction = std::to_string(static_cast<int>(ReconnectMode::kTransaction));

// One row per way of setting the options; each ends valid.
const std::vector<FieldsCase>& FieldsCases() {
  static const std::vector<FieldsCase> kCases = {
      {"defaults_are_sysbenchs",
       OltpKind::kReadWrite,
       {},
       {{"tables", "1"},
        {"table_size", "10000"},
        {"range_size", "100"},
        {"point_selects", "10"},
        {"simple_ranges", "1"},
        {"sum_ranges", "1"},
        {"order_ranges", "1"},
        {"distinct_ranges", "1"},
        {"index_updates", "1"},
        {"non_index_updates", "1"},
        {"delete_inserts", "1"},
        {"range_selects", "on"},
        {"auto_inc", "on"},
        {"skip_trx", "off"},
        {"secondary", "off"},
        {"create_secondary", "on"},
        {"mysql_storage_engine", "innodb"},
        {"reconnect", kSession}}},
      {"sysbench_names_set",
       OltpKind::kReadWrite,
       {"tables=4", "table-size=500", "range-size=10", "point-selects=3", "skip-trx=on",
        "range-selects=off", "delete-inserts=2", "mysql-storage-engine=myisam", "auto-inc=off"},
       {{"tables", "4"},
        {"table_size", "500"},
        {"range_size", "10"},
        {"point_selects", "3"},
        {"skip_trx", "on"},
        {"range_selects", "off"},
        {"delete_inserts", "2"},
        {"mysql_storage_engine", "myisam"},
        {"auto_inc", "off"}}},
      {"legacy_names_are_aliases",
       OltpKind::kLegacy,
       {"oltp-tables-count=4", "oltp-table-size=500000", "oltp-point-selects=1000",
        "oltp-range-size=1000", "oltp-index-updates=1000", "oltp-non-index-updates=7",
        "oltp-skip-trx=on", "oltp-test-mode=complex", "oltp-read-only=off",
        "oltp-reconnect-mode=transaction", "oltp-connect-delay=100", "oltp-user-delay-min=10",
        "oltp-user-delay-max=20", "mysql-table-engine=innodb"},
       {{"tables", "4"},
        {"table_size", "500000"},
        {"point_selects", "1000"},
        {"range_size", "1000"},
        {"index_updates", "1000"},
        {"non_index_updates", "7"},
        {"skip_trx", "on"},
        {"reconnect", kTransaction},
        {"connect_delay_us", "100"},
        {"user_delay_min_us", "10"},
        {"user_delay_max_us", "20"},
        {"has_think_time", "on"}}},
  };
  return kCases;
}

TEST(OltpOptions, ArgumentsSetTheirFields) {
  for (const FieldsCase& c : FieldsCases()) {
    SCOPED_TRACE(c.name);
    OltpOptions o;
    ASSERT_OK(ApplyArgs(c.kind, o, c.args));
    for (const auto& [field, want] : c.fields) EXPECT_EQ(FieldText(o, field), want) << field;
    EXPECT_OK(ValidateOltpOptions(c.kind, o, 16));
  }
}

TEST(OltpOptions, LegacyTestModeMapsToAMix) {
  struct Case {
    std::vector<std::string> args;
    OltpKind mix;
    bool trx;
  };
  const std::vector<Case> cases = {
      {{}, OltpKind::kReadWrite, true},
      {{"oltp-test-mode=complex"}, OltpKind::kReadWrite, true},
      {{"oltp-test-mode=complex", "oltp-read-only=on"}, OltpKind::kReadOnly, true},
      {{"oltp-test-mode=simple"}, OltpKind::kPointSelect, false},
      {{"oltp-test-mode=nontrx"}, OltpKind::kPointSelect, false},
      {{"oltp-test-mode=complex", "oltp-skip-trx=on"}, OltpKind::kReadWrite, false},
  };
  for (const Case& c : cases) {
    OltpOptions o;
    ASSERT_OK(ApplyArgs(OltpKind::kLegacy, o, c.args));
    const OltpPlan plan = MakeOltpPlan(OltpKind::kLegacy, o);
    EXPECT_EQ(plan.kind, c.mix) << ::testing::PrintToString(c.args);
    EXPECT_EQ(plan.transaction, c.trx) << ::testing::PrintToString(c.args);
  }
  OltpOptions o;
  o.test_mode = "nontrx";
  EXPECT_EQ(ResolveLegacyMix(OltpKind::kLegacy, o), OltpKind::kPointSelect);
  EXPECT_TRUE(o.skip_trx);
  OltpOptions other;
  EXPECT_EQ(ResolveLegacyMix(OltpKind::kDelete, other), OltpKind::kDelete);
}

TEST(OltpOptions, LegacyModeOptionsOnlyOnTheLegacyTest) {
  OltpOptions o;
  OptionSet set("oltp_read_write");
  RegisterOltpOptions(OltpKind::kReadWrite, o, set);
  EXPECT_EQ(set.Find("oltp-test-mode"), nullptr);
  EXPECT_EQ(set.Find("oltp-read-only"), nullptr);
  EXPECT_NE(set.Find("oltp-user-delay-max"), nullptr);
  OptionSet point("oltp_point_select");
  RegisterOltpOptions(OltpKind::kPointSelect, o, point);
  EXPECT_EQ(point.Find("range-size"), nullptr);
  EXPECT_EQ(point.Find("index-updates"), nullptr);
  EXPECT_NE(point.Find("table-size"), nullptr);
  OptionSet rp("select_random_points");
  RegisterOltpOptions(OltpKind::kRandomPoints, o, rp);
  EXPECT_NE(rp.Find("random-points"), nullptr);
  OptionSet rr("select_random_ranges");
  RegisterOltpOptions(OltpKind::kRandomRanges, o, rr);
  EXPECT_NE(rr.Find("number-of-ranges"), nullptr);
  EXPECT_NE(rr.Find("delta"), nullptr);
}

TEST(OltpOptions, BadValuesNameTheOption) {
  struct Case {
    OltpKind kind;
    std::vector<std::string> args;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {OltpKind::kReadWrite, {"tables=0"}, "--tables=0"},
      {OltpKind::kReadWrite, {"table-size=0"}, "--table-size=0"},
      {OltpKind::kReadWrite, {"table-size=50", "range-size=100"}, "--range-size=100 is larger"},
      {OltpKind::kReadOnly, {"range-size=0"}, "--range-size=0"},
      {OltpKind::kRandomPoints, {"tables=2"}, "one table"},
      {OltpKind::kRandomRanges, {"tables=3"}, "one table"},
      {OltpKind::kReadWrite, {"oltp-user-delay-min=20", "oltp-user-delay-max=10"}, "larger"},
      {OltpKind::kReadWrite, {"oltp-user-delay-min=20"}, "needs --oltp-user-delay-max"},
      {OltpKind::kReadWrite, {"mysql-storage-engine=inno db"}, "--mysql-storage-engine"},
      {OltpKind::kLegacy, {"oltp-table-size=10", "oltp-range-size=11"}, "--range-size=11"},
  };
  for (const Case& c : cases) {
    OltpOptions o;
    // Refused where the value is read (its range) or by the cross-checks.
    Status s = ApplyArgs(c.kind, o, c.args);
    if (s.ok()) s = ValidateOltpOptions(c.kind, o, 1);
    ASSERT_FALSE(s.ok()) << ::testing::PrintToString(c.args);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
    EXPECT_NE(s.message().find(c.expect), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  }
}

TEST(OltpOptions, RangeSizeIsFineWithoutRanges) {
  // Tests without range selects do not care about --range-size.
  OltpOptions o;
  o.table_size = 10;
  EXPECT_OK(ValidateOltpOptions(OltpKind::kPointSelect, o, 1));
  OltpOptions rw;
  rw.table_size = 10;
  rw.range_selects = false;
  EXPECT_OK(ValidateOltpOptions(OltpKind::kReadWrite, rw, 1));
  // The legacy simple mode runs point selects only.
  OltpOptions legacy;
  legacy.table_size = 10;
  legacy.test_mode = "simple";
  EXPECT_OK(ValidateOltpOptions(OltpKind::kLegacy, legacy, 1));
}

TEST(OltpOptions, KindNames) {
  std::vector<std::string> names;
  for (OltpKind k : AllOltpKinds()) names.emplace_back(OltpKindName(k));
  EXPECT_EQ(names, (std::vector<std::string>{
                       "oltp_read_only", "oltp_read_write", "oltp_write_only", "oltp_point_select",
                       "oltp_update_index", "oltp_update_non_index", "oltp_insert", "oltp_delete",
                       "select_random_points", "select_random_ranges", "bulk_insert", "oltp"}));
}

}  // namespace
}  // namespace loadcell
