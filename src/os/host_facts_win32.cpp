// The host's facts on Windows: the CPUs' times (GetSystemTimes; per CPU
// NtQuerySystemInformation's processor times), a job
// object's memory limit, a file's allocated ranges, the volume's counters,
// block sizes and write cache (IOCTLs on the volume's handle), the CPUs'
// frequencies (CallNtPowerInformation) and the hypervisor (CPUID). What a
// call does not give (Wine gives no volume handle; FAT has no allocated
// ranges) is left unknown, and the check that needs it says "not checked".

#include <windows.h>
// After windows.h: winioctl.h (the IOCTLs and their structures) and
// powrprof.h (CallNtPowerInformation) need its types.
#include <cpuid.h>
#include <powrprof.h>
#include <winioctl.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "os/host_facts.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

uint64_t Ticks(const FILETIME& t) {
  return (uint64_t{t.dwHighDateTime} << 32) | uint64_t{t.dwLowDateTime};
}

// A handle to the volume that holds `path` ("\\.\C:"), opened for IOCTLs
// alone (no access asked, so no privilege is needed), and its name for
// messages ("C:"); INVALID_HANDLE_VALUE when there is none.
HANDLE OpenVolumeOf(const std::string& path, std::string* name) {
  std::wstring root(MAX_PATH + 1, L'\0');
  if (GetVolumePathNameW(WidePath(path).c_str(), root.data(), static_cast<DWORD>(root.size())) ==
      0) {
    return INVALID_HANDLE_VALUE;
  }
  root.resize(wcslen(root.c_str()));
  // "C:\" names the volume \\.\C:; a mounted folder or a share has none.
  if (root.size() < 2 || root[1] != L':') return INVALID_HANDLE_VALUE;
  const std::wstring drive = root.substr(0, 2);
  *name = Narrow(drive);
  return CreateFileW((L"\\\\.\\" + drive).c_str(), 0, kShareAll, nullptr, OPEN_EXISTING, 0,
                     nullptr);
}

// Processor information as CallNtPowerInformation gives it (the SDK's
// PROCESSOR_POWER_INFORMATION, which mingw-w64's headers leave out).
struct ProcessorPower {
  ULONG number;
  ULONG max_mhz;
  ULONG current_mhz;
  ULONG mhz_limit;
  ULONG max_idle_state;
  ULONG current_idle_state;
};

// The hypervisor's own name in CPUID leaf 0x40000000, as the user knows it.
std::string HypervisorName(const char* vendor) {
  static const std::pair<const char*, const char*> kNames[] = {
      {"KVMKVMKVM", "KVM"},          {"Microsoft Hv", "Hyper-V"},    {"VMwareVMware", "VMware"},
      {"XenVMMXenVMM", "Xen"},       {"VBoxVBoxVBox", "VirtualBox"}, {"TCGTCGTCGTCG", "QEMU"},
      {" lrpepyh  vr", "Parallels"},
  };
  for (const auto& [id, name] : kNames) {
    if (std::strcmp(vendor, id) == 0) return name;
  }
  return "the CPU's hypervisor flag";
}

}  // namespace

HostCpuTimes ReadHostCpuTimes(const std::string& /*proc_stat*/) {
  HostCpuTimes t;
  FILETIME idle;
  FILETIME kernel;
  FILETIME user;
  if (GetSystemTimes(&idle, &kernel, &user) == 0) return t;
  // The kernel time includes the idle time.
  t.total = Ticks(kernel) + Ticks(user);
  t.busy = t.total - std::min(t.total, Ticks(idle));
  t.known = true;
  return t;
}

uint64_t CgroupMemoryLimit(const std::string& /*proc_cgroup*/, const std::string& /*cgroup_root*/) {
  // A job object's limit on this process (or on the job as a whole) is what
  // a cgroup's is on Linux.
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION job{};
  if (QueryInformationJobObject(nullptr, JobObjectExtendedLimitInformation, &job, sizeof(job),
                                nullptr) == 0) {
    return 0;
  }
  return JobMemoryLimit(job);
}

