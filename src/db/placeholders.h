#pragma once
// The scan for `?` placeholders that the SQL text helpers and the emulated
// prepared statement share (db/ only; CountPlaceholders and
// TranslatePlaceholdersDollar in db/db_driver.h are the public face).

#include <algorithm>
#include <cstddef>
#include <string_view>

namespace loadcell::db_internal {

// Calls on_placeholder(position) for each `?` outside quotes and comments.
template <typename F>
void ScanPlaceholders(std::string_view sql, F&& on_placeholder) {
  const size_t n = sql.size();
  size_t i = 0;
  while (i < n) {
    const char c = sql[i];
    if (c == '\'' || c == '"' || c == '`') {
      // Quoted: a doubled quote stays inside; a backslash escapes in MySQL.
      size_t j = i + 1;
      while (j < n) {
        if (sql[j] == '\\' && c == '\'' && j + 1 < n) {
          j += 2;
          continue;
        }
        if (sql[j] == c) {
          if (j + 1 < n && sql[j + 1] == c) {
            j += 2;
            continue;
          }
          break;
        }
        ++j;
      }
      i = std::min(n, j + 1);
    } else if (c == '-' && i + 1 < n && sql[i + 1] == '-') {
      const size_t e = sql.find('\n', i);
      i = e == std::string_view::npos ? n : e + 1;
    } else if (c == '/' && i + 1 < n && sql[i + 1] == '*') {
      const size_t e = sql.find("*/", i + 2);
      i = e == std::string_view::npos ? n : e + 2;
    } else {
      if (c == '?') on_placeholder(i);
      ++i;
    }
  }
}

}  // namespace loadcell::db_internal
