#pragma once
// Options applied to an OptionSet as the command line gives them. Test
// helper only.

#include <string>
#include <utility>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell::testing {

// Applies `args` (name, value) to `set` as command-line options.
inline Status ApplyArgs(OptionSet& set,
                        const std::vector<std::pair<std::string, std::string>>& args) {
  RawOptions raw;
  for (const auto& [k, v] : args) raw.Add(k, v, true, "command line");
  return set.Apply(raw);
}

}  // namespace loadcell::testing