uint64_t JobMemoryLimit(const JOBOBJECT_EXTENDED_LIMIT_INFORMATION& job) {
  uint64_t limit = 0;
  const DWORD flags = job.BasicLimitInformation.LimitFlags;
  if ((flags & JOB_OBJECT_LIMIT_PROCESS_MEMORY) != 0) limit = job.ProcessMemoryLimit;
  if ((flags & JOB_OBJECT_LIMIT_JOB_MEMORY) != 0) {
    limit = limit == 0 ? job.JobMemoryLimit : std::min<uint64_t>(limit, job.JobMemoryLimit);
  }
  return limit;
}

Result<uint64_t> FileHoleBytes(const std::string& path) {
  HANDLE f = CreateFileW(WidePath(path).c_str(), GENERIC_READ, kShareAll, nullptr, OPEN_EXISTING,
                         FILE_ATTRIBUTE_NORMAL, nullptr);
  if (f == INVALID_HANDLE_VALUE) return Win32Error(path, GetLastError());
  LARGE_INTEGER size{};
  if (GetFileSizeEx(f, &size) == 0) {
    const DWORD e = GetLastError();
    CloseHandle(f);
    return Win32Error(path, e);
  }
  // The allocated ranges from the start, a batch at a time; a file that is
  // not sparse is one range.
  uint64_t allocated = 0;
  FILE_ALLOCATED_RANGE_BUFFER query{};
  query.FileOffset.QuadPart = 0;
  query.Length.QuadPart = size.QuadPart;
  std::vector<FILE_ALLOCATED_RANGE_BUFFER> ranges(64);
  for (;;) {
    DWORD got = 0;
    const BOOL ok =
        DeviceIoControl(f, FSCTL_QUERY_ALLOCATED_RANGES, &query, sizeof(query), ranges.data(),
                        static_cast<DWORD>(ranges.size() * sizeof(ranges[0])), &got, nullptr);
    const DWORD e = ok != 0 ? ERROR_SUCCESS : GetLastError();
    if (e != ERROR_SUCCESS && e != ERROR_MORE_DATA) {
      CloseHandle(f);
      return Status::Unimplemented(path + ": the file system gives no allocated ranges (" +
                                   Win32ErrorText(e) + ")");
    }
    const size_t n = got / sizeof(ranges[0]);
    for (size_t i = 0; i < n; ++i) allocated += static_cast<uint64_t>(ranges[i].Length.QuadPart);
    if (e == ERROR_SUCCESS || n == 0) break;
    const FILE_ALLOCATED_RANGE_BUFFER& last = ranges[n - 1];
    query.FileOffset.QuadPart = last.FileOffset.QuadPart + last.Length.QuadPart;
    query.Length.QuadPart = size.QuadPart - query.FileOffset.QuadPart;
  }
  CloseHandle(f);
  const auto bytes = static_cast<uint64_t>(size.QuadPart);
  return bytes - std::min(bytes, allocated);
}

DeviceCounters ReadDeviceCounters(const std::string& path) {
  DeviceCounters c;
  HANDLE v = OpenVolumeOf(path, &c.device);
  if (v == INVALID_HANDLE_VALUE) {
    const DWORD error = GetLastError();
    c.unknown = c.device.empty()
                    ? "no volume with a drive letter behind it (a mounted folder or a share)"
                    : "cannot open volume " + c.device + ": " + Win32ErrorText(error);
    return c;
  }
  DISK_PERFORMANCE perf{};
  DWORD got = 0;
  if (DeviceIoControl(v, IOCTL_DISK_PERFORMANCE, nullptr, 0, &perf, sizeof(perf), &got, nullptr) !=
      0) {
    c.read_bytes = static_cast<uint64_t>(perf.BytesRead.QuadPart);
    c.written_bytes = static_cast<uint64_t>(perf.BytesWritten.QuadPart);
    c.known = true;
  } else {
    const DWORD error = GetLastError();
    c.unknown = "volume " + c.device +
                " does not give its counters (IOCTL_DISK_PERFORMANCE: " + Win32ErrorText(error) +
                ")";
  }
  CloseHandle(v);
  return c;
}

