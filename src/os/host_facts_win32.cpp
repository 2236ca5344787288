#include "os/host_facts.h"

namespace loadcell {

// Windows: the facts these checks read are not gathered yet; the checks
// that need them say "not checked".

HostCpuTimes ReadHostCpuTimes() { return {}; }

uint64_t CgroupMemoryLimit() { return 0; }

Result<uint64_t> FileHoleBytes(const std::string& path) {
  return Status::Unimplemented(path + ": allocated ranges are not read on Windows yet");
}

DeviceCounters ReadDeviceCounters(const std::string& /*path*/) { return {}; }

std::string DeviceWriteCacheMode(const std::string& /*path*/) { return ""; }

}  // namespace loadcell
