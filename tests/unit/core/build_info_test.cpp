#include "core/build_info.h"

#include <gtest/gtest.h>

#include <string>

namespace loadcell {
namespace {

TEST(BuildInfoTest, EveryOptionalPartIsNamedOnceInTheVersionLine) {
  const std::string line = OptionalPartsLine();
  EXPECT_EQ(line.rfind("optional parts: ", 0), 0u) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  for (const OptionalPart& p : OptionalParts()) {
    const size_t at = line.find(std::string(p.name));
    ASSERT_NE(at, std::string::npos) << p.name << " in " << line;
    const size_t left_out_at = line.find("not in this build");
    EXPECT_EQ(p.built, left_out_at == std::string::npos || at < left_out_at) << line;
    EXPECT_EQ(IsLeftOut(p.name), !p.built);
    EXPECT_EQ(p.cmake_option.rfind("LOADCELL_WITH_", 0), 0u) << p.cmake_option;
  }
  EXPECT_FALSE(IsLeftOut("sync"));  // no optional part
}

TEST(BuildInfoTest, NotInThisBuildNamesWhatWasAskedAndTheOption) {
  Status s = NotInThisBuild("--db-driver=pgsql", "pgsql");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "--db-driver=pgsql: pgsql is not in this build (built with -DLOADCELL_WITH_PGSQL=OFF)");
}

}  // namespace
}  // namespace loadcell
