// SqliteNewFiles: a failed prepare removes only the database files it made.

#include "db/sqlite/sqlite_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "testing/temp_dir.h"

namespace loadcell {
namespace {

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(SqliteNewFiles, RemovesOnlyWhatDidNotExistBefore) {
  testing::TempDir tmp;
  const std::string db = tmp.File("x.db");
  Touch(db + "-journal");  // someone else's, there before
  const SqliteNewFiles files = SqliteNewFiles::Before(DefaultFileSystem(), db);
  EXPECT_TRUE(files.database_is_new());
  Touch(db);
  Touch(db + "-wal");
  Touch(tmp.File("other"));
  EXPECT_EQ(files.RemoveNew(DefaultFileSystem()), (std::vector<std::string>{"x.db", "x.db-wal"}));
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_FALSE(std::filesystem::exists(db + "-wal"));
  EXPECT_TRUE(std::filesystem::exists(db + "-journal"));
  EXPECT_TRUE(std::filesystem::exists(tmp.File("other")));
}

TEST(SqliteNewFiles, NeverTouchesAnExistingDatabaseNorALink) {
  testing::TempDir tmp;
  const std::string db = tmp.File("x.db");
  Touch(db);
  const SqliteNewFiles existing = SqliteNewFiles::Before(DefaultFileSystem(), db);
  EXPECT_FALSE(existing.database_is_new());
  Touch(db + "-wal");  // the existing database's journal: never removed
  EXPECT_TRUE(existing.RemoveNew(DefaultFileSystem()).empty());
  EXPECT_TRUE(std::filesystem::exists(db));
  EXPECT_TRUE(std::filesystem::exists(db + "-wal"));

  EXPECT_FALSE(SqliteNewFiles::Before(DefaultFileSystem(), ":memory:").database_is_new());
#if !defined(_WIN32)
  const std::string other = tmp.File("y.db");
  const SqliteNewFiles fresh = SqliteNewFiles::Before(DefaultFileSystem(), other);
  ASSERT_EQ(symlink(db.c_str(), other.c_str()), 0);  // a link where the new file was
  EXPECT_TRUE(fresh.RemoveNew(DefaultFileSystem()).empty());
  EXPECT_TRUE(std::filesystem::is_symlink(other));
  EXPECT_TRUE(std::filesystem::exists(db));
#endif
}

}  // namespace
}  // namespace loadcell
