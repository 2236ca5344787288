#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "os/file_system.h"
#include "os/host_facts.h"

namespace loadcell {
namespace {

std::string FirstLineOf(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return "";
  return line;
}

// This process' cgroups as `proc_cgroup` names them: cgroup v2's path
// ("0::/user.slice/..."), and the path in the hierarchy of cgroup v1's
// memory controller ("4:memory:/docker/...", the controller possibly listed
// with others: "4:cpu,memory:/..."); "" for one the process is not in.
struct OwnCgroups {
  std::string v2;
  std::string v1_memory;
};
OwnCgroups ReadOwnCgroups(const std::string& proc_cgroup) {
  OwnCgroups own;
  std::ifstream in(proc_cgroup);
  std::string line;
  while (std::getline(in, line)) {
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (line.rfind("0::", 0) == 0) {
      own.v2 = path;
      continue;
    }
    std::istringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');) {
      if (name == "memory") own.v1_memory = path;
    }
  }
  return own;
}

// v1 states "no limit" as the largest multiple of the page size below
// 2^63; anything from 2^62 up is taken as none.
constexpr uint64_t kNoCgroupLimit = uint64_t{1} << 62;

// The tightest limit in the file `name` of `root` + `dir` and of each
// folder above it up to `root` itself; 0 when none sets one ("max", no
// file).
uint64_t TightestCgroupLimit(const std::string& root, std::string dir, const char* name) {
  uint64_t limit = 0;
  for (;;) {
    const std::string value = FirstLineOf(root + (dir == "/" ? "" : dir) + "/" + name);
    if (!value.empty() && value != "max") {
      char* end = nullptr;
      const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
      if (end != value.c_str() && n > 0 && n < kNoCgroupLimit && (limit == 0 || n < limit)) {
        limit = n;
      }
    }
    if (dir.empty() || dir == "/") break;
    const size_t slash = dir.rfind('/');
    dir = slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
  }
  return limit;
}

}  // namespace

HostCpuTimes ReadHostCpuTimes(const std::string& proc_stat) {
  HostCpuTimes t;
  std::istringstream in(FirstLineOf(proc_stat));
  std::string cpu;
  in >> cpu;
  if (cpu != "cpu") return t;
  // user nice system idle iowait irq softirq steal (guest time is in user).
  uint64_t v[8] = {};
  for (uint64_t& x : v) {
    if (!(in >> x)) return t;
  }
  t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
  t.total = t.busy + v[3] + v[4];
  t.steal = v[7];
  t.steal_known = true;
  t.known = true;
  return t;
}

std::vector<PerCpuTimes> ReadPerCpuTimes(const std::string& proc_stat) {
  std::vector<PerCpuTimes> out;
  std::ifstream lines(proc_stat);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 || line[3] < '0' || line[3] > '9') {
      continue;
    }
    std::istringstream in(line.substr(3));
    PerCpuTimes t;
    // user nice system idle iowait irq softirq steal
    uint64_t v[8] = {};
    if (!(in >> t.cpu)) continue;
    bool ok = true;
    for (uint64_t& x : v) ok = ok && static_cast<bool>(in >> x);
    if (!ok) continue;
    t.user = v[0] + v[1];
    t.kernel = v[2] + v[5] + v[6] + v[7];
    t.idle = v[3] + v[4];
    out.push_back(t);
  }
  return out;
}

std::string ComputerName() {
  char buf[256] = {};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "";
  return buf;
}

uint64_t CgroupMemoryLimit(const std::string& proc_cgroup, const std::string& cgroup_root) {
  const OwnCgroups own = ReadOwnCgroups(proc_cgroup);
  uint64_t limit = 0;
  const auto tighter = [&limit](uint64_t n) {
    if (n != 0 && (limit == 0 || n < limit)) limit = n;
  };
  if (!own.v2.empty()) tighter(TightestCgroupLimit(cgroup_root, own.v2, "memory.max"));
  if (!own.v1_memory.empty()) {
    tighter(TightestCgroupLimit(cgroup_root + "/memory", own.v1_memory, "memory.limit_in_bytes"));
  }
  return limit;
}

