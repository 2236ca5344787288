#include <signal.h>
#include <unistd.h>

#include "os/console.h"

namespace loadcell {
namespace {

void (*g_on_stop)() = nullptr;

void OnSignal(int) {
  if (g_on_stop != nullptr) g_on_stop();
}

}  // namespace

void InstallStopHandler(void (*on_stop)()) {
  g_on_stop = on_stop;
  struct sigaction sa = {};
  sa.sa_handler = OnSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

void ExitImmediately(int code) { _exit(code); }

void PrepareConsole() {}

std::vector<std::string> CommandLineArguments(int argc, char** argv) {
  return std::vector<std::string>(argv + 1, argv + argc);
}

}  // namespace loadcell
