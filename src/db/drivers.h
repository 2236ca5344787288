#pragma once
// The concrete drivers, for the registry in db_options.cpp only. Workloads use
// MakeDbDriver() or DbDrivers.

#include <memory>

#include "db/db_driver.h"

namespace loadcell {

std::unique_ptr<DbDriver> NewSqliteDriver();
std::unique_ptr<DbDriver> NewPgsqlDriver();
std::unique_ptr<DbDriver> NewMysqlDriver();

}  // namespace loadcell
