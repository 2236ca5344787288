// The fileio manifest: its names, its format and what it refuses.

#include "workloads/fileio/fileio_manifest.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

TEST(FileIoManifestTest, OnlyLoadcellsTestFileNames) {
  for (const char* ok : {"test_file.0", "test_file.7", "test_file.127", "test_file.1000000"}) {
    EXPECT_TRUE(IsTestFileName(ok)) << ok;
  }
  for (const char* bad : {"test_file.", "test_file.01", "test_file.-1", "test_file.1x",
                          "test_file.0/..", "../test_file.0", "/tmp/test_file.0", "victim.txt",
                          ".loadcell-fileio.manifest", "test_file.99999999999999999999"}) {
    EXPECT_FALSE(IsTestFileName(bad)) << bad;
  }
  EXPECT_EQ(TestFileIndex("test_file.42"), 42u);
}

FileManifest Sample() {
  FileManifest m;
  m.block_size = 4096;
  m.pattern = "zero";
  m.stamped = true;
  m.flags = "direct";
  m.files.push_back({"test_file.0", 1048576, FileState::kComplete, {2049, 131}});
  m.files.push_back({"test_file.1", 0, FileState::kSeqWrite, {2049, 132}});
  m.files.push_back({"test_file.2", 4096, FileState::kPartial, {7, 1}});
  return m;
}

TEST(FileIoManifestTest, FormatAndParseAgree) {
  FileManifest sample = Sample();
  sample.files.push_back({"test_file.3", 8, FileState::kComplete, {7, 2, 1765080000123456789}});
  const std::string text = FormatManifest(sample);
  EXPECT_NE(text.find("version 2\n"), std::string::npos);
  EXPECT_NE(text.find("file test_file.0 size=1048576 state=complete device=2049 inode=131\n"),
            std::string::npos)
      << text;
  Result<FileManifest> back = ParseManifest(text, "m");
  ASSERT_OK(back);
  EXPECT_EQ(back->block_size, 4096u);
  EXPECT_EQ(back->pattern, "zero");
  EXPECT_TRUE(back->stamped);
  EXPECT_EQ(back->flags, "direct");
  ASSERT_EQ(back->files.size(), 4u);
  EXPECT_EQ(back->files[1].state, FileState::kSeqWrite);
  EXPECT_EQ(back->files[2].state, FileState::kPartial);
  EXPECT_EQ(back->files[0].id, (FileId{2049, 131}));
  EXPECT_EQ(back->files[0].id.birth_ns, 0u);  // not known: not written
  EXPECT_NE(text.find("file test_file.3 size=8 state=complete device=7 inode=2 "
                      "birth=1765080000123456789\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(back->files[3].id.birth_ns, 1765080000123456789u);
  EXPECT_NE(back->files[3].id, (FileId{7, 2, 1765080000123456790}));
  EXPECT_EQ(FormatManifest(*back), text);
  // Fields may come in any order.
  Result<FileManifest> shuffled =
      ParseManifest("version 2\nfile test_file.3 inode=9 state=complete device=8 size=10\n", "m");
  ASSERT_OK(shuffled);
  EXPECT_EQ(shuffled->files[0].id, (FileId{8, 9}));
  EXPECT_EQ(shuffled->files[0].size, 10u);
}

TEST(FileIoManifestTest, WhatIsNotLoadcellsIsRefusedNamingTheLine) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"version 2\nfile victim.txt size=1 state=complete device=1 inode=1\n",
       "line 2: names 'victim.txt', which is not a loadcell test file"},
      {"version 2\nfile ../x size=1 state=complete device=1 inode=1\n", "names '../x'"},
      {"version 2\nfile /etc/passwd size=1 state=complete device=1 inode=1\n",
       "names '/etc/passwd'"},
      {"version 2\nfile test_file.0 size=1 state=complete\n", "without its identity fields"},
      {"version 2\nfile test_file.0 size=1 size=2 state=complete device=1 inode=1\n",
       "'size=2' is not a field"},
      {"version 2\nfile test_file.0 size=x state=complete device=1 inode=1\n",
       "'size=x' is not a field"},
      {"version 2\nfile test_file.0 size=1 state=done device=1 inode=1\n",
       "'state=done' is not a field"},
      {"version 2\nfile test_file.0 size=1 state=complete device=1 inode=1 owner=me\n",
       "'owner=me' is not a field"},
      {"version 2\nfile test_file.0 size=1 state=complete device=1 inode=1 birth=0\n",
       "'birth=0' is not a field"},
      {"version 2\nfile test_file.0 size=1 state=complete device=1 inode=1 birth=2 birth=2\n",
       "'birth=2' is not a field"},
      {"version 2\nfile test_file.0 size=1 state=complete device=1 birth=2\n",
       "without its identity fields"},
      {"version 2\nfile test_file.0 size=1 state=complete device=1 inode=1\n"
       "file test_file.0 size=1 state=complete device=1 inode=1\n",
       "line 3: 'test_file.0' is listed twice"},
      {"version 1\nfile test_file.0 1 complete\n", "line 1: version 1"},
      {"file test_file.0 size=1 state=complete device=1 inode=1\n", "no 'version' line"},
      {"# nothing\n", "no version line"},
      {"version 2\nrm -rf /\n", "line 2: not a loadcell fileio manifest line"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    Result<FileManifest> m = ParseManifest(c.text, "M");
    ASSERT_FALSE(m.ok());
    EXPECT_EQ(m.status().code(), StatusCode::kFailedPrecondition);
    EXPECT_NE(m.status().message().find(c.says), std::string::npos) << m.status().message();
  }
}

TEST(FileIoManifestTest, WriteReadAndRemoveThroughTheFolder) {
  TempDir dir;
  FileSystem& fs = DefaultFileSystem();
  Result<std::optional<FileManifest>> none = ReadManifest(fs, dir.path());
  ASSERT_OK(none);
  EXPECT_FALSE(none->has_value());
  // A temporary left by a crash is replaced.
  dir.Write(kFileIoManifestTmpName, "half");
  ASSERT_OK(WriteManifest(fs, dir.path(), Sample()));
  EXPECT_EQ(dir.Read(kFileIoManifestTmpName), "");
  Result<std::optional<FileManifest>> back = ReadManifest(fs, dir.path());
  ASSERT_OK(back);
  ASSERT_TRUE(back->has_value());
  EXPECT_EQ((*back)->files.size(), 3u);
  Result<ScopedDir> d = OpenScopedDir(fs, dir.path());
  ASSERT_OK(d);
  ASSERT_OK(RemoveManifestAt(fs, d->get()));
  EXPECT_FALSE(fs.StatAt(d->get(), kFileIoManifestName)->exists);
}

}  // namespace
}  // namespace loadcell
