#pragma once
// What the tests read of an HTML report's charts.

#include <regex>
#include <string>

namespace loadcell::testing {

// The data-points attribute of chart `id` in `html`, or -1 when the chart
// is absent.
inline int ChartPoints(const std::string& html, const std::string& id) {
  std::smatch m;
  if (!std::regex_search(html, m,
                         std::regex("data-chart=\"" + id + "\" data-points=\"([0-9]+)\""))) {
    return -1;
  }
  return std::stoi(m[1]);
}

}  // namespace loadcell::testing