namespace {

// The sysfs folder of the block device that holds `path`, "" when none.
// A block device node (fio's filename=/dev/sdb) is its own device; a path
// not made yet is asked of its folder. A file on an anonymous device
// (major 0: a btrfs subvolume's own number) is on its mount's source when
// that is a block device (btrfs: the device it was mounted from, the first
// of several).
std::string DeviceFolderOf(const std::string& path) {
  struct stat st {};
  std::string at = path;
  if (::stat(at.c_str(), &st) != 0) {
    at = Dirname(path);
    if (::stat(at.c_str(), &st) != 0) return "";
  }
  dev_t device = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
  if (major(device) == 0) {
    const std::string source = ReadMountFacts(at).source;
    struct stat src {};
    if (source.rfind("/dev/", 0) != 0 || ::stat(source.c_str(), &src) != 0 ||
        !S_ISBLK(src.st_mode)) {
      return "";
    }
    device = src.st_rdev;
  }
  const std::string dev =
      "/sys/dev/block/" + std::to_string(major(device)) + ":" + std::to_string(minor(device));
  char real[PATH_MAX];
  if (::realpath(dev.c_str(), real) == nullptr) return "";
  return real;
}

}  // namespace

namespace {

// `class_block`/`name`[/`leaf`]: an entry of a folder of block devices.
std::string BlockEntryPath(const std::string& class_block, const std::string& name,
                           const char* leaf = nullptr) {
  std::string path = class_block;
  path.append("/").append(name);
  if (leaf != nullptr) path.append("/").append(leaf);
  return path;
}

// The read and written bytes of the sysfs block folder `dir` (its `stat`);
// "" when read, else why not (the file unreadable, with the system's reason,
// or not a stat line).
std::string ReadStatBytes(const std::string& dir, uint64_t* read_bytes, uint64_t* written_bytes) {
  const std::string path = dir + "/stat";
  errno = 0;
  std::ifstream file(path);
  if (!file) {
    const int err = errno;
    return "cannot read " + path + (err != 0 ? ": " + std::string(std::strerror(err)) : "");
  }
  std::string line;
  std::getline(file, line);
  // Documentation/block/stat.rst: reads, reads merged, sectors read, ms
  // reading, writes, writes merged, sectors written, ...; sectors of 512
  // bytes whatever the device's own.
  std::istringstream in(line);
  uint64_t v[7] = {};
  for (uint64_t& x : v) {
    if (!(in >> x)) return path + ": not a block device's counters";
  }
  *read_bytes = v[2] * 512;
  *written_bytes = v[6] * 512;
  return "";
}

void CollectLeaves(const std::string& device, const std::string& class_block, int depth,
                   std::vector<std::string>* seen, std::vector<std::string>* leaves) {
  if (std::find(seen->begin(), seen->end(), device) != seen->end()) return;
  seen->push_back(device);
  const std::vector<std::string> slaves = SlaveDevices(device, class_block);
  // A stack deeper than this is a loop in a hand-made tree, not a system's.
  constexpr int kMaxStackDepth = 16;
  if (slaves.empty() || depth >= kMaxStackDepth) {
    leaves->push_back(device);
    return;
  }
  for (const std::string& slave : slaves) {
    CollectLeaves(slave, class_block, depth + 1, seen, leaves);
  }
}

}  // namespace

std::vector<std::string> SlaveDevices(const std::string& device, const std::string& class_block) {
  std::vector<std::string> slaves;
  if (device.empty()) return slaves;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator(BlockEntryPath(class_block, device, "slaves"), ec)) {
    slaves.push_back(e.path().filename().string());
  }
  std::sort(slaves.begin(), slaves.end());
  return slaves;
}

std::vector<std::string> LeafDevices(const std::string& device, const std::string& class_block) {
  std::error_code ec;
  if (device.empty() || !std::filesystem::exists(BlockEntryPath(class_block, device), ec))
    return {};
  std::vector<std::string> seen;
  std::vector<std::string> leaves;
  CollectLeaves(device, class_block, 0, &seen, &leaves);
  return leaves;
}

DeviceCounters DeviceCountersOf(const std::string& device, const std::string& class_block) {
  DeviceCounters c;
  const std::vector<std::string> leaves = LeafDevices(device, class_block);
  if (leaves.empty()) {
    c.unknown = "block device " + device + " is not in " + class_block;
    return c;
  }
  for (const std::string& leaf : leaves) {
    uint64_t read = 0;
    uint64_t written = 0;
    std::string why = ReadStatBytes(BlockEntryPath(class_block, leaf), &read, &written);
    if (!why.empty()) {
      DeviceCounters none;
      none.unknown = std::move(why);
      return none;
    }
    c.read_bytes += read;
    c.written_bytes += written;
  }
  c.known = true;
  c.device = device;
  if (leaves.size() > 1 || leaves[0] != device) c.under = leaves;
  return c;
}

