#pragma once
// The checks fio_plan makes of a job before it runs: what loadcell cannot
// run yet, the trim modes, verify and zoned_abs zones. Each refusal is one
// line naming the option's file and line (InvalidArgument, exit 2).

#include <cstdint>
#include <string>

#include "core/status.h"
#include "fio/fio_job_spec.h"
#include "workloads/fio/fio_pattern.h"
#include "workloads/fio/fio_verify.h"

namespace loadcell {

// InvalidArgument "FILE:LINE: WHY", where `spec` was given `option`.
Status FioRefuse(const fio::FioJobSpec& spec, const std::string& option, const std::string& why);

// Whether the mode trims (trim, randtrim, trimwrite, randtrimwrite) and
// whether it writes (every mode but read, randread, trim and randtrim).
bool FioRwTrims(fio::FioRwMode rw);
bool FioRwWrites(fio::FioRwMode rw);

// What loadcell cannot run (yet): a filesize range with a random
// distribution other than uniform; trims where files cannot have holes
// punched (but with the null engine), with verify, or trimwrite under a
// rate.
Status CheckFioRunnable(const fio::FioJobSpec& spec);

FioVerifyKind FioVerifyKindOf(fio::FioVerify v);

// The verify options a job cannot run with, given its pattern `p`.
Status CheckFioVerify(const fio::FioJobSpec& spec, const FioPatternSettings& p);

// zoned_abs zones that add up to more than `region`, the bytes the job
// does I/O on in each file.
Status CheckFioAbsoluteZones(const fio::FioJobSpec& spec, uint64_t region);

}  // namespace loadcell