// Windows has no /sys/class/block: the volume's own counters are read.
DeviceCounters DeviceCountersOf(const std::string& /*device*/, const std::string& /*class_block*/) {
  return {};
}

std::vector<std::string> LeafDevices(const std::string& /*device*/,
                                     const std::string& /*class_block*/) {
  return {};
}

std::vector<std::string> SlaveDevices(const std::string& /*device*/,
                                      const std::string& /*class_block*/) {
  return {};
}

// Windows states no dirty page-cache bytes.
DirtyMemory ReadDirtyMemory(const std::string& /*meminfo*/) { return {}; }

// Windows counts a process' I/O above the cache (GetProcessIoCounters), not
// what reached its disks.
ProcessIo ReadProcessIo(const std::string& /*proc_io*/) { return {}; }

BlockSizes DeviceBlockSizes(const std::string& path) {
  BlockSizes b;
  std::string name;
  HANDLE v = OpenVolumeOf(path, &name);
  if (v != INVALID_HANDLE_VALUE) {
    STORAGE_PROPERTY_QUERY query{};
    query.PropertyId = StorageAccessAlignmentProperty;
    query.QueryType = PropertyStandardQuery;
    STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR alignment{};
    DWORD got = 0;
    if (DeviceIoControl(v, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof(query), &alignment,
                        sizeof(alignment), &got, nullptr) != 0) {
      b.logical = alignment.BytesPerLogicalSector;
      b.physical = alignment.BytesPerPhysicalSector;
    }
    CloseHandle(v);
  }
  if (b.logical == 0) {
    // The volume's sector: its logical block size (the physical one unknown).
    std::wstring root(MAX_PATH + 1, L'\0');
    DWORD sectors_per_cluster = 0;
    DWORD sector = 0;
    DWORD free_clusters = 0;
    DWORD clusters = 0;
    if (GetVolumePathNameW(WidePath(path).c_str(), root.data(), static_cast<DWORD>(root.size())) !=
            0 &&
        GetDiskFreeSpaceW(root.c_str(), &sectors_per_cluster, &sector, &free_clusters, &clusters) !=
            0) {
      b.logical = sector;
    }
  }
  return b;
}

CpuFrequencyFacts ReadCpuFrequencies(const std::vector<int>& cpus,
                                     const std::string& /*cpu_root*/) {
  CpuFrequencyFacts f;
  const DWORD count = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  if (count == 0) return f;
  std::vector<ProcessorPower> power(count);
  if (CallNtPowerInformation(ProcessorInformation, nullptr, 0, power.data(),
                             static_cast<ULONG>(power.size() * sizeof(power[0]))) != 0) {
    return f;
  }
  // Windows has no governor and counts no throttle events here.
  for (int cpu : cpus) {
    const bool known = cpu >= 0 && static_cast<DWORD>(cpu) < count;
    f.khz.push_back(known ? uint64_t{power[static_cast<size_t>(cpu)].current_mhz} * 1000 : 0);
  }
  return f;
}

std::string VirtualMachineName(const std::string& /*proc_cpuinfo*/,
                               const std::string& /*dmi_vendor*/) {
  unsigned int a = 0;
  unsigned int b = 0;
  unsigned int c = 0;
  unsigned int d = 0;
  if (__get_cpuid(1, &a, &b, &c, &d) == 0 || (c & (1U << 31)) == 0) return "";
  __cpuid(0x40000000, a, b, c, d);
  char vendor[13] = {};
  std::memcpy(vendor, &b, 4);
  std::memcpy(vendor + 4, &c, 4);
  std::memcpy(vendor + 8, &d, 4);
  return HypervisorName(vendor);
}

