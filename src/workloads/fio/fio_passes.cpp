#include "workloads/fio/fio_passes.h"

namespace loadcell {

bool FioPasses::Done() const {
  if (r_.time_based) return false;
  return (r_.pass_bytes != 0 && bytes_ >= r_.pass_bytes * r_.loops) ||
         (r_.number_ios != 0 && ios_ >= r_.number_ios * r_.loops);
}

bool FioPasses::Another() const {
  if (r_.time_based) return true;
  if (Done()) return false;
  if (begun_ < r_.loops) return true;
  // After loops=, fio goes on only while the job's bytes fall short of one
  // pass's (io_size, else size) by at least its largest request, and only
  // with io_size given or files opened again to verify (else files done end
  // the job).
  const uint64_t done = bytes_ + verified_;
  return (r_.io_size_given || r_.verifies) && done < r_.pass_bytes &&
         r_.pass_bytes - done >= largest_;
}

}  // namespace loadcell
