#include "os/storage_savings.h"

#include <sstream>
#include <vector>

namespace loadcell {
namespace {

// The options of `mount` whose name (before any '=') is one of `names`.
std::vector<std::string> OptionsNamed(const MountFacts& mount,
                                      const std::vector<std::string>& names) {
  std::vector<std::string> out;
  std::istringstream in(mount.options);
  std::string option;
  while (std::getline(in, option, ',')) {
    const std::string name = option.substr(0, option.find('='));
    for (const std::string& n : names) {
      if (name == n) out.push_back(option);
    }
  }
  return out;
}

StorageSavings Compresses(std::string how) { return {true, true, std::move(how)}; }

}  // namespace

StorageSavings SavingsOf(const MountFacts& mount, bool compress_flag) {
  const std::string& fs = mount.file_system;
  if (fs.empty()) return {};
  if (fs == "zfs") {
    return Compresses("zfs: its datasets may compress or deduplicate (zfs get compression,dedup)");
  }
  if (fs == "btrfs") {
    for (const std::string& o : OptionsNamed(mount, {"compress", "compress-force"})) {
      if (o != "compress=no" && o != "compress-force=no") {
        return Compresses("btrfs mounted with " + o);
      }
    }
    if (compress_flag) return Compresses("btrfs, the file's compression attribute set (chattr +c)");
    return {true, false, "btrfs without compress= and without the file's compression attribute"};
  }
  if (fs == "f2fs") {
    const std::vector<std::string> algorithm = OptionsNamed(mount, {"compress_algorithm"});
    if (!algorithm.empty() && compress_flag) {
      return Compresses("f2fs mounted with " + algorithm.front() +
                        ", the file's compression attribute set");
    }
    return {true, false, "f2fs, the file not compressed"};
  }
  // ext4 keeps the attribute (chattr +c) but compresses nothing; nor do the
  // others.
  return {true, false, fs + ": does not compress"};
}

}  // namespace loadcell
