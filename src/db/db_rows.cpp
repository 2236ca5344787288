#include "db/db_driver.h"

namespace loadcell {

// Out of line: inlined with constant arguments, std::string::assign trips a
// GCC 12 -Wrestrict false positive.
void DbRows::SetValue(std::optional<std::string>& slot, const char* p, size_t n) {
  if (slot.has_value()) {
    slot->assign(p, n);
  } else {
    slot.emplace(p, n);
  }
}

}  // namespace loadcell
