// DbRows: rows added after Clear() reuse the memory of the cleared ones.

#include <gtest/gtest.h>

#include <string>

#include "db/db_driver.h"

namespace loadcell {
namespace {

TEST(DbRows, ClearKeepsColumnsAndAddRowReusesTheClearedBuffers) {
  DbRows rows;
  rows.columns.resize(2);                  // two columns (names do not matter here)
  const std::string long_value(120, 'x');  // beyond any small-string buffer
  DbRows::Row& first = rows.AddRow(2);
  DbRows::SetValue(first[0], long_value.data(), 1);
  DbRows::SetValue(first[1], long_value.data(), long_value.size());
  const char* buffer = rows.rows[0][1]->data();
  ASSERT_EQ(rows.rows.size(), 1u);

  rows.Clear();
  EXPECT_TRUE(rows.rows.empty());
  EXPECT_EQ(rows.columns.size(), 2u);

  DbRows::Row& again = rows.AddRow(2);
  const std::string other(100, 'y');
  DbRows::SetValue(again[1], other.data(), other.size());
  again[0].reset();  // NULL
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_FALSE(rows.rows[0][0].has_value());
  EXPECT_EQ(*rows.rows[0][1], other);
  EXPECT_EQ(rows.rows[0][1]->data(), buffer);  // the same buffer: no allocation

  // More rows than were cleared: the extra ones are new, of the size asked.
  DbRows::Row& extra = rows.AddRow(3);
  EXPECT_EQ(extra.size(), 3u);
  EXPECT_EQ(rows.rows.size(), 2u);
}

}  // namespace
}  // namespace loadcell
