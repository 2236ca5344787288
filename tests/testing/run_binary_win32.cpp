#include <gtest/gtest.h>
#include <windows.h>
// psapi.h after windows.h: K32GetProcessMemoryInfo (kernel32.dll).
#include <psapi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "os/win32_util.h"
#include "testing/run_binary.h"

namespace loadcell::testing {
namespace {

using Clock = std::chrono::steady_clock;

// `arg` as the C runtime (and CommandLineToArgvW) reads it back: as it is
// when it has no blank or quote; otherwise in quotes, a quote as \", and the
// backslashes before a quote (or before the closing one) doubled. Other
// backslashes stand for themselves.
std::wstring QuotedArgument(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    out.append(c == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
    backslashes = 0;
    out.push_back(c);
  }
  out.append(2 * backslashes, L'\\');
  out.push_back(L'"');
  return out;
}

std::wstring CommandLine(const std::vector<std::string>& command) {
  std::wstring line;
  for (const std::string& a : command) {
    if (!line.empty()) line.push_back(L' ');
    line += QuotedArgument(Widen(a));
  }
  return line;
}

// True when the variable "NAME=..." (or Windows' "=C:=..." entries) is named
// `name`; names are case-blind on Windows.
bool NamesVariable(const std::wstring& entry, const std::wstring& name) {
  const size_t eq = entry.find(L'=', 1);
  return eq == name.size() &&
         CompareStringOrdinal(entry.data(), static_cast<int>(eq), name.data(),
                              static_cast<int>(name.size()), TRUE) == CSTR_EQUAL;
}

// This process's environment with `env` set over it, as CreateProcessW's
// block: "NAME=VALUE\0" entries and one more '\0'.
std::wstring EnvironmentBlock(const std::vector<std::pair<std::string, std::string>>& env) {
  std::vector<std::wstring> entries;
  wchar_t* own = GetEnvironmentStringsW();
  for (const wchar_t* e = own; e != nullptr && *e != L'\0'; e += wcslen(e) + 1) {
    bool replaced = false;
    for (const auto& [name, value] : env) replaced = replaced || NamesVariable(e, Widen(name));
    if (!replaced) entries.emplace_back(e);
  }
  if (own != nullptr) FreeEnvironmentStringsW(own);
  for (const auto& [name, value] : env) entries.push_back(Widen(name) + L"=" + Widen(value));
  std::wstring block;
  for (const std::wstring& e : entries) block += e + L'\0';
  block.push_back(L'\0');
  return block;
}

// A pipe whose write end the child inherits; the read end stays here.
struct Pipe {
  HANDLE read = nullptr;
  HANDLE write = nullptr;
  bool Open() {
    SECURITY_ATTRIBUTES sa{sizeof(sa), nullptr, TRUE};
    return CreatePipe(&read, &write, &sa, 0) != 0 &&
           SetHandleInformation(read, HANDLE_FLAG_INHERIT, 0) != 0;
  }
  void Close() {
    if (read != nullptr) CloseHandle(read);
    if (write != nullptr) CloseHandle(write);
    read = write = nullptr;
  }
};

// What the two reader threads collect; `mutex` guards both strings.
struct Output {
  std::mutex mutex;
  std::string out;
  std::string err;
};

// Reads `pipe` to its end (every writer gone) into `*sink`. One thread per
// pipe, so a child that fills one pipe while this side waits on the other
// never blocks.
void ReadAll(HANDLE pipe, std::mutex* mutex, std::string* sink) {
  char buf[4096];
  DWORD n = 0;
  while (::ReadFile(pipe, buf, sizeof(buf), &n, nullptr) != 0 && n > 0) {
    const std::lock_guard<std::mutex> lock(*mutex);
    sink->append(buf, n);
  }
}

// Starts the child with its stdout and stderr on the pipes and stdin on NUL;
// false (with a test failure naming the command) when it cannot start.
bool StartChild(const std::vector<std::string>& command, const ChildWatch& watch, Pipe& out,
                Pipe& err, PROCESS_INFORMATION& pi) {
  SECURITY_ATTRIBUTES sa{sizeof(sa), nullptr, TRUE};
  HANDLE nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
                           OPEN_EXISTING, 0, nullptr);
  STARTUPINFOW si{};
  si.cb = sizeof(si);
  si.dwFlags = STARTF_USESTDHANDLES;
  si.hStdInput = nul;
  si.hStdOutput = out.write;
  si.hStdError = err.write;
  std::wstring line = CommandLine(command);
  std::wstring env = EnvironmentBlock(watch.env);
  const std::wstring cwd = Widen(watch.cwd);
  // Wine on a loaded machine now and then fails to create a process that
  // starts on the next try: a few tries, each failed one said on stderr,
  // before the test fails (what loadcell does is not in question until its
  // process runs).
  constexpr int kTries = 4;
  BOOL ok = 0;
  DWORD error = 0;
  for (int attempt = 1; attempt <= kTries && ok == 0; ++attempt) {
    ok = CreateProcessW(nullptr, line.data(), nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT,
                        env.data(), cwd.empty() ? nullptr : cwd.c_str(), &si, &pi);
    error = GetLastError();
    if (ok == 0 && attempt < kTries) {
      std::fprintf(stderr, "run_binary: CreateProcessW failed (%s); try %d of %d\n",
                   Win32ErrorText(error).c_str(), attempt + 1, kTries);
      Sleep(200 * attempt);
    }
  }
  if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
  if (ok == 0) {
    ADD_FAILURE() << "CreateProcessW " << Narrow(line) << ": " << Win32ErrorText(error) << " ("
                  << kTries << " tries)";
    return false;
  }
  return true;
}

// Keeps in result.max_rss_kb the largest working set seen of `process`:
// what POSIX's ru_maxrss reports. Read while the child runs too, every 5
// ms: Wine knows a process' working set only while it lives (its peak
// after the exit reads 0).
void NoteWorkingSet(HANDLE process, ProcessResult& result) {
  PROCESS_MEMORY_COUNTERS memory{};
  memory.cb = sizeof(memory);
  if (K32GetProcessMemoryInfo(process, &memory, sizeof(memory)) == 0) return;
  const size_t bytes = std::max(memory.PeakWorkingSetSize, memory.WorkingSetSize);
  result.max_rss_kb = std::max(result.max_rss_kb, static_cast<long>(bytes / 1024));
}

}  // namespace

