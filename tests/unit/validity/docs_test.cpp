// docs/validity.md against the checks that are made: every check has its
// section, and no check's section says that something another check makes
// is not made yet (what is not made belongs under "Not yet checked").

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "testing/temp_dir.h"
#include "validity/check.h"

namespace loadcell::validity {
namespace {

std::string ValidityDoc() { return testing::ReadFile(LOADCELL_SOURCE_DIR "/docs/validity.md"); }

// The text between "## The checks" and the next "## " heading.
std::string ChecksPart(const std::string& doc) {
  const size_t start = doc.find("\n## The checks\n");
  if (start == std::string::npos) return "";
  const size_t end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

TEST(ValidityDocTest, EveryCheckHasItsSection) {
  const std::string doc = ValidityDoc();
  ASSERT_FALSE(doc.empty());
  for (const CheckEntry& e : AllChecks()) {
    EXPECT_NE(doc.find(std::string("\n### `") + e.id + "`"), std::string::npos) << e.id;
  }
}

TEST(ValidityDocTest, NoCheckSectionCallsSomethingNotMadeYet) {
  const std::string part = ChecksPart(ValidityDoc());
  ASSERT_FALSE(part.empty());
  // Sentences run over lines: join them, headings left out.
  std::istringstream lines(part);
  std::string line;
  std::string body;
  while (std::getline(lines, line)) {
    if (line.rfind("#", 0) != 0) body += line + " ";
  }
  EXPECT_EQ(body.find(" yet"), std::string::npos)
      << body.substr(body.rfind('.', body.find(" yet")) + 1, 160);
}

}  // namespace
}  // namespace loadcell::validity
