#include "testing/temp_dir.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace loadcell::testing {

std::string TempRoot() {
  const char* base = std::getenv("TMPDIR");
  return base != nullptr && *base != '\0' ? base : "/tmp";
}

TempDir::TempDir() : TempDir(TempRoot()) {}

TempDir::TempDir(const std::string& parent) {
  std::string tmpl = parent + "/loadcell-test-XXXXXX";
  if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  EXPECT_FALSE(path_.empty()) << "mkdtemp failed under " << parent;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::string& text) const {
  const std::string p = File(name);
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string TempDir::Read(const std::string& name) const { return ReadFile(File(name)); }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace loadcell::testing
