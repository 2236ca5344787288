#include "testing/golden.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

bool UpdateRequested() {
  const char* v = std::getenv("LOADCELL_UPDATE_GOLDEN");
  return v != nullptr && std::string(v) == "1";
}

// First differing line, for a readable failure message.
std::string FirstDifference(const std::string& want, const std::string& got) {
  std::istringstream a(want);
  std::istringstream b(got);
  std::string la;
  std::string lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "only line endings differ";
    if (ha != hb || la != lb) {
      return "line " + std::to_string(line) + ":\n  golden: " + (ha ? la : "<end>") +
             "\n  actual: " + (hb ? lb : "<end>");
    }
  }
}

}  // namespace

std::string GoldenPath(const std::string& name) {
  return std::string(LOADCELL_SOURCE_DIR) + "/tests/golden/data/" + name;
}

void ExpectMatchesGolden(const std::string& name, const std::string& actual) {
  const std::string path = GoldenPath(name);
  if (UpdateRequested()) {
    std::ofstream out(path, std::ios::binary);
    out << actual;
    ASSERT_TRUE(out.good()) << "cannot write " << path;
    return;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << "missing golden file " << path
                         << " (run with LOADCELL_UPDATE_GOLDEN=1 to create it)";
  const std::string want = ReadFile(path);
  EXPECT_TRUE(want == actual) << name << " differs from the golden file, "
                              << FirstDifference(want, actual);
}

}  // namespace loadcell::testing
