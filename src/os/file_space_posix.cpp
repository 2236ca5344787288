#include <fcntl.h>

#include <cerrno>

#include "os/file_space.h"

namespace loadcell {

#if defined(__linux__)

bool CanPunchHoles() { return true; }

Status PunchHole(int fd, uint64_t offset, uint64_t length) {
  if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(offset),
                static_cast<off_t>(length)) != 0) {
    return PosixError("fallocate(PUNCH_HOLE)", errno);
  }
  return Status::Ok();
}

Status ReserveSpace(int fd, SpaceReservation how, uint64_t size) {
  if (size == 0) return Status::Ok();
  const auto len = static_cast<off_t>(size);
  switch (how) {
    case SpaceReservation::kPosix: {
      const int rc = posix_fallocate(fd, 0, len);
      return rc == 0 ? Status::Ok() : PosixError("posix_fallocate", rc);
    }
    case SpaceReservation::kKeepSize:
      if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, len) != 0) {
        return PosixError("fallocate(KEEP_SIZE)", errno);
      }
      return Status::Ok();
    case SpaceReservation::kNative:
      if (fallocate(fd, 0, 0, len) != 0 && errno != EOPNOTSUPP && errno != ENOSYS) {
        return PosixError("fallocate", errno);
      }
      return Status::Ok();
  }
  return Status::Ok();
}

#else

bool CanPunchHoles() { return false; }

Status PunchHole(int, uint64_t, uint64_t) {
  return Status::Unimplemented("punching a hole needs Linux's fallocate");
}

Status ReserveSpace(int fd, SpaceReservation how, uint64_t size) {
  if (how == SpaceReservation::kNative) return Status::Ok();
  if (how == SpaceReservation::kPosix) {
    const int rc = posix_fallocate(fd, 0, static_cast<off_t>(size));
    return rc == 0 ? Status::Ok() : PosixError("posix_fallocate", rc);
  }
  return Status::Unimplemented("fallocate=keep needs Linux's fallocate");
}

#endif

}  // namespace loadcell
