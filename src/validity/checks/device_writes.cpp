// device-writes (docs/validity.md): the bytes the block devices under the
// files wrote over the run against the bytes the run wrote; what the device
// did not write was, at the end, still in the page cache (Dirty, Writeback)
// or absorbed by it (a block written twice before it was flushed).

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {

std::optional<CheckOutcome> CheckDeviceWrites(const CheckInput& in) {
  constexpr const char* kId = "device-writes";
  if (!AnyBufferedTarget(in, /*writes=*/true) || in.workload.io_bytes_written == 0) {
    return std::nullopt;
  }
  if (in.host.devices.empty()) return NoDeviceCounters(kId, in);
  uint64_t device_written = 0;
  for (const DeviceWindow& d : in.host.devices) device_written += d.written_bytes;
  const double asked = static_cast<double>(in.workload.io_bytes_written);
  const double fraction = static_cast<double>(device_written) / asked;
  const uint64_t pending = in.host.dirty_bytes_end + in.host.writeback_bytes_end;
  std::vector<CheckFigure> figures = {{"bytes_written", asked},
                                      {"device_written_bytes", static_cast<double>(device_written)},
                                      {"device_written_fraction", fraction}};
  if (in.host.dirty_known) {
    figures.push_back({"dirty_bytes_end", static_cast<double>(in.host.dirty_bytes_end)});
    figures.push_back({"writeback_bytes_end", static_cast<double>(in.host.writeback_bytes_end)});
  }
  const std::string device_wrote = fmt::format(
      "the device ({}) wrote {} of the {} the run wrote ({:.1f}%)", DevicesText(in.host.devices),
      BytesText(device_written), BytesText(in.workload.io_bytes_written), fraction * 100);
  if (fraction >= kDeviceWriteFraction) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    ok.seen = device_wrote;  // which device was counted
    return ok;
  }
  const std::string dirty =
      in.host.dirty_known
          ? fmt::format("; {} of the host's page cache was dirty or under writeback at the end",
                        BytesText(pending))
          : "";
  return Found(kId, CheckLevel::kWarn,
               device_wrote + ": the rest was not on the device when counted" + dirty,
               fmt::format("add {} to count writes the device made",
                           OptionsText({in.workload.option_names.flush_every,
                                        in.workload.option_names.write_through,
                                        in.workload.option_names.direct})),
               std::move(figures));
}

}  // namespace loadcell::validity
