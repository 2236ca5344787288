// device-reads (docs/validity.md): the bytes the block devices under the
// files read over the run against the bytes the run's buffered reads asked
// for; what the device did not read came from the page cache.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckDeviceReads(const CheckInput& in) {
  constexpr const char* kId = "device-reads";
  if (!AnyBufferedTarget(in, /*writes=*/false) || in.workload.io_bytes_read == 0) {
    return std::nullopt;
  }
  if (in.host.devices.empty()) return NoDeviceCounters(kId, in);
  uint64_t device_read = 0;
  for (const DeviceWindow& d : in.host.devices) device_read += d.read_bytes;
  const double asked = static_cast<double>(in.workload.io_bytes_read);
  const double fraction = static_cast<double>(device_read) / asked;
  std::vector<CheckFigure> figures = {{"bytes_read", asked},
                                      {"device_read_bytes", static_cast<double>(device_read)},
                                      {"device_read_fraction", fraction}};
  const std::string seen = fmt::format("the device ({}) read {} of the {} the run read ({:.1f}%)",
                                       DevicesText(in.host.devices), BytesText(device_read),
                                       BytesText(in.workload.io_bytes_read), fraction * 100);
  if (fraction >= kDeviceReadFraction) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    ok.seen = seen;  // which device was counted
    return ok;
  }
  return Found(kId, CheckLevel::kInvalid, seen + ": the rest came from the page cache",
               fmt::format("use {}, or a {} well above memory", in.workload.option_names.direct,
                           in.workload.option_names.file_set_size),
               std::move(figures));
}

}  // namespace loadcell::validity
