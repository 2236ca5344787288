// libmariadb, loaded on demand.

#include "db/mysql/mariadb_api.h"

#include <gtest/gtest.h>

#include "testing/status.h"

namespace loadcell {
namespace {

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
