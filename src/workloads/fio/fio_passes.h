#pragma once
// fio's passes over a job's files, for a pattern that ends its own pass (a
// sequential pattern with holes, rw=MODE:N with N > 0: FioPattern::Holed):
// when the job's I/O is done and whether a new pass begins, as fio 3.33
// decides with loops=, io_size, number_ios and time_based. Pure counting,
// no I/O.

#include <cstdint>

namespace loadcell {

struct FioPassRule {
  bool on = false;
  // io_size, else size (the regions' bytes): the job issues requests until
  // `loops` times this many bytes were issued (the last request whole, as
  // fio issues it), passes cut short included; 0: no bound (time_based).
  uint64_t pass_bytes = 0;
  // number_ios: the job ends once it issued `loops` times this many; 0:
  // none.
  uint64_t number_ios = 0;
  uint32_t loops = 1;
  bool io_size_given = false;
  bool time_based = false;  // a new pass at each end until the time is up
  // The job verifies its writes: fio opens the files again to verify each
  // pass, so files done do not end the job, and the verification's reads
  // count toward its bytes when a new pass is decided (fio 3.33: rw=write:8k, bs=4k, size=64k with
  // verify writes and verifies two passes of 6).
  bool verifies = false;
};

class FioPasses {
 public:
  // `largest`: the job's largest request (after loops=, fio begins no pass
  // for fewer bytes than it).
  FioPasses(const FioPassRule& rule, uint32_t largest) : r_(rule), largest_(largest) {}

  bool On() const { return r_.on; }
  // The job's bytes or I/Os are done: no request follows.
  bool Done() const;
  // Whether a new pass begins once this one ended because the pattern had
  // no I/O left in it (every file done).
  bool Another() const;
  void Begin() { ++begun_; }
  void Issued(uint64_t bytes) {
    bytes_ += bytes;
    ++ios_;
  }
  void Verified(uint64_t bytes) { verified_ += bytes; }

 private:
  FioPassRule r_;
  uint32_t largest_;
  uint64_t begun_ = 1;
  uint64_t bytes_ = 0;     // issued (fio's bound on the passes' I/O)
  uint64_t verified_ = 0;  // read back by verify (counted when a pass may follow)
  uint64_t ios_ = 0;
};

}  // namespace loadcell
