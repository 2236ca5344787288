#include "db/mysql/mariadb_api.h"

#include "os/dynamic_lib.h"

namespace loadcell {

LOADCELL_DEFINE_DYNAMIC_LIBRARY(MariadbApi, LOADCELL_MARIADB_FUNCTIONS, "libmariadb.so.3",
                                "libmariadb3", LoadMariadb, Mariadb)

}  // namespace loadcell
