#pragma once
// Native threads with a chosen stack size (std::thread cannot set one), and
// the few per-thread and per-process facts the runner and workloads need.
// One implementation per platform (thread_posix.cpp, thread_win32.cpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell {

struct ThreadHandle {
  uintptr_t native = 0;
};

using ThreadEntryFn = void (*)(void* arg);

// Starts entry(arg) on a new thread; stack_bytes 0 is the system's default,
// a smaller size than the system allows is raised to its minimum. Each
// started thread is joined or detached exactly once.
Result<ThreadHandle> StartThread(size_t stack_bytes, ThreadEntryFn entry, void* arg);
void JoinThread(ThreadHandle thread);
void DetachThread(ThreadHandle thread);

// Asks for the finest timer slack for the calling thread, so that a timed
// wait wakes on time (Linux: PR_SET_TIMERSLACK 1 ns; nothing elsewhere).
void UseFineTimerSlack();

// Confines the calling thread to `cpus` (numbers from 0). A CPU the machine
// lacks or a refusal is an error, with the system's reason. On Windows the
// CPUs are numbered across processor groups (group 0's first, then group
// 1's, ...) and must all be in one group.
Status SetCurrentThreadCpus(const std::vector<int>& cpus);

// DiskSpd's -I: the calling thread's I/O priority, 1 very low, 2 low, 3
// normal. Linux: ioprio_set for the thread (1: the idle class; 2: best
// effort at its lowest level, 7; 3: changes nothing). Windows: Unimplemented
// (DiskSpd sets a priority hint on each file handle, which loadcell's
// engines do not yet). An error carries the system's reason.
Status SetCurrentThreadIoPriority(int level);
// Whether SetCurrentThreadIoPriority can lower the priority here.
bool ThreadIoPrioritySupported();

// The CPUs this process may run on, in increasing order (Linux:
// sched_getaffinity; Windows: GetProcessAffinityMask, on a machine with one
// processor group); empty when the system does not say.
std::vector<int> AllowedCpus();

// The CPU time the process has used so far, in seconds.
void ProcessCpuSeconds(double* user, double* sys);
// The CPU time (user and system) the calling thread has used so far, in
// nanoseconds; 0 when the system cannot tell.
uint64_t ThreadCpuNs();
// The time the calling thread has spent ready to run but waiting for a CPU
// so far, in nanoseconds (Linux: /proc/thread-self/schedstat's run delay);
// -1 when the system does not tell (Windows, a kernel without it).
int64_t ThreadRunWaitNs();

// What the calling thread has used so far: CPU time split into user and
// system, context switches (voluntary and not), page faults that read the
// disk (major) and those that did not (minor). Linux: getrusage
// (RUSAGE_THREAD); Windows: GetThreadTimes (switches and faults 0: not
// kept per thread).
struct ThreadUsage {
  uint64_t user_ns = 0;
  uint64_t sys_ns = 0;
  uint64_t context_switches = 0;
  uint64_t major_faults = 0;
  uint64_t minor_faults = 0;
};
ThreadUsage CurrentThreadUsage();

}  // namespace loadcell
