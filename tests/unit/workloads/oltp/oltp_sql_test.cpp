#include "workloads/oltp/oltp_sql.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace loadcell {
namespace {

TEST(OltpSql, TemplatesAreSysbenchs) {
  const std::string c(CValueTemplate());
  const std::string pad(PadValueTemplate());
  EXPECT_EQ(c.size(), 119u);
  EXPECT_EQ(pad.size(), 59u);
  EXPECT_EQ(c.substr(0, 24), "###########-###########-");
  EXPECT_EQ(pad, "###########-###########-###########-###########-###########");
  for (size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], i % 12 == 11 ? '-' : '#') << i;
}

TEST(OltpSql, RandomFromTemplateKeepsTheShape) {
  Random rng(42);
  std::string out;
  RandomFromTemplate(rng, CValueTemplate(), out);
  ASSERT_EQ(out.size(), 119u);
  int digit_counts[10] = {};
  for (size_t i = 0; i < out.size(); ++i) {
    if (i % 12 == 11) {
      EXPECT_EQ(out[i], '-') << i;
    } else {
      ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(out[i]))) << out;
      ++digit_counts[out[i] - '0'];
    }
  }
  // 110 digits: a fair generator uses most of the ten values.
  int used = 0;
  for (int n : digit_counts) used += n > 0 ? 1 : 0;
  EXPECT_GE(used, 8);
  std::string again;
  RandomFromTemplate(rng, CValueTemplate(), again);
  EXPECT_NE(out, again);
  std::string letters;
  RandomFromTemplate(rng, "@@-#", letters);
  EXPECT_TRUE(std::islower(static_cast<unsigned char>(letters[0])));
  EXPECT_EQ(letters[2], '-');
}

TEST(OltpSql, SameSeedSameStrings) {
  Random a(7), b(7);
  std::string x, y;
  RandomFromTemplate(a, PadValueTemplate(), x);
  RandomFromTemplate(b, PadValueTemplate(), y);
  EXPECT_EQ(x, y);
}

TEST(OltpSql, DialectForDriver) {
  EXPECT_EQ(DialectForDriver("sqlite").value(), SqlDialect::kSqlite);
  EXPECT_EQ(DialectForDriver("pgsql").value(), SqlDialect::kPgsql);
  EXPECT_EQ(DialectForDriver("mysql").value(), SqlDialect::kMysql);
  EXPECT_FALSE(DialectForDriver("oracle").ok());
}

TEST(OltpSql, StatementsAreSysbenchs) {
  struct Case {
    OltpStmt stmt;
    int table;
    int count;  // random points / ranges
    const char* sql;
  };
  const Case kCases[] = {
      {OltpStmt::kPointSelect, 3, 0, "SELECT c FROM sbtest3 WHERE id=?"},
      {OltpStmt::kSimpleRange, 1, 0, "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?"},
      {OltpStmt::kSumRange, 1, 0, "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?"},
      {OltpStmt::kOrderRange, 1, 0, "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c"},
      {OltpStmt::kDistinctRange, 1, 0,
       "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c"},
      {OltpStmt::kIndexUpdate, 2, 0, "UPDATE sbtest2 SET k=k+1 WHERE id=?"},
      {OltpStmt::kNonIndexUpdate, 2, 0, "UPDATE sbtest2 SET c=? WHERE id=?"},
      {OltpStmt::kDelete, 4, 0, "DELETE FROM sbtest4 WHERE id=?"},
      {OltpStmt::kInsert, 4, 0, "INSERT INTO sbtest4 (id, k, c, pad) VALUES (?, ?, ?, ?)"},
      {OltpStmt::kInsertAutoInc, 4, 0, "INSERT INTO sbtest4 (k, c, pad) VALUES (?, ?, ?)"},
      {OltpStmt::kRandomPoints, 1, 3, "SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, ?, ?)"},
      {OltpStmt::kRandomRanges, 1, 2,
       "SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR k BETWEEN ? AND ?"},
  };
  for (const Case& c : kCases) EXPECT_EQ(StatementSql(c.stmt, c.table, c.count), c.sql);
}