DeviceCounters ReadDeviceCounters(const std::string& path) {
  const std::string dir = DeviceFolderOf(path);
  if (dir.empty()) {
    DeviceCounters none;
    none.unknown =
        "no block device behind its file system (tmpfs, overlay or a network file system)";
    return none;
  }
  return DeviceCountersOf(dir.substr(dir.rfind('/') + 1));
}

ProcessIo ReadProcessIo(const std::string& proc_io) {
  ProcessIo io;
  std::ifstream in(proc_io);
  std::string key;
  uint64_t value = 0;
  uint64_t cancelled = 0;
  int seen = 0;
  while (in >> key >> value) {
    if (key == "read_bytes:") {
      io.read_bytes = value;
      ++seen;
    } else if (key == "write_bytes:") {
      io.written_bytes = value;
      ++seen;
    } else if (key == "cancelled_write_bytes:") {
      cancelled = value;
    }
  }
  io.known = seen == 2;
  io.written_bytes -= std::min(cancelled, io.written_bytes);
  return io;
}

DirtyMemory ReadDirtyMemory(const std::string& meminfo) {
  DirtyMemory d;
  std::ifstream in(meminfo);
  std::string key;
  uint64_t kib = 0;
  std::string unit;
  bool dirty = false;
  bool writeback = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    if (!(fields >> key >> kib)) continue;
    if (key == "Dirty:") {
      d.dirty_bytes = kib * 1024;
      dirty = true;
    } else if (key == "Writeback:") {
      d.writeback_bytes = kib * 1024;
      writeback = true;
    }
  }
  d.known = dirty && writeback;
  return d;
}

namespace {

// The folder of the queue of the device that holds `path` (a partition's
// disk's), "" when none.
std::string QueueFolderOf(const std::string& path) {
  std::string dir = DeviceFolderOf(path);
  if (dir.empty()) return "";
  if (::access((dir + "/partition").c_str(), F_OK) == 0) dir = dir.substr(0, dir.rfind('/'));
  return dir + "/queue";
}

uint64_t NumberIn(const std::string& file) {
  const std::string value = FirstLineOf(file);
  char* end = nullptr;
  const unsigned long long n = std::strtoull(value.c_str(), &end, 10);
  return end == value.c_str() ? 0 : n;
}

}  // namespace

BlockSizes DeviceBlockSizes(const std::string& path) {
  BlockSizes b;
  const std::string queue = QueueFolderOf(path);
  if (queue.empty()) return b;
  b.logical = static_cast<uint32_t>(NumberIn(queue + "/logical_block_size"));
  b.physical = static_cast<uint32_t>(NumberIn(queue + "/physical_block_size"));
  return b;
}

CpuFrequencyFacts ReadCpuFrequencies(const std::vector<int>& cpus, const std::string& cpu_root) {
  CpuFrequencyFacts f;
  std::error_code ec;
  for (const int cpu : cpus) {
    const std::string dir = cpu_root + "/cpu" + std::to_string(cpu);
    if (f.governor.empty()) f.governor = FirstLineOf(dir + "/cpufreq/scaling_governor");
    f.khz.push_back(NumberIn(dir + "/cpufreq/scaling_cur_freq"));
    for (const char* counter : {"core_throttle_count", "package_throttle_count"}) {
      const std::string file = dir + "/thermal_throttle/" + counter;
      if (!std::filesystem::exists(file, ec)) continue;
      f.throttle_known = true;
      f.throttle_events += NumberIn(file);
    }
  }
  return f;
}

