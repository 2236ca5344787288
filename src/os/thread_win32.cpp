#include <fmt/format.h>
#include <process.h>
#include <windows.h>

#include <cerrno>
#include <memory>

#include "os/thread.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

struct Start {
  ThreadEntryFn entry;
  void* arg;
};

unsigned __stdcall Trampoline(void* p) {
  std::unique_ptr<Start> start(static_cast<Start*>(p));
  start->entry(start->arg);
  return 0;
}

// FILETIME counts 100 ns ticks.
double Seconds(const FILETIME& ft) {
  const uint64_t ticks = (static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
  return static_cast<double>(ticks) / 1e7;
}

}  // namespace

Result<ThreadHandle> StartThread(size_t stack_bytes, ThreadEntryFn entry, void* arg) {
  auto start = std::make_unique<Start>(Start{entry, arg});
  // The stack size is a reservation: pages are committed as the stack grows.
  const uintptr_t handle =
      _beginthreadex(nullptr, static_cast<unsigned>(stack_bytes), Trampoline, start.get(),
                     stack_bytes > 0 ? STACK_SIZE_PARAM_IS_A_RESERVATION : 0, nullptr);
  if (handle == 0) return PosixError("_beginthreadex", errno);
  (void)start.release();  // the thread owns it now
  return ThreadHandle{handle};
}

void JoinThread(ThreadHandle thread) {
  HANDLE h = reinterpret_cast<HANDLE>(thread.native);
  WaitForSingleObject(h, INFINITE);
  CloseHandle(h);
}

void DetachThread(ThreadHandle thread) { CloseHandle(reinterpret_cast<HANDLE>(thread.native)); }

void UseFineTimerSlack() {}

// CPU numbers count across processor groups: group 0's CPUs first. A thread
// runs in one group, so every CPU asked must be in the same one.
Status SetCurrentThreadIoPriority(int level) {
  if (level == 3) return Status::Ok();
  return Status::Unimplemented(
      "an I/O priority below normal is a hint on each file handle on Windows "
      "(FileIoPriorityHintInfo), which loadcell's engines do not set yet");
}

bool ThreadIoPrioritySupported() { return false; }

Status SetCurrentThreadCpus(const std::vector<int>& cpus) {
  if (cpus.empty()) return Status::InvalidArgument("no CPU given");
  GROUP_AFFINITY affinity{};
  bool placed = false;
  for (int c : cpus) {
    if (c < 0) return Status::InvalidArgument(fmt::format("CPU {}: not a CPU number", c));
    int first = 0;  // the number of the group's first CPU
    WORD group = 0;
    const WORD groups = GetActiveProcessorGroupCount();
    while (group < groups && c >= first + static_cast<int>(GetActiveProcessorCount(group))) {
      first += static_cast<int>(GetActiveProcessorCount(group));
      ++group;
    }
    if (group == groups) {
      return Status::InvalidArgument(fmt::format("CPU {}: this machine has {} CPUs", c, first));
    }
    if (placed && group != affinity.Group) {
      return Status::InvalidArgument(
          fmt::format("CPU {} is in processor group {}, not {}: a thread runs in one group", c,
                      group, affinity.Group));
    }
    affinity.Group = group;
    affinity.Mask |= KAFFINITY{1} << (c - first);
    placed = true;
  }
  if (SetThreadGroupAffinity(GetCurrentThread(), &affinity, nullptr) == 0) {
    return Win32Error("SetThreadGroupAffinity", GetLastError());
  }
  return Status::Ok();
}

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  DWORD_PTR process = 0, system = 0;
  if (GetActiveProcessorGroupCount() != 1 ||
      GetProcessAffinityMask(GetCurrentProcess(), &process, &system) == 0) {
    return cpus;
  }
  for (int c = 0; c < 64; ++c) {
    if ((process >> c) & 1) cpus.push_back(c);
  }
  return cpus;
}

uint64_t ThreadCpuNs() {
  FILETIME created, exited, kernel, user_time;
  if (GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user_time) == 0) return 0;
  const auto ticks = [](const FILETIME& ft) {
    return (static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime;
  };
  return (ticks(kernel) + ticks(user_time)) * 100;  // 100 ns units
}

int64_t ThreadRunWaitNs() { return -1; }

ThreadUsage CurrentThreadUsage() {
  ThreadUsage u;
  FILETIME created, exited, kernel, user_time;
  if (GetThreadTimes(GetCurrentThread(), &created, &exited, &kernel, &user_time) == 0) return u;
  const auto ns = [](const FILETIME& ft) {
    return ((static_cast<uint64_t>(ft.dwHighDateTime) << 32) | ft.dwLowDateTime) * 100;
  };
  u.user_ns = ns(user_time);
  u.sys_ns = ns(kernel);
  return u;
}

void ProcessCpuSeconds(double* user, double* sys) {
  FILETIME created, exited, kernel, user_time;
  if (GetProcessTimes(GetCurrentProcess(), &created, &exited, &kernel, &user_time) == 0) {
    *user = *sys = 0;
    return;
  }
  *user = Seconds(user_time);
  *sys = Seconds(kernel);
}

}  // namespace loadcell
