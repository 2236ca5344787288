#pragma once
// A connection that talks to no server: every statement succeeds at once
// with no rows (sysbench's --mysql-dry-run). It measures the client's own
// cost per query: the script or transaction logic, the binds, the counters.

#include <memory>

#include "db/db_driver.h"

namespace loadcell {

std::unique_ptr<DbConnection> MakeDryRunConnection();

}  // namespace loadcell