std::string VirtualMachineName(const std::string& proc_cpuinfo, const std::string& dmi_vendor) {
  // DMI's system vendor names the hypervisors that fill it in.
  std::string vendor = FirstLineOf(dmi_vendor);
  for (const char* name : {"QEMU", "VMware", "Xen", "Microsoft Corporation", "innotek", "Parallels",
                           "Amazon EC2", "Google", "OpenStack", "Bochs"}) {
    if (vendor.find(name) != std::string::npos) return vendor;
  }
  // The CPU's "hypervisor" flag: the CPU says it is virtual, not by whom.
  std::ifstream in(proc_cpuinfo);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream flags(line.substr(line.find(':') + 1));
    std::string flag;
    while (flags >> flag) {
      if (flag == "hypervisor") return "the CPU's hypervisor flag";
    }
    break;
  }
  return "";
}

std::string DeviceWriteCacheMode(const std::string& path) {
  // A partition's queue is its disk's.
  const std::string queue = QueueFolderOf(path);
  return queue.empty() ? "" : FirstLineOf(queue + "/write_cache");
}

namespace {

// A path of mountinfo with its octal escapes (\040 a space, \011, \012,
// \134) undone.
std::string UnescapeMountPath(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '3' && s[i + 2] >= '0' &&
        s[i + 2] <= '7' && s[i + 3] >= '0' && s[i + 3] <= '7') {
      out += static_cast<char>((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0'));
      i += 3;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The nearest existing ancestor of `path` (itself when it exists), absolute
// with its links resolved; "" when none resolves.
std::string ExistingRealPath(std::string p) {
  if (p.empty()) p = ".";
  for (;;) {
    char resolved[PATH_MAX];
    if (::realpath(p.c_str(), resolved) != nullptr) return resolved;
    if (p == "/" || p == ".") return "";
    const size_t slash = p.find_last_of('/');
    p = slash == std::string::npos ? std::string(".")
        : slash == 0               ? std::string("/")
                                   : p.substr(0, slash);
  }
}

// The comma-separated options of `first`, then those of `second` not in
// `first`.
std::string JoinOptions(const std::string& first, const std::string& second) {
  std::vector<std::string> seen;
  std::string out;
  for (const std::string* list : {&first, &second}) {
    std::istringstream in(*list);
    std::string option;
    while (std::getline(in, option, ',')) {
      if (option.empty() || std::find(seen.begin(), seen.end(), option) != seen.end()) continue;
      seen.push_back(option);
      out += (out.empty() ? "" : ",") + option;
    }
  }
  return out;
}

}  // namespace

MountFacts ReadMountFacts(const std::string& path, const std::string& mountinfo) {
  MountFacts f;
  const std::string real = ExistingRealPath(path);
  struct stat st;
  if (real.empty() || ::stat(real.c_str(), &st) != 0) return f;
  const std::string want =
      std::to_string(major(st.st_dev)) + ":" + std::to_string(minor(st.st_dev));
  std::ifstream in(mountinfo);
  std::string line;
  // The longest mount point that holds the path, of equal ones the last (a
  // mount over another hides it): of the mounts of the path's device number,
  // else of all (a btrfs subvolume's files have a number of their own, not
  // the mount's).
  MountFacts by_path;
  size_t best_len = 0;
  size_t best_path_len = 0;
  bool found = false;
  bool found_path = false;
  while (std::getline(in, line)) {
    // id parent major:minor root mount-point mount-options [tags] - type source super-options
    std::istringstream fields(line);
    std::string id, parent, devno, root, mount_point, mount_options;
    if (!(fields >> id >> parent >> devno >> root >> mount_point >> mount_options)) continue;
    mount_point = UnescapeMountPath(mount_point);
    const bool holds =
        mount_point == "/" || real == mount_point || real.rfind(mount_point + "/", 0) == 0;
    const bool same_device = devno == want;
    const bool longer_for_path = !found_path || mount_point.size() >= best_path_len;
    const bool longer_for_device = same_device && (!found || mount_point.size() >= best_len);
    if (!holds || (!longer_for_path && !longer_for_device)) continue;
    const size_t dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    std::istringstream tail(line.substr(dash + 3));
    MountFacts m;
    std::string super_options;
    if (!(tail >> m.file_system)) continue;
    tail >> m.source >> super_options;
    m.source = UnescapeMountPath(m.source);
    m.options = JoinOptions(mount_options, super_options);
    if (longer_for_path) {
      by_path = m;
      best_path_len = mount_point.size();
      found_path = true;
    }
    if (longer_for_device) {
      f = std::move(m);
      best_len = mount_point.size();
      found = true;
    }
  }
  return found ? f : by_path;
}

}  // namespace loadcell
