#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <fstream>
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

Status SetCurrentThreadIoPriority(int level) {
  if (level < 1 || level > 3) return PosixError("I/O priority " + std::to_string(level), EINVAL);
  if (level == 3) return Status::Ok();
#ifdef SYS_ioprio_set
  // <linux/ioprio.h>'s encoding: the class above bit 13, the level below.
  constexpr int kClassShift = 13;
  constexpr int kClassBestEffort = 2;
  constexpr int kClassIdle = 3;
  constexpr int kWhoProcess = 1;  // with 0: the calling thread
  const int value = level == 1 ? kClassIdle << kClassShift : (kClassBestEffort << kClassShift) | 7;
  if (syscall(SYS_ioprio_set, kWhoProcess, 0, value) != 0) {
    return PosixError("ioprio_set", errno);
  }
  return Status::Ok();
#else
  return Status::Unimplemented("this system has no ioprio_set");
#endif
}

bool ThreadIoPrioritySupported() {
#ifdef SYS_ioprio_set
  return true;
#else
  return false;
#endif
}

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

int64_t ThreadRunWaitNs() {
  // "<on CPU ns> <waiting on a run queue ns> <time slices>".
  std::ifstream in("/proc/thread-self/schedstat");
  uint64_t on_cpu = 0;
  uint64_t waited = 0;
  if (!(in >> on_cpu >> waited)) return -1;
  return static_cast<int64_t>(waited);
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
