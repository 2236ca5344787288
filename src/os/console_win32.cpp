#include <windows.h>
// After windows.h, which it needs.
#include <fcntl.h>
#include <io.h>
#include <shellapi.h>

#include <cstdio>
#include <cstdlib>

#include "os/console.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

void (*g_on_stop)() = nullptr;

// Runs on a thread Windows starts for the event. TRUE: handled, the process
// goes on (the run stops itself and reports). Closing the console, logging
// off and shutting down end the process when the handler returns, whatever
// it answers, so those get the stop too and no more.
BOOL WINAPI OnConsoleEvent(DWORD event) {
  switch (event) {
    case CTRL_C_EVENT:
    case CTRL_BREAK_EVENT:
    case CTRL_CLOSE_EVENT:
    case CTRL_LOGOFF_EVENT:
    case CTRL_SHUTDOWN_EVENT:
      if (g_on_stop != nullptr) g_on_stop();
      return TRUE;
    default:
      return FALSE;
  }
}

}  // namespace

void InstallStopHandler(void (*on_stop)()) {
  g_on_stop = on_stop;
  SetConsoleCtrlHandler(OnConsoleEvent, TRUE);
}

void ExitImmediately(int code) { std::_Exit(code); }

void PrepareConsole() {
  SetConsoleOutputCP(CP_UTF8);
  SetConsoleCP(CP_UTF8);
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
}

std::vector<std::string> CommandLineArguments(int argc, char** argv) {
  int n = 0;
  wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
  if (wide == nullptr) return std::vector<std::string>(argv + 1, argv + argc);
  std::vector<std::string> args;
  for (int i = 1; i < n; ++i) args.push_back(Narrow(wide[i]));
  LocalFree(wide);
  return args;
}

}  // namespace loadcell
