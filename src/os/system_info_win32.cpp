#include <cpuid.h>
#include <io.h>
#include <windows.h>

#include <cstring>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "os/system_info.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

// The processor's brand string (CPUID leaves 0x80000002-4), as /proc/cpuinfo's
// "model name" shows it on Linux.
std::string CpuModel() {
  unsigned int max = __get_cpuid_max(0x80000000, nullptr);
  if (max < 0x80000004) return "";
  char brand[49] = {};
  for (unsigned int leaf = 0; leaf < 3; ++leaf) {
    unsigned int regs[4] = {};
    __get_cpuid(0x80000002 + leaf, &regs[0], &regs[1], &regs[2], &regs[3]);
    std::memcpy(brand + leaf * 16, regs, sizeof(regs));
  }
  std::string s(brand);
  const size_t b = s.find_first_not_of(' ');
  const size_t e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// RtlGetVersion tells the true version (GetVersionEx answers what the
// program's manifest claims to support).
std::string WindowsVersion() {
  using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
  HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  if (ntdll == nullptr) return "Windows";
  auto fn = reinterpret_cast<RtlGetVersionFn>(
      reinterpret_cast<void*>(GetProcAddress(ntdll, "RtlGetVersion")));
  OSVERSIONINFOW v{};
  v.dwOSVersionInfoSize = sizeof(v);
  if (fn == nullptr || fn(&v) != 0) return "Windows";
  return "Windows " + std::to_string(v.dwMajorVersion) + "." + std::to_string(v.dwMinorVersion) +
         "." + std::to_string(v.dwBuildNumber);
}

}  // namespace

SystemInfo ReadSystemInfo() {
  SystemInfo info;
  info.cpu_model = CpuModel();
  // Every processor group, not only the one this process started in.
  info.cpus_online = static_cast<int>(GetActiveProcessorCount(ALL_PROCESSOR_GROUPS));
  MEMORYSTATUSEX mem{};
  mem.dwLength = sizeof(mem);
  if (GlobalMemoryStatusEx(&mem)) info.memory_bytes = mem.ullTotalPhys;
  info.kernel = WindowsVersion();
  return info;
}

bool StderrIsTerminal() {
  DWORD mode = 0;
  return GetConsoleMode(GetStdHandle(STD_ERROR_HANDLE), &mode) != 0;
}

uint64_t ReadL2CacheBytes() {
  DWORD bytes = 0;
  GetLogicalProcessorInformation(nullptr, &bytes);
  std::vector<SYSTEM_LOGICAL_PROCESSOR_INFORMATION> infos(
      bytes / sizeof(SYSTEM_LOGICAL_PROCESSOR_INFORMATION));
  if (infos.empty() || !GetLogicalProcessorInformation(infos.data(), &bytes)) return 0;
  for (const auto& i : infos) {
    if (i.Relationship == RelationCache && i.Cache.Level == 2) return i.Cache.Size;
  }
  return 0;
}

std::tm LocalTime(std::time_t t) {
  std::tm tm{};
  localtime_s(&tm, &t);
  return tm;
}

std::string MakeTempDir(const std::string& prefix) {
  std::error_code ec;
  const std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) return "";
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::wstring name = Widen(prefix + std::to_string(rd() % 1000000000u));
    const std::filesystem::path dir = base / name;
    if (CreateDirectoryW(dir.wstring().c_str(), nullptr)) return Narrow(dir.wstring());
    if (GetLastError() != ERROR_ALREADY_EXISTS) return "";
  }
  return "";
}

int CurrentProcessId() { return static_cast<int>(::GetCurrentProcessId()); }

std::string CurrentUserName() {
  wchar_t name[257];
  DWORD size = sizeof(name) / sizeof(name[0]);
  if (::GetUserNameW(name, &size) == 0 || size == 0) return "";
  return Narrow(std::wstring_view(name, size - 1));
}

}  // namespace loadcell
