#pragma once
// A plain-text table for the compare and sweep commands: columns padded to
// their widest cell, two spaces apart, no trailing spaces.

#include <string>
#include <vector>

namespace loadcell {

class TextTable final {
 public:
  void AddRow(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  // The first `left_columns` columns are left-aligned, the others
  // right-aligned (numbers). Every line ends with '\n'.
  std::string Render(size_t left_columns) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace loadcell
