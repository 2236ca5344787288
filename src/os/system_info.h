#pragma once
// Facts about the machine for the manifest: CPU model and count, memory,
// kernel. Reads /proc and uname; never fails (unknown facts stay empty).

#include <cstdint>
#include <string>

namespace loadcell {

struct SystemInfo {
  std::string cpu_model;
  int cpus_online = 0;
  uint64_t memory_bytes = 0;
  std::string kernel;  // uname -sr
  std::string clock_source = "CLOCK_MONOTONIC";
};

SystemInfo ReadSystemInfo();

// True when standard error is a terminal (progress lines may redraw).
bool StderrIsTerminal();

}  // namespace loadcell
