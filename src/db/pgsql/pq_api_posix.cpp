#include "db/pgsql/pq_api.h"
#include "os/dynamic_lib.h"

namespace loadcell {

LOADCELL_DEFINE_DYNAMIC_LIBRARY(PqApi, LOADCELL_PQ_FUNCTIONS, "libpq.so.5", "libpq5", LoadPq, Pq)

}  // namespace loadcell