TEST(OltpSql, ParameterCountsMatchThePlaceholders) {
  for (int i = 0; i < kOltpStmtCount; ++i) {
    const auto s = static_cast<OltpStmt>(i);
    const std::string sql = StatementSql(s, 1, 5);
    int marks = 0;
    for (char ch : sql) marks += ch == '?' ? 1 : 0;
    EXPECT_EQ(marks, StatementParams(s, 5)) << sql;
  }
}

TEST(OltpSql, SelectsAreReads) {
  EXPECT_TRUE(IsSelect(OltpStmt::kPointSelect));
  EXPECT_TRUE(IsSelect(OltpStmt::kDistinctRange));
  EXPECT_TRUE(IsSelect(OltpStmt::kRandomRanges));
  EXPECT_FALSE(IsSelect(OltpStmt::kIndexUpdate));
  EXPECT_FALSE(IsSelect(OltpStmt::kDelete));
  EXPECT_FALSE(IsSelect(OltpStmt::kInsertAutoInc));
}

TEST(OltpSql, CreateTablePerDialect) {
  OltpOptions o;
  const std::string my = CreateTableSql(SqlDialect::kMysql, 2, o, "00ab");
  EXPECT_NE(my.find("CREATE TABLE sbtest2("), std::string::npos) << my;
  EXPECT_NE(my.find("id INTEGER NOT NULL AUTO_INCREMENT"), std::string::npos) << my;
  EXPECT_NE(my.find("c CHAR(120) DEFAULT '' NOT NULL"), std::string::npos) << my;
  EXPECT_NE(my.find("pad CHAR(60) DEFAULT '' NOT NULL"), std::string::npos) << my;
  EXPECT_NE(my.find("k INTEGER DEFAULT '0' NOT NULL"), std::string::npos) << my;
  EXPECT_NE(my.find("PRIMARY KEY (id)"), std::string::npos) << my;
  EXPECT_NE(my.find("/*! ENGINE = innodb */"), std::string::npos) << my;
  EXPECT_NE(my.find("COMMENT = 'loadcell table 00ab loading'"), std::string::npos) << my;

  const std::string pg = CreateTableSql(SqlDialect::kPgsql, 1, o, "00ab");
  EXPECT_NE(pg.find("id SERIAL"), std::string::npos) << pg;
  EXPECT_EQ(pg.find("ENGINE"), std::string::npos) << pg;
  EXPECT_NE(pg.find("PRIMARY KEY (id)"), std::string::npos) << pg;
  EXPECT_EQ(pg.find("00ab"), std::string::npos) << pg;  // COMMENT ON TABLE follows

  const std::string lite = CreateTableSql(SqlDialect::kSqlite, 1, o, "00ab");
  EXPECT_NE(lite.find("id INTEGER NOT NULL"), std::string::npos) << lite;
  EXPECT_NE(lite.find("PRIMARY KEY (id)"), std::string::npos) << lite;
  EXPECT_NE(lite.find("CREATE TABLE sbtest1(/* loadcell table 00ab */"), std::string::npos) << lite;

  o.auto_inc = false;
  o.secondary = true;
  o.mysql_storage_engine = "myisam";
  const std::string my2 = CreateTableSql(SqlDialect::kMysql, 1, o, "00ab");
  EXPECT_EQ(my2.find("AUTO_INCREMENT"), std::string::npos) << my2;
  EXPECT_NE(my2.find("KEY xid (id)"), std::string::npos) << my2;
  EXPECT_EQ(my2.find("PRIMARY KEY"), std::string::npos) << my2;
  EXPECT_NE(my2.find("ENGINE = myisam"), std::string::npos) << my2;
  const std::string pg2 = CreateTableSql(SqlDialect::kPgsql, 1, o, "00ab");
  EXPECT_NE(pg2.find("id INTEGER NOT NULL"), std::string::npos) << pg2;
  EXPECT_EQ(pg2.find("PRIMARY KEY"), std::string::npos) << pg2;
  EXPECT_EQ(SecondaryIdIndexSql(SqlDialect::kPgsql, 1), "CREATE INDEX xid_1 ON sbtest1(id)");
  EXPECT_EQ(SecondaryIdIndexSql(SqlDialect::kMysql, 1), "");
  EXPECT_EQ(CreateKIndexSql(7), "CREATE INDEX k_7 ON sbtest7(k)");
}

