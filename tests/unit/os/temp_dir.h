#pragma once
// Test helper: a fresh directory under $TMPDIR (or /tmp), removed with all
// its contents when the object goes away.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace loadcell::testing {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl = std::string(base != nullptr && *base != '\0' ? base : "/tmp") +
                       "/loadcell-test-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
    EXPECT_FALSE(path_.empty()) << "mkdtemp failed under " << tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace loadcell::testing
