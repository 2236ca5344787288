// loadcell: the command-line entry point. Everything else lives in cli/.

#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "cli/sysbench_mode.h"
#include "core/line_buffer.h"
#include "core/status.h"
#include "os/console.h"

int main(int argc, char** argv) {
  loadcell::PrepareConsole();
  // Each line of standard error in one write (core/line_buffer.h).
  loadcell::WriteInWholeLines(std::cerr, stderr);
  try {
    std::vector<std::string> args = loadcell::CommandLineArguments(argc, argv);
    // Started through a `sysbench` link: sysbench mode (cli/sysbench_mode.h).
    if (argc > 0 && loadcell::StartedAsSysbench(argv[0])) {
      args.insert(args.begin(), "--compat=sysbench");
    }
    return loadcell::RunCommandLine(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "loadcell: error: " << loadcell::EscapeControlBytes(e.what()) << "\n";
    return loadcell::kExitRunFailed;
  } catch (...) {
    std::cerr << "loadcell: error: unexpected exception\n";
    return loadcell::kExitRunFailed;
  }
}
