#include "os/file_space.h"

namespace loadcell {

bool CanPunchHoles() { return false; }

Status PunchHole(int, uint64_t, uint64_t) {
  return Status::Unimplemented("punching a hole in a file is not supported on Windows");
}

Status ReserveSpace(int, SpaceReservation how, uint64_t) {
  // fio's native mode falls back to none where there is no such call.
  if (how == SpaceReservation::kNative) return Status::Ok();
  return Status::Unimplemented("fallocate=posix and fallocate=keep are not supported on Windows");
}

}  // namespace loadcell
