#include "cli/table_text.h"

#include <algorithm>

namespace loadcell {
namespace {

// Display width: UTF-8 continuation bytes take no column.
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string TextTable::Render(size_t left_columns) const {
  std::vector<size_t> width;
  for (const auto& row : rows_) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], Width(row[c]));
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line;
    for (size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      const std::string pad(width[c] - Width(cell), ' ');
      if (c > 0) line += "  ";
      line += c < left_columns ? cell + pad : pad + cell;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace loadcell