std::string DeviceWriteCacheMode(const std::string& path) {
  std::string name;
  HANDLE v = OpenVolumeOf(path, &name);
  if (v == INVALID_HANDLE_VALUE) return "";
  STORAGE_PROPERTY_QUERY query{};
  query.PropertyId = StorageDeviceWriteCacheProperty;
  query.QueryType = PropertyStandardQuery;
  STORAGE_WRITE_CACHE_PROPERTY cache{};
  DWORD got = 0;
  const BOOL ok = DeviceIoControl(v, IOCTL_STORAGE_QUERY_PROPERTY, &query, sizeof(query), &cache,
                                  sizeof(cache), &got, nullptr);
  CloseHandle(v);
  if (ok == 0 || cache.WriteCacheEnabled == WriteCacheEnableUnknown) return "";
  if (cache.WriteCacheEnabled == WriteCacheDisabled ||
      cache.WriteCacheType == WriteCacheTypeWriteThrough) {
    return "write through";
  }
  return "write back";
}

MountFacts ReadMountFacts(const std::string& /*path*/, const std::string& /*mountinfo*/) {
  return {};
}

namespace {

// ntdll's SYSTEM_PROCESSOR_PERFORMANCE_INFORMATION (information class 8),
// declared here with its documented layout; NtQuerySystemInformation is
// found in ntdll at run time, so nothing more is linked.
struct ProcessorTimes {
  LARGE_INTEGER idle;
  LARGE_INTEGER kernel;  // includes the idle time
  LARGE_INTEGER user;
  LARGE_INTEGER reserved1[2];
  ULONG reserved2;
};
constexpr ULONG kSystemProcessorPerformanceInformation = 8;
using NtQuerySystemInformationFn = LONG(WINAPI*)(ULONG, PVOID, ULONG, PULONG);

}  // namespace

std::vector<PerCpuTimes> ReadPerCpuTimes(const std::string& /*proc_stat*/) {
  // The processors of this process' group (up to 64): what
  // NtQuerySystemInformation reports without a group-aware call.
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll == nullptr) return {};
  const auto query = reinterpret_cast<NtQuerySystemInformationFn>(
      reinterpret_cast<void*>(GetProcAddress(ntdll, "NtQuerySystemInformation")));
  if (query == nullptr) return {};
  SYSTEM_INFO si{};
  GetSystemInfo(&si);
  const DWORD n = si.dwNumberOfProcessors;
  if (n == 0) return {};
  std::vector<ProcessorTimes> times(n);
  ULONG got = 0;
  const LONG status = query(kSystemProcessorPerformanceInformation, times.data(),
                            static_cast<ULONG>(times.size() * sizeof(ProcessorTimes)), &got);
  if (status < 0) return {};
  times.resize(std::min<size_t>(times.size(), got / sizeof(ProcessorTimes)));
  std::vector<PerCpuTimes> out;
  for (size_t i = 0; i < times.size(); ++i) {
    const auto idle = static_cast<uint64_t>(times[i].idle.QuadPart);
    const auto kernel = static_cast<uint64_t>(times[i].kernel.QuadPart);
    PerCpuTimes t;
    t.cpu = static_cast<int>(i);
    t.user = static_cast<uint64_t>(times[i].user.QuadPart);
    t.kernel = kernel - std::min(kernel, idle);  // as on Linux: without the idle time
    t.idle = idle;
    out.push_back(t);
  }
  return out;
}

std::string ComputerName() {
  char buf[MAX_COMPUTERNAME_LENGTH + 1] = {};
  DWORD n = sizeof(buf);
  if (!GetComputerNameA(buf, &n)) return "";
  return std::string(buf, n);
}

}  // namespace loadcell
