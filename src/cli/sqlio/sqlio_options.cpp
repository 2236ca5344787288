#include "cli/sqlio/sqlio_options.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdio>

#include "cli/option_file.h"
#include "core/options.h"
#include "core/plural.h"
#include "os/file_system.h"
#include "runner/validity.h"

namespace loadcell {
namespace {

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A non-negative decimal integer, all of `text`.
std::optional<uint64_t> Digits(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<uint64_t>(c - '0');
  }
  return v;
}

Status Bad(const std::string& sw, const std::string& why) {
  return Status::InvalidArgument("sqlio: '" + sw + "': " + why);
}

// Parses the number after a switch letter, in [lo, hi].
Result<uint64_t> Number(const std::string& sw, std::string_view text, uint64_t lo, uint64_t hi,
                        const char* what) {
  std::optional<uint64_t> v = Digits(text);
  // More than 18 digits is a number too, only too large.
  const bool all_digits = !text.empty() && text.find_first_not_of("0123456789") == text.npos;
  if (!v.has_value() && !all_digits) {
    return Bad(sw, fmt::format("{} must be a whole number", what));
  }
  if (!v.has_value() || *v < lo || *v > hi) {
    return Bad(sw, fmt::format("{} must be {} to {}", what, lo, hi));
  }
  return *v;
}

// The largest -f stripe factor: 2^36 blocks of the largest block size
// (64 MB) is a stride of 2^62 bytes, below any int64 offset overflow.
constexpr uint64_t kMaxStripe = uint64_t{1} << 36;

bool IsDriveLetter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// The first control byte of a file name (NUL, newline, ESC, DEL, ...) as
// \xHH, or a C1 control in UTF-8 (U+0080..U+009F, which a UTF-8 terminal
// reads as one: U+009B is CSI) as both its bytes, or "" when it has none: no
// test file is named so, and a NUL would silently cut the name short.
std::string ControlByteInPath(std::string_view path) {
  for (size_t i = 0; i < path.size(); ++i) {
    const auto b = static_cast<unsigned char>(path[i]);
    if (b < 0x20 || b == 0x7f) return fmt::format("\\x{:02x}", b);
    if (b == 0xc2 && i + 1 < path.size()) {
      const auto next = static_cast<unsigned char>(path[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return fmt::format("\\x{:02x}\\x{:02x}", b, next);
    }
  }
  return "";
}

// Splits `line` into fields at blanks; "..." keeps blanks in a field.
Result<std::vector<std::string>> Fields(std::string_view line) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::string field;
    if (line[i] == '"') {
      size_t end = line.find('"', i + 1);
      if (end == std::string_view::npos) return Status::InvalidArgument("unclosed quote");
      field = std::string(line.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') field += line[i++];
    }
    out.push_back(std::move(field));
  }
  return out;
}

// ------------------------------------------------------------ the switches
// One function per SQLIO switch letter: `arg` is the switch as written (for
// the error), `v` what follows the letter. Each sets its fields of `s` or
// returns the one-line error.

Status ParseHelpSwitch(const std::string& /*arg*/, std::string_view /*v*/, SqlioSwitches& s) {
  s.help = true;
  return Status::Ok();
}

Status ParseKind(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  const std::string k = Upper(v);
  if (k != "R" && k != "W") return Bad(arg, "-k takes R (read) or W (write): -kR or -kW");
  s.write = k == "W";
  return Status::Ok();
}

Status ParseSeconds(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(uint64_t secs,
                      Number(arg, v, 1, uint64_t{86400} * 365, "the duration in seconds"));
  s.seconds = static_cast<double>(secs);
  return Status::Ok();
}

Status ParseAccess(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  const std::string f = Lower(v);
  if (f == "random") {
    s.access = SqlioAccess::kRandom;
  } else if (f == "sequential") {
    s.access = SqlioAccess::kSequential;
  } else {
    std::optional<uint64_t> n = Digits(v);
    if (!n.has_value() || *n == 0 || *n > kMaxStripe) {
      return Bad(arg, fmt::format("-f takes random, sequential or a stripe factor (a number of 1 "
                                  "to {} blocks)",
                                  kMaxStripe));
    }
    s.access = SqlioAccess::kStripe;
    s.stripe = *n;
  }
  return Status::Ok();
}

Status ParseThreads(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(uint64_t t, Number(arg, v, 1, kSqlioMaxThreads, "the thread count"));
  s.threads = static_cast<int>(t);
  s.threads_given = true;
  return Status::Ok();
}

Status ParseOutstanding(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  // -o0 is refused, not made 1 behind the user's back.
  LC_ASSIGN_OR_RETURN(uint64_t o, Number(arg, v, 1, 1024, "the outstanding I/O count"));
  s.outstanding = static_cast<int>(o);
  return Status::Ok();
}

Status ParseBlockSize(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(s.block_kb, Number(arg, v, 1, uint64_t{64} * 1024, "the block size in KB"));
  return Status::Ok();
}

Status ParseBuffering(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  const std::string b = Upper(v);
  if (b.size() != 1 || std::string_view("NYHS").find(b[0]) == std::string_view::npos) {
    return Bad(arg,
               "-B takes N (no caching), Y (all caches), H (hardware cache only) or "
               "S (write-through only)");
  }
  s.buffering = b[0];
  return Status::Ok();
}

Status ParseLatency(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  const std::string l = Upper(v);
  if (l != "S" && l != "P" && l != "SI" && l != "PI") {
    return Bad(arg,
               "-L takes S (system timer) or P (processor counter), optionally followed "
               "by i: -LS, -LP, -LSi");
  }
  s.latency = l[0];
  if (l.size() == 2) {
    s.notes.push_back(arg +
                      ": initiation times are not reported: each I/O is timed from its "
                      "submission to its completion");
  }
  return Status::Ok();
}

Status ParseParamFile(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  if (v.empty()) return Bad(arg, "-F needs the param file name attached: -Fparam.txt");
  s.param_file = std::string(v);
  return Status::Ok();
}

Status ParseDrives(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  if (v.empty()) return Bad(arg, "-d needs one or more drive letters: -dR or -dEFG");
  for (char c : v) {
    if (!IsDriveLetter(c)) return Bad(arg, "-d takes drive letters only (A to Z)");
    const char u = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (s.drives.find(u) == std::string::npos) s.drives += u;
  }
  return Status::Ok();
}

// -a<mask>: every thread on the mask; -aR<mask>: round robin, one CPU of the
// mask per thread; I: ideal (a hint on Windows).
Status ParseAffinity(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  std::string_view m = v;
  const auto letter = [&](char c) {
    if (m.empty() || std::toupper(static_cast<unsigned char>(m[0])) != c) return false;
    m.remove_prefix(1);
    return true;
  };
  s.affinity_round_robin = letter('R');
  const bool ideal = s.affinity_round_robin && letter('I');
  Result<uint64_t> mask = ParseSqlioMask(m);
  if (!mask.ok() || *mask == 0) {
    return Bad(arg,
               "-a takes a non-zero CPU mask (hex 0x.. or decimal), after R or RI "
               "for round robin: -a0xf, -aR0xf");
  }
  s.affinity_mask = *mask;
  s.affinity_arg = arg;
  if (ideal) s.notes.push_back(arg + ": ideal affinity is applied as hard affinity here");
  return Status::Ok();
}

Status ParseCpu(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  std::string_view p = v;
  const bool ideal = !p.empty() && (p[0] == 'I' || p[0] == 'i');
  if (ideal) p.remove_prefix(1);
  LC_ASSIGN_OR_RETURN(uint64_t cpu, Number(arg, p, 0, 1023, "the CPU number"));
  s.cpu = static_cast<int>(cpu);
  s.cpu_arg = arg;
  if (ideal) s.notes.push_back(arg + ": ideal affinity is applied as hard affinity here");
  return Status::Ok();
}

Status ParseCpuUtil(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  if (v != "" && v != "p" && v != "P") {
    return Bad(arg, "-U takes nothing or p (per processor): -U, -Up");
  }
  s.cpu_util = true;
  if (!v.empty()) {
    s.notes.push_back(arg +
                      ": per-processor utilisation is not reported; the process's CPU "
                      "use over the run is (as -U)");
  }
  return Status::Ok();
}

Status ParseVersionRuns(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  if (v != "1.1.1") return Bad(arg, "-v takes 1.1.1 only: -v1.1.1");
  s.same_runs = true;
  return Status::Ok();
}

Status Parse64(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  if (v != "4") return Bad(arg, "unknown switch (did you mean -64?)");
  s.notes.push_back("-64: SQLIO's 64-bit memory operations have no counterpart here");
  return Status::Ok();
}

Status ParseDebug(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(uint64_t level, Number(arg, v, 0, 1000, "the debug level"));
  s.notes.push_back(fmt::format("-D{}: SQLIO's debug output is not produced", level));
  return Status::Ok();
}

Status ParseRawDrive(const std::string& arg, std::string_view /*v*/, SqlioSwitches& /*s*/) {
  return Bad(arg,
             "raw drives are not opened by loadcell sqlio; name a file or a device "
             "path instead");
}

Status ParseStartBlock(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(s.start_block,
                      Number(arg, v, 0, uint64_t{1} << 40, "the start offset in blocks"));
  s.start_given = true;
  return Status::Ok();
}

Status ParseIosPerRun(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  LC_ASSIGN_OR_RETURN(s.ios_per_run, Number(arg, v, 1, uint64_t{1} << 40, "the I/O count per run"));
  s.ios_given = true;
  return Status::Ok();
}

Status ParseBuffers(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  std::string_view m = v;
  if (!m.empty() && std::isalpha(static_cast<unsigned char>(m[0]))) m.remove_prefix(1);
  LC_ASSIGN_OR_RETURN(uint64_t n, Number(arg, m.empty() ? "1" : m, 1, 1024, "the buffer count"));
  s.buffers = static_cast<int>(n);
  return Status::Ok();
}

// -g<bytes per ms> or -g<n>i (I/Os per second), per thread: DiskSpd's
// throttle, run open loop by the runner's rate schedule.
Status ParseThrottle(const std::string& arg, std::string_view v, SqlioSwitches& s) {
  std::string_view n = v;
  s.throttle_iops = !n.empty() && (n.back() == 'i' || n.back() == 'I');
  if (s.throttle_iops) n.remove_suffix(1);
  LC_ASSIGN_OR_RETURN(s.throttle,
                      Number(arg, n, 1, uint64_t{1} << 40,
                             s.throttle_iops ? "the I/Os per second of each thread (-g<n>i)"
                                             : "the bytes per millisecond of each thread (-g<n>)"));
  return Status::Ok();
}

struct SwitchRule {
  char letter;
  Status (*parse)(const std::string& arg, std::string_view v, SqlioSwitches& s);
};

// Every switch letter SQLIO 1.5 knows, in the order its help lists them.
constexpr SwitchRule kSwitchRules[] = {
    {'?', &ParseHelpSwitch}, {'k', &ParseKind},      {'s', &ParseSeconds},
    {'f', &ParseAccess},     {'t', &ParseThreads},   {'o', &ParseOutstanding},
    {'b', &ParseBlockSize},  {'B', &ParseBuffering}, {'L', &ParseLatency},
    {'F', &ParseParamFile},  {'d', &ParseDrives},    {'a', &ParseAffinity},
    {'p', &ParseCpu},        {'U', &ParseCpuUtil},   {'v', &ParseVersionRuns},
    {'6', &Parse64},         {'D', &ParseDebug},     {'R', &ParseRawDrive},
    {'S', &ParseStartBlock}, {'i', &ParseIosPerRun}, {'m', &ParseBuffers},
    {'g', &ParseThrottle},  // DiskSpd's, not SQLIO's
};

// A switch: "-" then a letter of kSwitchRules, its value attached.
Status ParseSwitch(const std::string& arg, SqlioSwitches& s) {
  const std::string_view v = std::string_view(arg).substr(2);
  for (const SwitchRule& rule : kSwitchRules) {
    if (rule.letter == arg[1]) return rule.parse(arg, v, s);
  }
  return Bad(arg,
             "unknown switch; sqlio knows -k -s -f -t -o -b -B -L -F -d -a -p -U -S "
             "-i -m -g -v1.1.1 -64 -D (see 'loadcell sqlio --help')");
}

// loadcell's own long options: --drive, --sqlio-classic, --format, --verdict, --quiet,
// --sqlio-use-existing, --help, and under an MPI launcher --mpi, --mpi-files, --mpi-timeout.
Status ParseLongOption(const std::string& arg, SqlioSwitches& s) {
  const size_t eq = arg.find('=');
  const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
  const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
  if (name == "drive") {
    if (value.size() < 3 || !IsDriveLetter(value[0]) || value[1] != '=') {
      return Bad(arg, "write --drive=X=/folder (a drive letter and the folder it maps to)");
    }
    s.drive_map[static_cast<char>(std::toupper(static_cast<unsigned char>(value[0])))] =
        value.substr(2);
  } else if (name == "sqlio-classic") {
    s.classic = true;
  } else if (name == "format") {
    if (value != "text" && value != "json") return Bad(arg, "--format is text or json");
    s.format = value;
  } else if (name == "verdict") {
    if (!VerdictModeNamed(value)) return Bad(arg, "--verdict is off, on or strict");
    s.verdict = value;
  } else if (name == "quiet") {
    s.quiet = true;
  } else if (name == "sqlio-use-existing") {
    if (value != "write" && value != "off") {
      return Bad(arg,
                 "--sqlio-use-existing is write (let -kW overwrite files loadcell did not "
                 "create) or off");
    }
    s.use_existing_write = value == "write";
  } else if (name == "help") {
    s.help = true;
  } else if (name == "mpi") {
    s.cluster.mode = MpiMode::kOn;
    if (eq != std::string::npos) {
      LC_ASSIGN_OR_RETURN(s.cluster.mode, ParseMpiMode(value));
    }
  } else if (name == "mpi-files") {
    LC_ASSIGN_OR_RETURN(s.cluster.files, ParseMpiFiles(value));
  } else if (name == "mpi-timeout") {
    LC_ASSIGN_OR_RETURN(s.cluster.timeout_s, ParseMpiTimeout(value));
  } else {
    return Bad(arg,
               "unknown option; sqlio takes SQLIO's switches (-kR, -s30, ...) and "
               "--drive, --sqlio-classic, --sqlio-use-existing, --format, --verdict, --quiet, "
               "--mpi, --mpi-files, --mpi-timeout");
  }
  return Status::Ok();
}

}  // namespace

double SqlioThrottleRate(const SqlioSwitches& s, int threads, uint64_t block_bytes) {
  if (s.throttle == 0 || block_bytes == 0) return 0;
  const double per_thread =
      s.throttle_iops ? static_cast<double>(s.throttle)
                      : static_cast<double>(s.throttle) * 1000.0 / static_cast<double>(block_bytes);
  return per_thread * threads;
}

Result<uint64_t> ParseSqlioMask(std::string_view text) {
  std::string_view t = text;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    t.remove_prefix(2);
    base = 16;
  }
  if (t.empty() || t.size() > 16) {
    return Status::InvalidArgument(fmt::format("'{}' is not a mask (hex 0x.. or decimal)", text));
  }
  uint64_t v = 0;
  for (char c : t) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (base == 16 && std::isxdigit(static_cast<unsigned char>(c))) {
      d = std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    } else {
      return Status::InvalidArgument(fmt::format("'{}' is not a mask (hex 0x.. or decimal)", text));
    }
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

Result<SqlioSwitches> ParseSqlioArgs(const std::vector<std::string>& args) {
  SqlioSwitches s;
  for (const std::string& arg : args) {
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] == '-') {
      LC_RETURN_IF_ERROR(ParseLongOption(arg, s));
    } else if (arg.size() < 2 || arg[0] != '-') {
      if (arg.empty()) return Bad(arg, "empty argument");
      if (const std::string byte = ControlByteInPath(arg); !byte.empty()) {
        return Bad(arg, "the file name holds the control byte " + byte +
                            ", which no test file name may hold");
      }
      s.files.push_back(arg);
      continue;
    } else {
      LC_RETURN_IF_ERROR(ParseSwitch(arg, s));
    }
    s.given.push_back(arg);
  }
  if (!s.param_file.empty() && !s.files.empty()) {
    return Bad(s.files.size() > 1 ? s.files[1] : s.files[0],
               "give the test files either in the param file (-F) or on the command "
               "line, not both");
  }
  return s;
}

