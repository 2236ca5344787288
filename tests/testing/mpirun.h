#pragma once
// Running the loadcell binary under Open MPI's mpirun (and MPICH's
// mpiexec), for the MPI tests. Each launcher by its own name
// (mpirun.openmpi, mpiexec.mpich): with both MPIs installed, plain `mpirun`
// is whichever the system's alternatives chose. Open MPI's mpirun runs as
// root here only with --allow-run-as-root; --oversubscribe lets 4 ranks
// share 2 cores; the shared-memory transport (btl self,vader) works in a
// container.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

// mpirun's own words, then `ranks` ranks of loadcell with `args`. `timeout`
// (SIGTERM, which mpirun passes on to its ranks) ends a hang: exit 124.
inline std::vector<std::string> MpirunCommand(int ranks, const std::vector<std::string>& args,
                                              int timeout_s = 60) {
  std::vector<std::string> c = {"timeout",
                                std::to_string(timeout_s),
                                "mpirun.openmpi",
                                "--allow-run-as-root",
                                "--oversubscribe",
                                "--bind-to",
                                "none",
                                "--mca",
                                "btl",
                                "self,vader",
                                "-np",
                                std::to_string(ranks),
                                LoadcellBinary()};
  c.insert(c.end(), args.begin(), args.end());
  return c;
}

// MPICH's Hydra launcher, then `ranks` ranks of loadcell with `args` (as
// root and more ranks than cores it needs no flags).
inline std::vector<std::string> MpichCommand(int ranks, const std::vector<std::string>& args,
                                             int timeout_s = 60) {
  std::vector<std::string> c = {"timeout", std::to_string(timeout_s), "mpiexec.mpich",
                                "-np",     std::to_string(ranks),     LoadcellBinary()};
  c.insert(c.end(), args.begin(), args.end());
  return c;
}

// Appends to an mpirun command one more rank, the last, run by `sh -c
// shell_command` (mpirun's `:` form).
inline void AddShellRank(std::vector<std::string>& command, const std::string& shell_command) {
  command.insert(command.end(), {":", "-np", "1", "sh", "-c", shell_command});
}

// Appends to an mpirun command one more rank, the last, running loadcell
// with `args` of its own (mpirun's `:` form: an MPMD job).
inline void AddLoadcellRank(std::vector<std::string>& command,
                            const std::vector<std::string>& args) {
  command.insert(command.end(), {":", "-np", "1", LoadcellBinary()});
  command.insert(command.end(), args.begin(), args.end());
}

inline ProcessResult RunMpi(int ranks, const std::vector<std::string>& args) {
  ChildWatch watch;
  watch.timeout_s = 90;
  return RunCommand(MpirunCommand(ranks, args), watch);
}

// The pid a shell rank wrote to `path` (a line: "echo $$ > path.tmp && mv
// path.tmp path"), waiting up to 30 s for it; 0 if none came.
inline int WaitForPidFile(const std::string& path) {
  for (int i = 0; i < 3000; ++i) {
    const std::string text = ReadFile(path);
    if (!text.empty() && text.back() == '\n') return std::stoi(text);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

// Whether process `pid` is still there within 5 s (a zombie that no one
// reaped counts as gone: it runs nothing and holds nothing).
inline bool StillRunning(int pid) {
  for (int i = 0; i < 50; ++i) {
    const std::string stat = ReadFile("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (stat.empty() || paren == std::string::npos || stat.compare(paren, 4, ") Z ") == 0) {
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

}  // namespace loadcell::testing
