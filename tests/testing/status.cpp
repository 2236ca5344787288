#include "testing/status.h"

#include <cstring>

namespace loadcell::testing {

std::string DescribeStatus(const Status& s) {
  if (s.ok()) return "OK";
  std::string text = std::string(StatusCodeName(s.code())) + ": " + s.message();
  if (s.err() != 0)
    text += " (errno " + std::to_string(s.err()) + ": " + std::strerror(s.err()) + ")";
  return text;
}

}  // namespace loadcell::testing
