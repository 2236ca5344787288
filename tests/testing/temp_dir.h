#pragma once
// Test helper: a fresh directory under $TMPDIR (or /tmp), removed with all
// its contents when the object goes away.

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace loadcell::testing {

class TempDir {
 public:
  TempDir() {
    const char* base = std::getenv("TMPDIR");
    std::string tmpl =
        std::string(base != nullptr && *base != '\0' ? base : "/tmp") + "/loadcell-test-XXXXXX";
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
  // Writes `text` to the file `name` in this directory; returns its path.
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string p = File(name);
    std::ofstream(p) << text;
    return p;
  }

 private:
  std::string path_;
};

}  // namespace loadcell::testing
