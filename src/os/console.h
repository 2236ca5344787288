#pragma once
// The console's stop keys and the process's immediate exit. POSIX:
// SIGINT/SIGTERM handlers; Windows: a console control handler
// (SetConsoleCtrlHandler) for Ctrl-C, Ctrl-Break and the console closing.
// One implementation per platform (console_posix.cpp, console_win32.cpp).

#include <string>
#include <vector>

namespace loadcell {

// Calls on_stop() each time the user asks the process to stop. POSIX calls
// it inside a signal handler (it must be async-signal-safe); Windows on a
// thread of its own.
void InstallStopHandler(void (*on_stop)());

// Ends the process at once with `code`: no destructors, no atexit handlers,
// no buffered output flushed. Async-signal-safe.
[[noreturn]] void ExitImmediately(int code);

// Windows: the console's code pages set to UTF-8, and standard output and
// error in binary mode, so that loadcell prints the same bytes as on Linux
// ('\n' line ends). Nothing on POSIX.
void PrepareConsole();

// The command line's arguments after the program name, in UTF-8 (Windows
// reads them from GetCommandLineW, as argv holds them in the ANSI code page).
std::vector<std::string> CommandLineArguments(int argc, char** argv);

}  // namespace loadcell
