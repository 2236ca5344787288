#pragma once
// Golden files: output compared byte for byte with tests/golden/data/<name>.
// With LOADCELL_UPDATE_GOLDEN=1 in the environment the file is rewritten
// from the output instead (review the diff). Test helper only.

#include <string>

namespace loadcell::testing {

// The path of golden file `name` in the source tree.
std::string GoldenPath(const std::string& name);

// A test failure naming the first differing line when `actual` is not the
// golden file `name` (or the file is missing).
void ExpectMatchesGolden(const std::string& name, const std::string& actual);

}  // namespace loadcell::testing
