#pragma once
// What the tests read of a CSV report: its lines split into cells.

#include <sstream>
#include <string>
#include <vector>

namespace loadcell::testing {

// The cells of each line of `csv`: a quoted cell without its quotes, ""
// inside it one quote.
inline std::vector<std::vector<std::string>> CsvRows(const std::string& csv) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string>& cells = rows.emplace_back(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
  }
  return rows;
}

}  // namespace loadcell::testing
