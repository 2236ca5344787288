// loadcell: the command-line entry point. Everything else lives in cli/.

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/app.h"
#include "core/status.h"

int main(int argc, char** argv) {
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    return loadcell::RunCommandLine(args, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "loadcell: error: " << loadcell::EscapeControlBytes(e.what()) << "\n";
    return loadcell::kExitRunFailed;
  } catch (...) {
    std::cerr << "loadcell: error: unexpected exception\n";
    return loadcell::kExitRunFailed;
  }
}
