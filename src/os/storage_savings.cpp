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

// The lines of `text`, each without its line end; none when it is empty.
std::vector<std::string> LinesOf(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

}  // namespace

StorageSavings ZfsSavings(const std::string& dataset, const CommandRunner& run) {
  const std::string name = "zfs dataset " + dataset;
  const auto not_read = [&name](const std::string& why) {
    return Compresses(name +
                      " may compress or deduplicate; its compression and dedup were not "
                      "read: " +
                      why);
  };
  if (dataset.empty()) return not_read("the mount names no dataset");
  const Result<std::string> out =
      run({"zfs", "get", "-H", "-o", "value", "compression,dedup", dataset});
  if (!out.ok()) return not_read(out.status().message());
  const std::string& text = out.value();
  const std::vector<std::string> values = LinesOf(text);
  if (values.size() != 2 || values[0].empty() || values[1].empty()) {
    return not_read("zfs get answered \"" + LinesOf(text + "\n").front() + "\", not two values");
  }
  const std::string how = name + " with compression=" + values[0] + ", dedup=" + values[1];
  const bool compresses = values[0] != "off";
  const bool dedups = values[1] != "off";
  return {true, compresses || dedups, how};
}

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
