#pragma once
// Facts about the machine for the manifest: CPU model and count, memory,
// kernel (Windows: its version); a few small services of the platform.
// One implementation per platform (system_info_posix.cpp: /proc, uname;
// system_info_win32.cpp). Never fails: unknown facts stay empty.

#include <cstdint>
#include <ctime>
#include <string>

namespace loadcell {

struct SystemInfo {
  std::string cpu_model;
  int cpus_online = 0;
  uint64_t memory_bytes = 0;
  std::string kernel;                            // uname -sr; on Windows "Windows 10.0.19045"
  std::string clock_source = "CLOCK_MONOTONIC";  // Windows: "QueryPerformanceCounter"
};

SystemInfo ReadSystemInfo();

// True when standard error is a terminal (progress lines may redraw).
bool StderrIsTerminal();

// The size of one core's L2 cache in bytes; 0 when the system does not say.
uint64_t ReadL2CacheBytes();

// `t` as local time (thread-safe).
std::tm LocalTime(std::time_t t);

// Makes a new, empty folder under the system's temporary directory, named
// `prefix` and a unique suffix; returns its path, empty on failure.
std::string MakeTempDir(const std::string& prefix);

// This process's id (for lock files and probe names).
int CurrentProcessId();

// The name of the user this process runs as ("uid N" / "" when unknown).
std::string CurrentUserName();

}  // namespace loadcell