Result<std::vector<SqlioParamLine>> ParseSqlioParamText(std::string_view text,
                                                        const std::string& path) {
  std::vector<SqlioParamLine> out;
  int line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
      line.remove_suffix(1);
    }
    // Field values are never quoted: a line that is no param line (a .pgpass
    // line) may hold a secret; the field's place says which one is wrong.
    const std::string where = fmt::format("param file {} line {}", path, line_no);
    Result<std::vector<std::string>> fields = Fields(line);
    if (!fields.ok()) return Status::InvalidArgument(where + ": " + fields.status().message());
    if (fields->empty()) continue;
    const std::vector<std::string>& f = *fields;
    if (f.size() < 2 || f.size() > 4) {
      return Status::InvalidArgument(
          fmt::format("{}: expected '<path> <threads> <mask> <size MB>', got {}", where,
                      CountOf(f.size(), "field", "fields")));
    }
    if (const std::string byte = ControlByteInPath(f[0]); !byte.empty()) {
      return Status::InvalidArgument(fmt::format(
          "{}: the path holds the control byte {}, which no test file name may hold", where, byte));
    }
    SqlioParamLine p;
    p.path = f[0];
    p.line = line_no;
    std::optional<uint64_t> threads = Digits(f[1]);
    if (!threads.has_value() || *threads == 0 || *threads > kSqlioMaxThreads) {
      return Status::InvalidArgument(
          fmt::format("{}: the thread count (field 2) must be 1 to {}", where, kSqlioMaxThreads));
    }
    p.threads = static_cast<int>(*threads);
    if (f.size() >= 3) {
      Result<uint64_t> mask = ParseSqlioMask(f[2]);
      if (!mask.ok()) {
        return Status::InvalidArgument(fmt::format(
            "{}: the affinity mask (field 3) is not a mask (hex 0x.. or decimal)", where));
      }
      p.mask = *mask;
    }
    if (f.size() >= 4) {
      std::optional<uint64_t> size = Digits(f[3]);
      if (!size.has_value() || *size > (uint64_t{1} << 30)) {
        return Status::InvalidArgument(
            fmt::format("{}: the size (field 4) is not a number of MB", where));
      }
      if (*size == 0) {  // was taken as "no size" behind the user's back
        return Status::InvalidArgument(fmt::format(
            "{}: size 0 MB: give 1 to {} MB, or leave the field out to use an existing file "
            "at its own size",
            where, uint64_t{1} << 30));
      }
      p.size_mb = *size;
    }
    out.push_back(std::move(p));
  }
  if (out.empty()) {
    return Status::InvalidArgument("param file " + path + ": names no file");
  }
  int total = 0;
  for (const SqlioParamLine& p : out) total += p.threads;
  if (total > kSqlioMaxThreads) {
    return Status::InvalidArgument(fmt::format("param file {}: {} threads in all, more than {}",
                                               path, total, kSqlioMaxThreads));
  }
  return out;
}

