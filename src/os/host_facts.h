#pragma once
// Facts about the host read around a run for the validity checks
// (src/validity/): the CPUs' busy time, the memory limit, how a file is
// allocated, the device under it (its counters, write cache and block
// sizes), the page cache's dirty bytes, the CPUs' frequencies. One
// implementation per platform (host_facts_posix.cpp: /proc, /sys;
// host_facts_win32.cpp; FileHoleBytes' POSIX one, SEEK_HOLE, is in
// file_extents_posix.cpp beside the unwritten extents of file_extents.h).
// Never per event: each is a few system calls. The readers of /proc and
// /sys take the file or folder they read (the system's by default), so that
// a test can hand them a tree of its own.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell {

// The host's CPU time since boot, summed over its CPUs, in the system's
// ticks: busy (user, nice, system, irq, softirq, steal) and all of it, and
// steal (the time a hypervisor ran something else while a CPU wanted to run).
// Windows states no steal time (`steal_known` false there).
struct HostCpuTimes {
  bool known = false;
  uint64_t busy = 0;
  uint64_t total = 0;
  bool steal_known = false;
  uint64_t steal = 0;
};
HostCpuTimes ReadHostCpuTimes(const std::string& proc_stat = "/proc/stat");

// One CPU's time since boot in the system's ticks, as DiskSpd's CPU table
// splits it: user (user, nice), kernel (system, irq, softirq, steal; idle
// not included) and idle (idle, iowait).
struct PerCpuTimes {
  int cpu = 0;
  uint64_t user = 0;
  uint64_t kernel = 0;
  uint64_t idle = 0;
};
// Every online CPU's times, in CPU order (/proc/stat's cpuN lines; on
// Windows NtQuerySystemInformation's processor times, 100 ns units, the
// CPUs of the process' processor group); `kernel` without the idle time;
// empty where the system does not say.
std::vector<PerCpuTimes> ReadPerCpuTimes(const std::string& proc_stat = "/proc/stat");

// The computer's name (the host name); "" when unknown.
std::string ComputerName();

// The memory limit of this process' cgroup in bytes; 0 when there is none
// or the system does not say. On Linux the tightest limit of the process'
// cgroup and each one above it, as `proc_cgroup` (/proc/self/cgroup) names
// them under `cgroup_root` (where the cgroup file systems are mounted):
// cgroup v2's memory.max, and v1's memory.limit_in_bytes in the memory
// controller's hierarchy (`cgroup_root`/memory); both on a hybrid host. On
// Windows the job object's limit (the arguments are unused).
uint64_t CgroupMemoryLimit(const std::string& proc_cgroup = "/proc/self/cgroup",
                           const std::string& cgroup_root = "/sys/fs/cgroup");

// How many bytes of the file at `path` lie in holes (ranges with no storage
// allocated: they read as zeros without touching the device). NotSupported
// when the system or file system cannot tell.
Result<uint64_t> FileHoleBytes(const std::string& path);

// The bytes the block device that holds `path` has read and written since
// boot (its partition's counters when it is one; a block device node's own:
// /dev/loop0 is loop0, not the device under /dev). A device-mapper or md
// device is followed through its `slaves/` down to the devices that stand
// under no other (`under`), and the counters are theirs, summed: what
// reached the disks. `known` false when no block device stands behind the
// file system (tmpfs, overlay) or the system does not say. The device's name
// ("vda1", "dm-0") for messages.
struct DeviceCounters {
  bool known = false;
  std::string unknown;  // when not known: why ("cannot read ...: Permission denied")
  std::string device;
  std::vector<std::string> under;  // the disks under a stacked device ("" none)
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
};
DeviceCounters ReadDeviceCounters(const std::string& path);

// The same for the block device named `device` in `class_block` (a folder
// of one entry per block device, as /sys/class/block): the seam of
// ReadDeviceCounters.
DeviceCounters DeviceCountersOf(const std::string& device,
                                const std::string& class_block = "/sys/class/block");

// The devices `device` stands on directly: its `slaves/` entries in
// `class_block`, sorted by name (the disks or partitions under a
// device-mapper or md device); empty for a device on no other, one not in
// `class_block`, or another platform.
std::vector<std::string> SlaveDevices(const std::string& device,
                                      const std::string& class_block = "/sys/class/block");

// The devices under `device` that stand on no other, through `slaves/`
// (each once, in the order met; cycles cut); {device} itself when it has
// none. Empty when `device` is not in `class_block`.
std::vector<std::string> LeafDevices(const std::string& device,
                                     const std::string& class_block = "/sys/class/block");

// The page cache's bytes not yet written to their devices (Dirty) and being
// written (Writeback), host-wide; `known` false when the system does not
// say.
struct DirtyMemory {
  bool known = false;
  uint64_t dirty_bytes = 0;
  uint64_t writeback_bytes = 0;
};
DirtyMemory ReadDirtyMemory(const std::string& meminfo = "/proc/meminfo");

// The bytes this process made its block devices read and write (Linux's
// task I/O accounting, /proc/self/io: read_bytes, write_bytes less
// cancelled_write_bytes; direct I/O counted as it is submitted, buffered
// writes as pages are dirtied); `known` false when the system does not say.
struct ProcessIo {
  bool known = false;
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
};
ProcessIo ReadProcessIo(const std::string& proc_io = "/proc/self/io");

// The logical and physical block sizes of the block device that holds
// `path` (a partition's are its disk's); 0 when unknown.
struct BlockSizes {
  uint32_t logical = 0;
  uint32_t physical = 0;
};
BlockSizes DeviceBlockSizes(const std::string& path);

// The frequency facts of `cpus` (numbers as the system counts them):
// the governor of the first that has one, each one's current frequency in
// kHz (0 where unknown), and the thermal throttle events summed over those
// that count them. `cpu_root` is a folder of cpuN/ entries, as
// /sys/devices/system/cpu.
struct CpuFrequencyFacts {
  std::string governor;          // "" unknown
  std::vector<uint64_t> khz;     // per CPU of `cpus`
  bool throttle_known = false;   // some CPU counts throttle events
  uint64_t throttle_events = 0;  // core + package, summed
};
CpuFrequencyFacts ReadCpuFrequencies(const std::vector<int>& cpus,
                                     const std::string& cpu_root = "/sys/devices/system/cpu");

// The hypervisor this system runs under as it names it (the DMI vendor:
// "QEMU", "VMware, Inc.", ...), or "the CPU's hypervisor flag" when only
// that says so; "" on bare metal or when nothing says.
std::string VirtualMachineName(const std::string& proc_cpuinfo = "/proc/cpuinfo",
                               const std::string& dmi_vendor = "/sys/class/dmi/id/sys_vendor");

// The write cache mode of the block device that holds `path`, as the system
// states it ("write back", "write through"); "" when it does not say (no
// block device behind the file, no permission, another platform).
std::string DeviceWriteCacheMode(const std::string& path);

// The mount that holds `path` (or its nearest existing ancestor): its file
// system's type and its options, the mount's then the super block's without
// repeats ("rw,relatime,errors=remount-ro"), as `mountinfo` (a file in the
// form of /proc/self/mountinfo) states them for the device of `path` and the
// longest mount point that holds it; where no mount has the device's number
// (a btrfs subvolume's files), the longest mount point that holds it. Empty
// strings when nothing says (another platform, a path on no listed mount).
struct MountFacts {
  std::string file_system;
  std::string options;
  std::string source;  // what was mounted: "/dev/loop0", "tmpfs"
};
MountFacts ReadMountFacts(const std::string& path,
                          const std::string& mountinfo = "/proc/self/mountinfo");

}  // namespace loadcell
