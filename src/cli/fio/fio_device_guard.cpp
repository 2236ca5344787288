#include "cli/fio/fio_device_guard.h"

#include "cli/fio/fio_plan.h"
#include "os/block_device.h"

namespace loadcell {

Status CheckFioDeviceWrite(const fio::FioJobSpec& spec, const std::string& path, bool changes,
                           bool allow_destructive) {
  if (!changes) return Status::Ok();
  const std::string where = FioWhere(spec, "filename");
  std::string mount;
  Result<bool> mounted = BlockDeviceMounted(path, &mount);
  if (!mounted.ok()) return Status::InvalidArgument(where + mounted.status().message());
  if (*mounted && !spec.allow_mounted_write) {
    return Status::InvalidArgument(where + path + " is mounted (" + mount +
                                   "): a job that writes to it would corrupt that file system; "
                                   "fio's allow_mounted_write=1 allows it");
  }
  Result<std::string> signature = BlockDeviceSignature(path);
  if (!signature.ok()) return Status::InvalidArgument(where + signature.status().message());
  if (!signature->empty() && !allow_destructive) {
    return Status::InvalidArgument(where + path + " holds " + *signature +
                                   ": a job that writes to it destroys that; loadcell writes to "
                                   "such a device only with --allow-destructive");
  }
  return Status::Ok();
}

}  // namespace loadcell