TEST(OltpSql, LoadRows) {
  std::string sql = LoadInsertHead(1, true);
  EXPECT_EQ(sql, "INSERT INTO sbtest1(k, c, pad) VALUES");
  AppendLoadRow(sql, true, true, 1, 42, "c1", "p1");
  AppendLoadRow(sql, false, true, 2, 43, "c2", "p2");
  EXPECT_EQ(sql, "INSERT INTO sbtest1(k, c, pad) VALUES(42, 'c1', 'p1'),(43, 'c2', 'p2')");
  std::string ids = LoadInsertHead(3, false);
  AppendLoadRow(ids, true, false, 5, 6, "c", "p");
  EXPECT_EQ(ids, "INSERT INTO sbtest3(id, k, c, pad) VALUES(5, 6, 'c', 'p')");
  EXPECT_EQ(LoadColumns(true), (std::vector<std::string>{"k", "c", "pad"}));
  EXPECT_EQ(LoadColumns(false), (std::vector<std::string>{"id", "k", "c", "pad"}));
}

TEST(OltpSql, MarkerAndExistenceQueries) {
  EXPECT_NE(CreateMarkerTableSql().find("CREATE TABLE IF NOT EXISTS loadcell_tables"),
            std::string::npos);
  EXPECT_EQ(InsertMarkerSql("sbtest1", "oltp_read_write", "00ab"),
            "INSERT INTO loadcell_tables (name, workload, token, state, oid) VALUES ('sbtest1', "
            "'oltp_read_write', '00ab', 'loading', '')");
  EXPECT_EQ(DeleteMarkerSql("sbtest1"), "DELETE FROM loadcell_tables WHERE name = 'sbtest1'");
  EXPECT_EQ(CompleteMarkerSql("sbtest1"),
            "UPDATE loadcell_tables SET state = 'complete' WHERE name = 'sbtest1'");
  EXPECT_EQ(MarkerComment("00ab", false), "loadcell table 00ab loading");
  EXPECT_EQ(MarkerComment("00ab", true), "loadcell table 00ab complete");
  EXPECT_EQ(SetTableCommentSql(SqlDialect::kPgsql, "sbtest1", "x"),
            "COMMENT ON TABLE sbtest1 IS 'x'");
  EXPECT_EQ(SetTableCommentSql(SqlDialect::kMysql, "sbtest1", "x"),
            "ALTER TABLE sbtest1 COMMENT = 'x'");
  EXPECT_NE(TableMarkerSql(SqlDialect::kPgsql, "sbtest1").find("obj_description"),
            std::string::npos);
  EXPECT_NE(TableMarkerSql(SqlDialect::kMysql, "sbtest1").find("table_comment"), std::string::npos);
  EXPECT_NE(TableMarkerSql(SqlDialect::kSqlite, "sbtest1").find("sqlite_master"),
            std::string::npos);
  EXPECT_NE(TableExistsSql(SqlDialect::kSqlite, "sbtest1").find("sqlite_master"),
            std::string::npos);
  EXPECT_NE(TableExistsSql(SqlDialect::kPgsql, "sbtest1").find("current_schema()"),
            std::string::npos);
  EXPECT_NE(TableExistsSql(SqlDialect::kMysql, "sbtest1").find("DATABASE()"), std::string::npos);
  EXPECT_EQ(DropTableSql("sbtest9"), "DROP TABLE IF EXISTS sbtest9");
  EXPECT_NE(
      CreateBulkTableSql(SqlDialect::kPgsql, 2, "00ab").find("CREATE TABLE IF NOT EXISTS sbtest2"),
      std::string::npos);
  EXPECT_NE(CreateBulkTableSql(SqlDialect::kMysql, 2, "00ab")
                .find("COMMENT = 'loadcell table 00ab loading'"),
            std::string::npos);
  EXPECT_NE(CreateBulkTableSql(SqlDialect::kSqlite, 2, "00ab").find("/* loadcell table 00ab */"),
            std::string::npos);
}

}  // namespace
}  // namespace loadcell