std::string LoadcellBinary() {
  std::wstring self(32768, L'\0');
  const DWORD n = GetModuleFileNameW(nullptr, self.data(), static_cast<DWORD>(self.size()));
  self.resize(n);
  return Narrow(self.substr(0, self.find_last_of(L"\\/") + 1)) + "loadcell.exe";
}

ProcessResult RunCommand(const std::vector<std::string>& command, const ChildWatch& watch) {
  ProcessResult result;
  Pipe out;
  Pipe err;
  PROCESS_INFORMATION pi{};
  if (!out.Open() || !err.Open() || !StartChild(command, watch, out, err, pi)) {
    out.Close();
    err.Close();
    return result;
  }
  // Only the child holds the write ends now: the reads end when it does.
  CloseHandle(out.write);
  CloseHandle(err.write);
  out.write = err.write = nullptr;
  Output output;
  std::thread out_reader(ReadAll, out.read, &output.mutex, &output.out);
  std::thread err_reader(ReadAll, err.read, &output.mutex, &output.err);
  const auto start = Clock::now();
  Clock::time_point marker_at{};
  Clock::time_point acted_at{};
  bool seen = false;
  bool acted = !watch.during;
  bool killed = false;
  // Once at the start: a child that ends within the first wait (a refusal at
  // startup) still leaves a working set seen while it lived.
  NoteWorkingSet(pi.hProcess, result);
  while (WaitForSingleObject(pi.hProcess, 5) == WAIT_TIMEOUT) {
    NoteWorkingSet(pi.hProcess, result);
    const auto now = Clock::now();
    if (!seen) {
      const std::lock_guard<std::mutex> lock(output.mutex);
      seen = output.out.find(watch.marker) != std::string::npos;
      marker_at = now;
    }
    if (seen && !acted && now - marker_at >= std::chrono::milliseconds(watch.delay_ms)) {
      watch.during(static_cast<int>(pi.dwProcessId));
      acted = true;
      acted_at = Clock::now();
    }
    if (!killed && now - start > std::chrono::seconds(watch.timeout_s)) {
      TerminateProcess(pi.hProcess, 128 + 9);
      killed = true;
    }
  }
  out_reader.join();
  err_reader.join();
  DWORD code = 0;
  if (GetExitCodeProcess(pi.hProcess, &code) != 0) result.exit_code = static_cast<int>(code);
  NoteWorkingSet(pi.hProcess, result);
  if (watch.during && acted) {
    result.seconds_after_action = std::chrono::duration<double>(Clock::now() - acted_at).count();
  }
  CloseHandle(pi.hProcess);
  CloseHandle(pi.hThread);
  out.Close();
  err.Close();
  result.out = std::move(output.out);
  result.err = std::move(output.err);
  return result;
}

// Windows has no SIGINT, and a console event needs a console the child
// shares, which Wine does not give a process with its output on pipes
// (GenerateConsoleCtrlEvent and AllocConsole both fail): scripts/test-windows
// sends Ctrl-C as Wine delivers it, SIGINT to the wine process.
void KillChild(int pid) {
  HANDLE h = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, static_cast<DWORD>(pid));
  if (h == nullptr) {
    ADD_FAILURE() << "cannot open the child " << pid << " to end it";
    return;
  }
  if (TerminateProcess(h, kKilledExitCode) == 0) {
    ADD_FAILURE() << "TerminateProcess failed for the child " << pid;
  }
  WaitForSingleObject(h, INFINITE);
  CloseHandle(h);
}

void SendInterrupt(int pid) {
  ADD_FAILURE() << "no SIGINT for the Windows child " << pid
                << ": this test belongs in a *_posix_test.cpp file";
}

ProcessLock::ProcessLock(const std::string& path) {
  HANDLE h =
      CreateFileA(path.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE,
                  nullptr, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    ADD_FAILURE() << "cannot open the lock file " << path;
    return;
  }
  OVERLAPPED at{};
  if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &at)) {
    ADD_FAILURE() << "cannot lock " << path;
    CloseHandle(h);
    return;
  }
  handle_ = reinterpret_cast<intptr_t>(h);
}

ProcessLock::~ProcessLock() {
  if (handle_ != -1) CloseHandle(reinterpret_cast<HANDLE>(handle_));  // the lock goes with it
}

}  // namespace loadcell::testing
