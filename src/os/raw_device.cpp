#include "os/raw_device.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "os/block_device.h"

namespace loadcell {
namespace {

Status Named(const std::string& device, const std::string& what, const Status& st) {
  // The reason in words (the errno's text too), kept as the message.
  return Status(st.code(), fmt::format("{}: {}: {}", device, what, st.ToString()));
}

// Opens `device` to read, or says in one line why it cannot.
Result<intptr_t> OpenDevice(RawDeviceCalls& calls, const std::string& device) {
  Result<intptr_t> h = calls.OpenForRead(device);
  if (h.ok()) return h;
  if (h.status().code() == StatusCode::kNotFound) {
    return Status::NotFound(device + ": no such device on this system");
  }
  return Named(device, "cannot open it (reading a drive or a volume needs administrator rights)",
               h.status());
}

}  // namespace

bool IsRawDevicePath(const std::string& path) {
  return path.size() > 4 && (path.rfind("\\\\.\\", 0) == 0 || path.rfind("//./", 0) == 0);
}

Result<uint64_t> RawDeviceBytes(RawDeviceCalls& calls, const std::string& device) {
  LC_ASSIGN_OR_RETURN(intptr_t h, OpenDevice(calls, device));
  Result<uint64_t> bytes = calls.Length(h);
  calls.Close(h);
  if (!bytes.ok()) return Named(device, "cannot ask its length", bytes.status());
  return *bytes;
}

Result<std::string> RawDeviceSignature(RawDeviceCalls& calls, const std::string& device) {
  LC_ASSIGN_OR_RETURN(intptr_t h, OpenDevice(calls, device));
  Result<uint64_t> bytes = calls.Length(h);
  if (!bytes.ok()) {
    calls.Close(h);
    return Named(device, "cannot ask its length", bytes.status());
  }
  // Whole sectors: a device shorter than the signatures' bytes is read
  // whole (its length is a multiple of its sector).
  const size_t len = static_cast<size_t>(std::min<uint64_t>(*bytes, kSignatureBytes));
  std::vector<unsigned char> data(len);
  Result<size_t> got = len == 0 ? Result<size_t>(size_t{0}) : calls.ReadStart(h, data.data(), len);
  calls.Close(h);
  if (!got.ok()) return Named(device, "cannot read its first bytes", got.status());
  return SignatureOf(data.data(), *got);
}

}  // namespace loadcell
