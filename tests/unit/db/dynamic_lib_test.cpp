// The client libraries of the pgsql and mysql drivers, loaded on demand.

#include "db/dynamic_lib.h"

#include <gtest/gtest.h>

#include "testing/status.h"

namespace loadcell {
namespace {

TEST(DynamicLibTest, LoadsLibpqAndFillsEveryFunction) {
  ASSERT_OK(LoadPq());
  const PqApi& pq = Pq();
#define LOADCELL_EXPECT_BOUND_(name) EXPECT_NE(pq.name, nullptr) << #name;
  LOADCELL_PQ_FUNCTIONS(LOADCELL_EXPECT_BOUND_)
#undef LOADCELL_EXPECT_BOUND_
  // The pointers are the library's: a null result is reported as fatal.
  EXPECT_EQ(pq.PQresultStatus(nullptr), PGRES_FATAL_ERROR);
  // A second load returns the first outcome and the same table.
  EXPECT_OK(LoadPq());
  EXPECT_EQ(&Pq(), &pq);
}

TEST(DynamicLibTest, LoadsLibmariadbAndFillsEveryFunction) {
  ASSERT_OK(LoadMariadb());
  const MariadbApi& my = Mariadb();
#define LOADCELL_EXPECT_BOUND_(name) EXPECT_NE(my.name, nullptr) << #name;
  LOADCELL_MARIADB_FUNCTIONS(LOADCELL_EXPECT_BOUND_)
#undef LOADCELL_EXPECT_BOUND_
  // A handle made by the loaded library starts without an error.
  MYSQL* m = my.mysql_init(nullptr);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(my.mysql_errno(m), 0u);
  my.mysql_close(m);
  EXPECT_EQ(&Mariadb(), &my);
}

}  // namespace
}  // namespace loadcell
