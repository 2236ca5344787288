#include "workloads/fio/fio_job.h"

#include "os/thread.h"
#include "workloads/fio/fio_worker.h"

namespace loadcell {

FioJobWorkload::FioJobWorkload(FioJobSettings s, FileSystem& fs) : s_(std::move(s)), fs_(fs) {}

FioJobWorkload::~FioJobWorkload() { (void)Done(); }

Result<std::unique_ptr<Worker>> FioJobWorkload::NewWorker(const ThreadContext& ctx) {
  // NewWorker runs on the worker's own thread.
  if (Status prio = SetCurrentThreadIoPriority(s_.io_priority); !prio.ok()) {
    return Status(prio.code(), "setting the thread's I/O priority: " + prio.message(), prio.err());
  }
  LC_ASSIGN_OR_RETURN(std::unique_ptr<IoEngine> engine, MakeIoEngine(s_.engine, fs_));
  // One thread per job instance: its log is the job's.
  if (s_.logs.any() && io_log_ == nullptr) io_log_ = std::make_unique<FioLogRecorder>(s_.logs);
  auto w =
      std::make_unique<FioWorker>(s_, open_, std::move(engine), ctx, io_log_.get(), &ran_on_cpus_);
  LC_RETURN_IF_ERROR(w->Open());
  return std::unique_ptr<Worker>(std::move(w));
}

}  // namespace loadcell
