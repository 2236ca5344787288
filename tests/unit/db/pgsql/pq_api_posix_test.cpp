// libpq, loaded on demand.

#include <gtest/gtest.h>

#include "db/pgsql/pq_api.h"
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

}  // namespace
}  // namespace loadcell
