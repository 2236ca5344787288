// other-io (docs/validity.md): other processes' reads and writes on the
// block devices under the files over the run: the devices' counters minus
// loadcell's own device I/O (Linux's task I/O accounting), the writes also
// less what the page cache flushed of earlier dirty pages (anyone's, ours
// from a prepare included). A device shared with another load measures
// both.

#include <fmt/format.h>

#include "validity/check.h"
#include "validity/thresholds.h"

namespace loadcell::validity {
namespace {

uint64_t Excess(uint64_t seen, uint64_t explained) {
  return seen > explained ? seen - explained : 0;
}

}  // namespace

std::optional<CheckOutcome> CheckOtherIo(const CheckInput& in) {
  constexpr const char* kId = "other-io";
  bool files = false;
  for (const IoTargetFacts& t : in.workload.io) files = files || !t.null_engine;
  if (!files) return std::nullopt;
  const HostWindow& w = in.host.window;
  if (!w.known) return NotChecked(kId, "the run's start was not seen");
  if (in.host.devices.empty()) return NoDeviceCounters(kId, in);
  if (!w.process_io_known) {
    return NotChecked(kId, "the system does not state a process' own device I/O (/proc/self/io)");
  }
  uint64_t device_read = 0;
  uint64_t device_written = 0;
  for (const DeviceWindow& d : in.host.devices) {
    device_read += d.read_bytes;
    device_written += d.written_bytes;
  }
  const uint64_t other_read = Excess(device_read, w.process_read_bytes);
  const uint64_t other_written =
      Excess(Excess(device_written, w.process_written_bytes), w.dirty_flushed_bytes);
  const uint64_t own = w.process_read_bytes + w.process_written_bytes;
  std::vector<CheckFigure> figures = {
      {"device_read_bytes", static_cast<double>(device_read)},
      {"device_written_bytes", static_cast<double>(device_written)},
      {"own_read_bytes", static_cast<double>(w.process_read_bytes)},
      {"own_written_bytes", static_cast<double>(w.process_written_bytes)},
      {"dirty_flushed_bytes", static_cast<double>(w.dirty_flushed_bytes)},
      {"other_read_bytes", static_cast<double>(other_read)},
      {"other_written_bytes", static_cast<double>(other_written)}};
  const uint64_t other = other_read + other_written;
  if (other <= kOtherIoFloorBytes ||
      static_cast<double>(other) <= kOtherIoFraction * static_cast<double>(own)) {
    CheckOutcome ok = Passed(kId, std::move(figures));
    // Which device was counted, and what was seen there.
    ok.seen = fmt::format(
        "on the device ({}) over the run: the run's own {} read and {} "
        "written, others' {} read and {} written",
        DevicesText(in.host.devices), BytesText(w.process_read_bytes),
        BytesText(w.process_written_bytes), BytesText(other_read), BytesText(other_written));
    return ok;
  }
  return Found(
      kId, CheckLevel::kWarn,
      fmt::format("other processes read {} and wrote {} on the device ({}) over the run, "
                  "beside the run's own {} read and {} written: the device was shared",
                  BytesText(other_read), BytesText(other_written), DevicesText(in.host.devices),
                  BytesText(w.process_read_bytes), BytesText(w.process_written_bytes)),
      "run when the device is idle (iotop or pidstat -d show who else uses it), and "
      "repeat the run",
      std::move(figures));
}

}  // namespace loadcell::validity
