#pragma once
// A count followed by the noun that agrees with it: "1 file", "3 files".
// One place for the English rule, so that every message spells it the same way.

#include <fmt/format.h>

#include <concepts>
#include <string>
#include <string_view>

namespace loadcell {

// Returns "<n> <one>" when n is 1 and "<n> <many>" otherwise (0 and negative
// counts take the plural, as English does: "0 files"). The caller names both
// forms, so irregular plurals ("index", "indexes") need no special case.
template <std::integral T>
std::string CountOf(T n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace loadcell
