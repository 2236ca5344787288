#pragma once
// `loadcell dbsim --preset=NAME` (docs/dbsim.md, "Presets"): the page and
// log patterns of SQL Server, PostgreSQL or InnoDB as a base configuration
// that the -cfg file's keys then override, and the page size the engine
// uses (--page-size overrides it).

#include <cstdint>
#include <string>

#include "core/status.h"
#include "dbsim/dbsim_config.h"

namespace loadcell {

struct DbsimPresetBase {
  DbsimConfig config;
  uint32_t page_size = 8192;
};

// The preset `name` (sqlserver, postgresql, innodb); InvalidArgument naming
// it and the valid names otherwise.
Result<DbsimPresetBase> DbsimPreset(const std::string& name);

}  // namespace loadcell
