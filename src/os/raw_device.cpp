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

// Whether the kRawProbeBytes block `index` reads in full.
bool BlockReads(RawDeviceCalls& calls, intptr_t h, std::vector<unsigned char>& buf,
                uint64_t index) {
  Result<size_t> got = calls.ReadAt(h, buf.data(), buf.size(), index * kRawProbeBytes);
  return got.ok() && *got == buf.size();
}

// The device's length by reads (RawDeviceBytes): 0 when not even its first
// block reads.
uint64_t ProbedLength(RawDeviceCalls& calls, intptr_t h) {
  std::vector<unsigned char> buf(kRawProbeBytes);
  if (!BlockReads(calls, h, buf, 0)) return 0;
  // Block `good` reads; find one that does not by doubling, then the last
  // that does between them. 2^50 blocks (4 EiB) bound the doubling.
  uint64_t good = 0;
  uint64_t bad = 1;
  while (bad < (uint64_t{1} << 50) && BlockReads(calls, h, buf, bad)) {
    good = bad;
    bad *= 2;
  }
  while (bad - good > 1) {
    const uint64_t mid = good + (bad - good) / 2;
    (BlockReads(calls, h, buf, mid) ? good : bad) = mid;
  }
  return (good + 1) * kRawProbeBytes;
}

// The device's length (RawDeviceBytes): asked, else probed.
Result<uint64_t> DeviceLength(RawDeviceCalls& calls, intptr_t h, const std::string& device) {
  Result<uint64_t> bytes = calls.Length(h);
  if (bytes.ok()) return bytes;
  const uint64_t probed = ProbedLength(calls, h);
  if (probed > 0) return probed;
  return Named(device, "cannot ask its length", bytes.status());
}

}  // namespace

bool IsRawDevicePath(const std::string& path) {
  return path.size() > 4 && (path.rfind("\\\\.\\", 0) == 0 || path.rfind("//./", 0) == 0);
}

Result<uint64_t> RawDeviceBytes(RawDeviceCalls& calls, const std::string& device) {
  LC_ASSIGN_OR_RETURN(intptr_t h, OpenDevice(calls, device));
  Result<uint64_t> bytes = DeviceLength(calls, h, device);
  calls.Close(h);
  return bytes;
}

Result<std::string> RawDeviceSignature(RawDeviceCalls& calls, const std::string& device) {
  LC_ASSIGN_OR_RETURN(intptr_t h, OpenDevice(calls, device));
  Result<uint64_t> bytes = DeviceLength(calls, h, device);
  if (!bytes.ok()) {
    calls.Close(h);
    return bytes.status();
  }
  // Whole sectors: a device shorter than the signatures' bytes is read
  // whole (its length is a multiple of its sector).
  const size_t len = static_cast<size_t>(std::min<uint64_t>(*bytes, kSignatureBytes));
  std::vector<unsigned char> data(len);
  Result<size_t> got = len == 0 ? Result<size_t>(size_t{0}) : calls.ReadAt(h, data.data(), len, 0);
  calls.Close(h);
  if (!got.ok()) return Named(device, "cannot read its first bytes", got.status());
  return SignatureOf(data.data(), *got);
}

}  // namespace loadcell
