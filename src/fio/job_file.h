#pragma once
// fio job files and fio's command-line job form, read as fio 3.33 reads them,
// into sections of raw options (name, value, origin). Nothing here knows what
// an option means: fio/fio_options.h checks the names and values against its
// table and builds the FioJobSpec of each job.
//
// The rules followed (docs/fio.md says the same for users):
//   - A line is cut at its first ';' and at its first '#' (fio's comments, in
//     a value too), then stripped of white space and control bytes at both
//     ends; what is left empty is skipped.
//   - "[NAME]" starts a section; a section whose name starts with "global"
//     (fio compares six characters) is a global one. Every option line
//     belongs to the section above it; an option before the first section is
//     refused.
//   - "NAME=VALUE" (white space around both trimmed) or "NAME" alone (a bare
//     option: has_value false).
//   - "include FILE" inside a section reads FILE's option lines into that
//     section, as if they were written there. FILE is relative to the
//     including file's folder; an included file may include others but may
//     not start sections (fio's rule); a file that includes itself, directly
//     or not, is refused, and so is nesting deeper than kMaxIncludeDepth.
//   - In every option line "${VAR}" becomes the value of the environment
//     variable VAR (empty when it is not set); then, in its value,
//     "$pagesize", "$mb_memory" and "$ncpus" the system's figures. When one of
//     those was replaced and the value is then an integer expression
//     (fio/expression.h), the value is its result ("size=8*$mb_memory"), as
//     fio's bc call gives.
//   - Job files after the first begin with a stonewall (their first job
//     section has starts_file set) and from fio's defaults: the global
//     options of earlier files and of the command line do not reach them
//     (their first section has resets_globals set).
//
// Errors are usage errors (kInvalidArgument) of one line, "FILE:LINE: what is
// wrong and what is valid".

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "fio/fio_job_spec.h"

namespace loadcell::fio {

inline constexpr int kMaxIncludeDepth = 16;
inline constexpr size_t kMaxSectionNameBytes = 255;  // fio's limit

// "FILE:LINE" for a job file, "command line argument N" for the command line.
std::string FormatOrigin(const FioOrigin& origin);

// One option as written: `name` and `value` after the expansions above.
struct FioRawOption {
  std::string name;
  std::string value;
  bool has_value = false;  // false for a bare option ("time_based")
  FioOrigin origin;
};

struct FioSection {
  std::string name;
  bool global = false;
  FioOrigin origin;  // its header line (the command line: its --name, or the first global option)
  std::vector<FioRawOption> options;
  // The first job section of the second and later job files: fio runs it
  // after every job before it has ended (an implied stonewall).
  bool starts_file = false;
  // The first section of the second and later job files: fio starts each
  // of those files from its defaults again, so the global options given
  // before it (in earlier files, or on the command line) end here.
  bool resets_globals = false;
};

// What the reader needs from outside: file contents, the environment and the
// system's figures for the keywords. Tests give their own.
struct FioParseEnv {
  // The whole file at `path`; an error Status names the path.
  std::function<Result<std::string>(const std::string& path)> read_file;
  // The environment variable `name`, or nullopt when it is not set.
  std::function<std::optional<std::string>(const std::string& name)> get_env;
  uint64_t ncpus = 0;      // $ncpus; 0: not known (the keyword is refused)
  uint64_t pagesize = 0;   // $pagesize
  uint64_t mb_memory = 0;  // $mb_memory
};

// Files read with the C++ library, the process environment, the online
// CPUs and the page size. `mb_memory` is left 0: the caller that knows the
// machine's memory (os/system_info.h) sets it.
FioParseEnv DefaultFioParseEnv();

// The sections of the job file `path` (read through env.read_file).
Result<std::vector<FioSection>> ParseJobFile(const std::string& path, const FioParseEnv& env);
// The same for `text`, named `path` in origins and used as the folder of its
// includes.
Result<std::vector<FioSection>> ParseJobText(std::string_view text, const std::string& path,
                                             const FioParseEnv& env);
// Several job files, in order, one list of sections (starts_file set on the
// first job section and resets_globals on the first section of every file
// after the first).
Result<std::vector<FioSection>> ParseJobFiles(const std::vector<std::string>& paths,
                                              const FioParseEnv& env);

// fio's command line, `args` without the program name (and without the
// "fio" sub-command): "--NAME=VALUE" and bare "--NAME" options, and job
// files (any argument not starting with "--").
struct FioCommandLine {
  std::vector<std::string> job_files;
  // The jobs given as options: those before the first --name form a
  // "global" section; each --name=NAME starts a job (--name=global a global
  // section).
  std::vector<FioSection> sections;
  std::vector<std::string> selected_sections;  // --section=NAME, in order
  // The program's own options (kFioProgramOptions), as given.
  std::vector<FioRawOption> program_options;
};
// The program options fio has that loadcell takes: output, output-format,
// parse-only, warnings-fatal, eta, readonly, and loadcell's own allow-destructive,
// mpi, mpi-files, mpi-timeout, verdict, format, output-file and report-html
// (and section, kept apart above).
extern const std::vector<std::string_view> kFioProgramOptions;
Result<FioCommandLine> ParseFioCommandLine(const std::vector<std::string>& args,
                                           const FioParseEnv& env);

// One job's options in force: every global option given before it (in
// order, across every [global] section above it back to the last
// resets_globals), then its own. Later entries of the same name override
// earlier ones.
struct FioJobOptions {
  std::string section_name;
  FioOrigin origin;
  std::vector<FioRawOption> options;
  // How many of `options`, from the first, came from global sections (fio's
  // JSON lists them apart: "global options", then each job's own).
  size_t global_count = 0;
  bool starts_file = false;
};

// The jobs of `sections` (globals applied to the jobs after them), keeping
// only the job sections named in `selected` when it is not empty (fio's
// --section; global sections always apply). A selected name no section has
// is refused.
Result<std::vector<FioJobOptions>> ResolveJobs(const std::vector<FioSection>& sections,
                                               const std::vector<std::string>& selected);

// The jobs of a whole fio command line, in fio's order: its own sections
// first (fio adds them while it reads the command line), then its job
// files'. The command line's global options apply to its own jobs and to
// the first file's, not to later files' (fio starts each from its defaults);
// the first file has no implied stonewall (fio separates files from each
// other, not from the command line); --section selects among them all.
Result<std::vector<FioJobOptions>> ReadFioJobs(const FioCommandLine& line, const FioParseEnv& env);

}  // namespace loadcell::fio
