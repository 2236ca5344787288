#include "os/block_device.h"

namespace loadcell {

bool IsBlockDevice(const std::string& path) {
  return path.rfind("\\\\.\\", 0) == 0 || path.rfind("//./", 0) == 0;
}

Result<uint64_t> BlockDeviceBytes(const std::string& path) {
  return Status::Unimplemented(path + ": raw devices are not supported by loadcell on Windows yet");
}

Result<bool> BlockDeviceMounted(const std::string& path, std::string*) {
  return Status::Unimplemented(path + ": raw devices are not supported by loadcell on Windows yet");
}

Result<std::string> BlockDeviceSignature(const std::string& path) {
  return Status::Unimplemented(path + ": raw devices are not supported by loadcell on Windows yet");
}

}  // namespace loadcell
