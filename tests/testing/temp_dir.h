#pragma once
// A fresh directory, removed with all its contents when the object goes
// away. Test helper only.

#include <filesystem>
#include <set>
#include <string>

namespace loadcell::testing {

class TempDir final {
 public:
  // Under $TMPDIR (or /tmp).
  TempDir();
  // Under `parent` (e.g. the build tree, a real file system where O_DIRECT
  // works, unlike on some tmpfs).
  explicit TempDir(const std::string& parent);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Empty (with a test failure) when the directory could not be made.
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }
  std::string operator/(const std::string& name) const { return File(name); }
  // True when nothing (no file, folder or lock) is in the directory.
  bool IsEmpty() const { return std::filesystem::is_empty(std::filesystem::path(path_)); }
  // Writes `text` to the file `name` in this directory; returns its path.
  std::string Write(const std::string& name, const std::string& text) const;
  // The contents of the file `name` in this directory ("" when missing).
  std::string Read(const std::string& name) const;

 private:
  std::string path_;
};

// The contents of the file at `path` ("" when it cannot be read).
std::string ReadFile(const std::string& path);

// The temporary directory tests write under: $TMPDIR, or /tmp.
std::string TempRoot();

// The current directory: the build tree when ctest runs the tests, a real
// file system where O_DIRECT works (unlike on some tmpfs).
inline std::string BuildTree() { return std::filesystem::current_path().string(); }

// Every path below `dir` (files and folders), relative to it.
inline std::set<std::string> Tree(const std::string& dir) {
  std::set<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    out.insert(std::filesystem::relative(e.path(), dir).string());
  }
  return out;
}

}  // namespace loadcell::testing
