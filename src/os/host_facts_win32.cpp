#include "os/host_facts.h"

namespace loadcell {

// Windows: the facts these checks read are not gathered yet; the checks
// that need them say "not checked".

HostCpuTimes ReadHostCpuTimes(const std::string& /*proc_stat*/) { return {}; }

uint64_t CgroupMemoryLimit() { return 0; }

Result<uint64_t> FileHoleBytes(const std::string& path) {
  return Status::Unimplemented(path + ": allocated ranges are not read on Windows yet");
}

DeviceCounters ReadDeviceCounters(const std::string& /*path*/) { return {}; }

DeviceCounters DeviceCountersOf(const std::string& /*device*/, const std::string& /*class_block*/) {
  return {};
}

std::vector<std::string> LeafDevices(const std::string& /*device*/,
                                     const std::string& /*class_block*/) {
  return {};
}

DirtyMemory ReadDirtyMemory(const std::string& /*meminfo*/) { return {}; }

BlockSizes DeviceBlockSizes(const std::string& /*path*/) { return {}; }

CpuFrequencyFacts ReadCpuFrequencies(const std::vector<int>& /*cpus*/,
                                     const std::string& /*cpu_root*/) {
  return {};
}

std::string VirtualMachineName(const std::string& /*proc_cpuinfo*/,
                               const std::string& /*dmi_vendor*/) {
  return "";
}

std::string DeviceWriteCacheMode(const std::string& /*path*/) { return ""; }

MountFacts ReadMountFacts(const std::string& /*path*/, const std::string& /*mountinfo*/) {
  return {};
}

}  // namespace loadcell
