#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <climits>
#include <memory>

#include "os/thread.h"

namespace loadcell {
namespace {

struct Start {
  ThreadEntryFn entry;
  void* arg;
};

void* Trampoline(void* p) {
  std::unique_ptr<Start> start(static_cast<Start*>(p));
  start->entry(start->arg);
  return nullptr;
}

double Seconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

Result<ThreadHandle> StartThread(size_t stack_bytes, ThreadEntryFn entry, void* arg) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (stack_bytes > 0) {
    pthread_attr_setstacksize(&attr, std::max<size_t>(stack_bytes, PTHREAD_STACK_MIN));
  }
  auto start = std::make_unique<Start>(Start{entry, arg});
  pthread_t thread;
  const int rc = pthread_create(&thread, &attr, Trampoline, start.get());
  pthread_attr_destroy(&attr);
  if (rc != 0) return PosixError("pthread_create", rc);
  (void)start.release();  // the thread owns it now
  return ThreadHandle{static_cast<uintptr_t>(thread)};
}

void JoinThread(ThreadHandle thread) {
  pthread_join(static_cast<pthread_t>(thread.native), nullptr);
}

void DetachThread(ThreadHandle thread) { pthread_detach(static_cast<pthread_t>(thread.native)); }

void UseFineTimerSlack() { prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0); }

Status SetCurrentThreadCpus(const std::vector<int>& cpus) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) {
    if (c < 0 || c >= CPU_SETSIZE) return PosixError("CPU " + std::to_string(c), EINVAL);
    CPU_SET(c, &set);
  }
  if (sched_setaffinity(0, sizeof(set), &set) != 0) return PosixError("sched_setaffinity", errno);
  return Status::Ok();
}

std::vector<int> AllowedCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

uint64_t ThreadCpuNs() {
  timespec ts{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

ThreadUsage CurrentThreadUsage() {
  ThreadUsage u;
#ifdef RUSAGE_THREAD
  rusage ru{};
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return u;
  const auto ns = [](const timeval& tv) {
    return static_cast<uint64_t>(tv.tv_sec) * 1000000000ULL +
           static_cast<uint64_t>(tv.tv_usec) * 1000;
  };
  u.user_ns = ns(ru.ru_utime);
  u.sys_ns = ns(ru.ru_stime);
  u.context_switches = static_cast<uint64_t>(ru.ru_nvcsw + ru.ru_nivcsw);
  u.major_faults = static_cast<uint64_t>(ru.ru_majflt);
  u.minor_faults = static_cast<uint64_t>(ru.ru_minflt);
#endif
  return u;
}

void ProcessCpuSeconds(double* user, double* sys) {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  *user = Seconds(ru.ru_utime);
  *sys = Seconds(ru.ru_stime);
}

}  // namespace loadcell
