#pragma once
// Facts about the host read around a run for the validity checks
// (src/validity/): the CPUs' busy time, the memory limit, how a file is
// allocated, the device's write cache. One implementation per platform
// (host_facts_posix.cpp: /proc, /sys, SEEK_HOLE; host_facts_win32.cpp).
// Never per event: each is a few system calls.

#include <cstdint>
#include <string>

#include "core/status.h"

namespace loadcell {

// The host's CPU time since boot, summed over its CPUs, in the system's
// ticks: busy (user, nice, system, irq, softirq, steal) and all of it.
struct HostCpuTimes {
  bool known = false;
  uint64_t busy = 0;
  uint64_t total = 0;
};
HostCpuTimes ReadHostCpuTimes();

// The memory limit of this process' cgroup in bytes; 0 when there is none
// or the system does not say.
uint64_t CgroupMemoryLimit();

// How many bytes of the file at `path` lie in holes (ranges with no storage
// allocated: they read as zeros without touching the device). NotSupported
// when the system or file system cannot tell.
Result<uint64_t> FileHoleBytes(const std::string& path);

// The bytes the block device that holds `path` has read and written since
// boot (its partition's counters when it is one); `known` false when no block
// device stands behind the file system (tmpfs, overlay) or the system does
// not say. The device's name ("vda1") for messages.
struct DeviceCounters {
  bool known = false;
  std::string device;
  uint64_t read_bytes = 0;
  uint64_t written_bytes = 0;
};
DeviceCounters ReadDeviceCounters(const std::string& path);

// The write cache mode of the block device that holds `path`, as the system
// states it ("write back", "write through"); "" when it does not say (no
// block device behind the file, no permission, another platform).
std::string DeviceWriteCacheMode(const std::string& path);

}  // namespace loadcell
