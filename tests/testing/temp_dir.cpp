#include "testing/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace loadcell::testing {

std::string TempRoot() {
  const char* base = std::getenv("TMPDIR");
  if (base != nullptr && *base != '\0') return base;
  std::error_code ec;
  std::string system = std::filesystem::temp_directory_path(ec).string();
  // Windows' ends in '\' (C:\users\x\Temp\): the names joined to it with
  // '/' then read as they do on Linux.
  while (system.size() > 1 && (system.back() == '\\' || system.back() == '/')) system.pop_back();
  return ec || system.empty() ? "/tmp" : system;
}

TempDir::TempDir() : TempDir(TempRoot()) {}

// A new folder with a random name (create_directory fails on one that
// exists, so two tests never share one); portable, unlike mkdtemp.
TempDir::TempDir(const std::string& parent) {
  std::random_device rd;
  for (int attempt = 0; attempt < 100 && path_.empty(); ++attempt) {
    const std::string p = parent + "/loadcell-test-" + std::to_string(rd());
    std::error_code ec;
    if (std::filesystem::create_directory(p, ec)) path_ = p;
    if (ec) break;
  }
  EXPECT_FALSE(path_.empty()) << "cannot make a temporary folder under " << parent;
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

std::string TempDir::Write(const std::string& name, const std::string& text) const {
  std::string p = File(name);
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