Result<std::vector<SqlioParamLine>> ReadSqlioParamFile(const std::string& path) {
  LC_ASSIGN_OR_RETURN(std::string text, ReadOptionFile(path, "sqlio: -F" + path));
  return ParseSqlioParamText(text, path);
}

std::string MapSqlioPath(const std::string& path, const std::map<char, std::string>& drive_map,
                         const std::string& default_dir, char* drive, bool native_drives) {
  if (drive != nullptr) *drive = 0;
  std::string p = path;
  char letter = 0;
  if (p.size() >= 2 && IsDriveLetter(p[0]) && p[1] == ':') {
    letter = static_cast<char>(std::toupper(static_cast<unsigned char>(p[0])));
    p = p.substr(2);
  }
  if (native_drives && (letter == 0 || !drive_map.contains(letter))) {
    if (drive != nullptr) *drive = letter;
    return path;  // the system resolves it
  }
  const bool windows = letter != 0 || p.find('\\') != std::string::npos;
  for (char& c : p) {
    if (c == '\\') c = '/';
  }
  if (!windows) return p;  // a POSIX path: as it is
  while (!p.empty() && p[0] == '/') p.erase(0, 1);
  std::string_view base = default_dir;
  if (letter != 0) {
    if (auto it = drive_map.find(letter); it != drive_map.end()) base = it->second;
    if (drive != nullptr) *drive = letter;
  }
  if (base.empty()) base = ".";
  if (base.size() > 1 && base.back() == '/') base.remove_suffix(1);
  return base == "/" ? fmt::format("/{}", p) : fmt::format("{}/{}", base, p);
}

std::string WithDrive(const std::string& path, char letter) {
  std::string_view rest = path;
  if (rest.size() >= 2 && IsDriveLetter(rest[0]) && rest[1] == ':') rest.remove_prefix(2);
  std::string out;
  out.reserve(rest.size() + 3);
  out.push_back(letter);
  out.push_back(':');
  if (rest.empty() || (rest[0] != '\\' && rest[0] != '/')) out.push_back('\\');
  for (char c : rest) out.push_back(c == '/' ? '\\' : c);
  return out;
}

}  // namespace loadcell
