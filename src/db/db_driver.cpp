#include "db/db_driver.h"

namespace loadcell {

Status DbError::ToStatus() const {
  switch (cls) {
    case DbErrorClass::kNone:
      return Status::Ok();
    case DbErrorClass::kReconnect:
      return Status(StatusCode::kUnavailable, message);
    default:
      return Status(StatusCode::kIoError, message);
  }
}

}  // namespace loadcell
