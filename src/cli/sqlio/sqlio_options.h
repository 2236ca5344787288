#pragma once
// `loadcell sqlio`: SQLIO 1.5's switches and param file, parsed into plain
// data. Nothing here touches a file other than reading the param file.
// See docs/sqlio.md.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/launch.h"
#include "core/status.h"

namespace loadcell {

inline constexpr int kSqlioMaxThreads = 256;

enum class SqlioAccess { kRandom, kSequential, kStripe };

// What the command line asked for. Fields keep SQLIO's units (seconds, KB).
struct SqlioSwitches {
  bool write = false;                             // -kW (default -kR)
  double seconds = 30;                            // -s
  SqlioAccess access = SqlioAccess::kSequential;  // -f
  uint64_t stripe = 0;                            // -f<N>: blocks between I/Os
  int threads = 1;                                // -t
  bool threads_given = false;
  int outstanding = 1;                    // -o, per thread per file
  uint64_t block_kb = 8;                  // -b
  char buffering = 'N';                   // -B N|Y|H|S
  char latency = 0;                       // -L S|P (0: no latency output)
  std::string param_file;                 // -F
  std::string drives;                     // -d letters, upper case
  std::optional<uint64_t> affinity_mask;  // -a (-aR: round robin)
  std::optional<int> cpu;                 // -p
  bool cpu_util = false;                  // -U
  uint64_t start_block = 0;               // -S
  bool start_given = false;
  uint64_t ios_per_run = 64;  // -i (SQLIO's default)
  bool ios_given = false;
  bool same_runs = false;             // -v1.1.1
  bool affinity_round_robin = false;  // -aR
  std::string affinity_arg, cpu_arg;  // -a and -p as written (for errors)
  int buffers = 0;                    // -m
  // -g<bytes per ms> / -g<n>i (DiskSpd's throttle): each thread's rate,
  // in bytes per millisecond or, with throttle_iops, I/Os per second. 0: none.
  uint64_t throttle = 0;
  bool throttle_iops = false;
  std::map<char, std::string> drive_map;  // --drive X=/folder (upper-case letter)
  bool classic = false;                   // --sqlio-classic
  std::string format = "text";            // --format=text|json
  std::string verdict = "on";             // --verdict=off|on|strict
  bool quiet = false;                     // --quiet
  bool use_existing_write = false;        // --sqlio-use-existing=write
  // --mpi, --mpi-files, --mpi-timeout: under an MPI launcher (docs/mpi.md).
  ClusterSettings cluster;
  bool help = false;               // -? / --help
  std::vector<std::string> files;  // file names on the command line
  std::vector<std::string> given;  // the switches as written, for the manifest
  // One line each: things accepted that do not apply as on Windows.
  std::vector<std::string> notes;
};

// -g as the runner's --rate: I/Os per second over all `threads` (each
// thread's share times their count) for blocks of `block_bytes`; 0 without -g.
double SqlioThrottleRate(const SqlioSwitches& s, int threads, uint64_t block_bytes);

// Parses argv after "sqlio". InvalidArgument (one line) on any bad switch.
Result<SqlioSwitches> ParseSqlioArgs(const std::vector<std::string>& args);

// One line of a param file: `<path> <threads> [<mask> [<size MB>]]`.
struct SqlioParamLine {
  std::string path;  // as written (may be a Windows path)
  int threads = 1;
  uint64_t mask = 0;     // 0: no affinity
  uint64_t size_mb = 0;  // 0: use the file as it is
  int line = 0;
};

// Parses a param file's text; '#' starts a comment, blank lines are skipped,
// a path may be quoted. Errors name `path` and the line number.
Result<std::vector<SqlioParamLine>> ParseSqlioParamText(std::string_view text,
                                                        const std::string& path);
// Reads and parses `path` (InvalidArgument if it cannot be read).
Result<std::vector<SqlioParamLine>> ReadSqlioParamFile(const std::string& path);

// A path as SQLIO users write it, mapped to this system: `c:\dir\f.dat`,
// `c:f.dat` and `\dir\f.dat` go under the folder their drive is mapped to
// (`drive_map`, else `default_dir`); backslashes become slashes; a POSIX
// path stays as it is. *drive gets the upper-case letter used, or 0. With
// `native_drives` (Windows: PathsHaveDriveLetters()) only a letter mapped in
// `drive_map` is mapped; every other path is returned as written.
std::string MapSqlioPath(const std::string& path, const std::map<char, std::string>& drive_map,
                         const std::string& default_dir, char* drive, bool native_drives = false);

// `path` with its drive replaced by `letter` (added when it has none).
std::string WithDrive(const std::string& path, char letter);

// "0x3" or "3" -> 3.
Result<uint64_t> ParseSqlioMask(std::string_view text);

}  // namespace loadcell
