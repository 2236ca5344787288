#include "fio/job_file.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "core/pages.h"
#include "fio/expression.h"
#include "fio/fio_values.h"

namespace loadcell::fio {
namespace {

constexpr std::string_view kCommandLineName = "command line";

bool IsBlank(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isspace(u) != 0 || std::iscntrl(u) != 0;
}

std::string_view TrimBlanks(std::string_view text) {
  while (!text.empty() && IsBlank(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsBlank(text.back())) text.remove_suffix(1);
  return text;
}

// fio's line rule: everything from the first ';' and from the first '#' on
// is a comment, then blanks at both ends go.
std::string_view StripLine(std::string_view line) {
  const size_t cut = line.find_first_of(";#");
  if (cut != std::string_view::npos) line = line.substr(0, cut);
  return TrimBlanks(line);
}

Status ErrorAt(const FioOrigin& origin, const std::string& what) {
  return Status::InvalidArgument(FormatOrigin(origin) + ": " + what);
}

// "${VAR}" -> the variable's value (empty when unset), as fio's
// fio_option_dup_subs: a "${" without a later "}" stays as it is.
std::string ExpandEnvironment(std::string_view text, const FioParseEnv& env) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (text.compare(i, 2, "${") == 0) {
      const size_t close = text.find('}', i + 2);
      if (close != std::string_view::npos) {
        const std::string name(text.substr(i + 2, close - i - 2));
        if (env.get_env) {
          if (std::optional<std::string> value = env.get_env(name)) out += *value;
        }
        i = close + 1;
        continue;
      }
    }
    out += text[i];
    ++i;
  }
  return out;
}

struct Keyword {
  std::string_view word;
  uint64_t FioParseEnv::*value;
};
constexpr Keyword kKeywords[] = {
    {"$pagesize", &FioParseEnv::pagesize},
    {"$mb_memory", &FioParseEnv::mb_memory},
    {"$ncpus", &FioParseEnv::ncpus},
};

// The keywords replaced in `value`; when one was and the value is then an
// integer expression, its result (fio computes it with bc). A value that is
// not a pure integer expression ("4k-$pagesize") is left as replaced.
Result<std::string> ExpandKeywords(std::string value, const FioParseEnv& env,
                                   const FioOrigin& origin) {
  bool replaced = false;
  for (const Keyword& keyword : kKeywords) {
    size_t at = 0;
    while ((at = value.find(keyword.word, at)) != std::string::npos) {
      const uint64_t figure = env.*keyword.value;
      if (figure == 0) {
        return ErrorAt(
            origin, "fio keyword '" + std::string(keyword.word) + "' is not known on this system");
      }
      const std::string text = std::to_string(figure);
      value.replace(at, keyword.word.size(), text);
      at += text.size();
      replaced = true;
    }
  }
  if (replaced && HasArithmetic(value)) {
    Result<int64_t> computed = EvaluateIntegerExpression(value);
    if (computed.ok()) return std::to_string(*computed);
  }
  return value;
}

// The folder `path` is in, as a prefix to put before a relative include.
std::filesystem::path FolderOf(const std::string& path) {
  return std::filesystem::path(path).parent_path();
}

// The path of an included file, normalised with '/' between its parts on
// every platform (Windows' path joins with '\\', which it also reads '/' as),
// so that messages and the loop check see one spelling.
std::string IncludePath(const std::string& including, std::string_view name) {
  const std::filesystem::path target(std::string{name});
  if (target.is_absolute()) return target.lexically_normal().generic_string();
  const std::filesystem::path folder = FolderOf(including);
  if (folder.empty()) return target.lexically_normal().generic_string();
  return (folder / target).lexically_normal().generic_string();
}

// Whether `line` (stripped) is "include FILE" ("include" then a blank, or
// "include" alone: an include without its file).
bool IsInclude(std::string_view line, std::string_view* file) {
  constexpr std::string_view kInclude = "include";
  if (line.substr(0, kInclude.size()) != kInclude ||
      (line.size() > kInclude.size() && !IsBlank(line[kInclude.size()]))) {
    return false;
  }
  *file = TrimBlanks(line.substr(kInclude.size()));
  return true;
}

// One option line (stripped, not a section, not an include) as an option.
Result<FioRawOption> ReadOptionLine(std::string_view line, const FioOrigin& origin,
                                    const FioParseEnv& env) {
  const std::string expanded = ExpandEnvironment(line, env);
  FioRawOption option;
  option.origin = origin;
  const std::string_view text = expanded;
  const size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    option.name = std::string(TrimBlanks(text));
  } else {
    option.name = std::string(TrimBlanks(text.substr(0, equals)));
    LC_ASSIGN_OR_RETURN(
        option.value,
        ExpandKeywords(std::string(TrimBlanks(text.substr(equals + 1))), env, origin));
    option.has_value = true;
  }
  if (option.name.empty()) return ErrorAt(origin, "an option line without an option name");
  return option;
}

// Reads job files: the include stack (for loops and depth) and the sections.
class JobFileReader {
 public:
  explicit JobFileReader(const FioParseEnv& env) : env_(env) {}

  Status ReadText(std::string_view text, const std::string& path) {
    stack_.push_back(std::filesystem::path(path).lexically_normal().generic_string());
    Status status = ReadLines(text, path, /*nested=*/false);
    stack_.pop_back();
    return status;
  }

  std::vector<FioSection> TakeSections() { return std::move(sections_); }

 private:
  Status ReadLines(std::string_view text, const std::string& path, bool nested) {
    int line_number = 0;
    size_t pos = 0;
    while (pos < text.size()) {
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view line = StripLine(text.substr(pos, end - pos));
      pos = end + 1;
      ++line_number;
      if (line.empty()) continue;
      const FioOrigin origin{path, line_number, false};
      if (line.front() == '[') {
        if (nested) {
          return ErrorAt(origin,
                         "a section header in an included file: fio allows only "
                         "option lines there");
        }
        LC_RETURN_IF_ERROR(StartSection(line, origin));
      } else if (sections_.empty()) {
        return ErrorAt(origin, "option " + QuoteFioText(line) +
                                   " comes before any [section]: every option belongs to a "
                                   "[global] or job section");
      } else if (std::string_view file; IsInclude(line, &file)) {
        LC_RETURN_IF_ERROR(Include(file, path, origin));
      } else {
        LC_ASSIGN_OR_RETURN(FioRawOption option, ReadOptionLine(line, origin, env_));
        sections_.back().options.push_back(std::move(option));
      }
    }
    return Status::Ok();
  }

  Status StartSection(std::string_view line, const FioOrigin& origin) {
    if (line.back() != ']') {
      return ErrorAt(origin, "section header " + QuoteFioText(line) + " does not end in ']'");
    }
    const std::string_view name = TrimBlanks(line.substr(1, line.size() - 2));
    if (name.empty())
      return ErrorAt(origin, "a section without a name: write [global] or [JOBNAME]");
    if (name.size() > kMaxSectionNameBytes) {
      return ErrorAt(origin, "section name longer than " + std::to_string(kMaxSectionNameBytes) +
                                 " bytes (fio's limit)");
    }
    FioSection section;
    section.name = std::string(name);
    section.global = name.substr(0, 6) == "global";
    section.origin = origin;
    sections_.push_back(std::move(section));
    return Status::Ok();
  }

  Status Include(std::string_view file, const std::string& including, const FioOrigin& origin) {
    if (file.empty()) return ErrorAt(origin, "include without a file name: write include FILE");
    const std::string path = IncludePath(including, file);
    if (std::find(stack_.begin(), stack_.end(), path) != stack_.end()) {
      return ErrorAt(
          origin, "include " + QuoteFioText(path) + " is a loop: that file is already being read");
    }
    if (static_cast<int>(stack_.size()) > kMaxIncludeDepth) {
      return ErrorAt(origin,
                     "includes nested deeper than " + std::to_string(kMaxIncludeDepth) + " files");
    }
    if (!env_.read_file)
      return ErrorAt(origin, "include " + QuoteFioText(path) + ": no file reader");
    Result<std::string> text = env_.read_file(path);
    if (!text.ok()) return ErrorAt(origin, "include: " + text.status().ToString());
    stack_.push_back(path);
    Status status = ReadLines(*text, path, /*nested=*/true);
    stack_.pop_back();
    return status;
  }

  const FioParseEnv& env_;
  std::vector<std::string> stack_;
  std::vector<FioSection> sections_;
};

Result<std::string> ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return PosixUsageError("cannot open job file '" + EscapeControlBytes(path) + "'", errno);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return PosixUsageError("cannot read job file '" + EscapeControlBytes(path) + "'", errno);
  return text.str();
}

bool IsProgramOption(std::string_view name) {
  return std::find(kFioProgramOptions.begin(), kFioProgramOptions.end(), name) !=
         kFioProgramOptions.end();
}

}  // namespace

const std::vector<std::string_view> kFioProgramOptions = {
    "output",      "output-format", "parse-only",  "warnings-fatal", "eta",    "allow-destructive",
    "mpi",         "mpi-files",     "mpi-timeout", "verdict",        "format", "output-file",
    "report-html", "readonly"};

std::string FormatOrigin(const FioOrigin& origin) {
  if (origin.command_line)
    return std::string(kCommandLineName) + " argument " + std::to_string(origin.line);
  return EscapeControlBytes(origin.file) + ":" + std::to_string(origin.line);
}

FioParseEnv DefaultFioParseEnv() {
  FioParseEnv env;
  env.read_file = &ReadWholeFile;
  env.get_env = [](const std::string& name) -> std::optional<std::string> {
    const char* value =
        std::getenv(name.c_str());  // NOLINT(concurrency-mt-unsafe): read before any thread starts
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  };
  env.ncpus = std::thread::hardware_concurrency();
  env.pagesize = PageSize();
  return env;
}

Result<std::vector<FioSection>> ParseJobText(std::string_view text, const std::string& path,
                                             const FioParseEnv& env) {
  JobFileReader reader(env);
  LC_RETURN_IF_ERROR(reader.ReadText(text, path));
  return reader.TakeSections();
}

Result<std::vector<FioSection>> ParseJobFile(const std::string& path, const FioParseEnv& env) {
  if (!env.read_file)
    return Status::InvalidArgument("job file '" + EscapeControlBytes(path) + "': no file reader");
  LC_ASSIGN_OR_RETURN(std::string text, env.read_file(path));
  return ParseJobText(text, path, env);
}

Result<std::vector<FioSection>> ParseJobFiles(const std::vector<std::string>& paths,
                                              const FioParseEnv& env) {
  std::vector<FioSection> all;
  for (size_t i = 0; i < paths.size(); ++i) {
    LC_ASSIGN_OR_RETURN(std::vector<FioSection> sections, ParseJobFile(paths[i], env));
    if (i > 0 && !sections.empty()) sections.front().resets_globals = true;
    bool first_job = i > 0;
    for (FioSection& section : sections) {
      if (first_job && !section.global) {
        section.starts_file = true;
        first_job = false;
      }
      all.push_back(std::move(section));
    }
  }
  return all;
}

Result<FioCommandLine> ParseFioCommandLine(const std::vector<std::string>& args,
                                           const FioParseEnv& env) {
  FioCommandLine line;
  for (size_t i = 0; i < args.size(); ++i) {
    const FioOrigin origin{std::string(kCommandLineName), static_cast<int>(i + 1), true};
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0) {
      if (arg.size() > 1 && arg.front() == '-') {
        return ErrorAt(origin, QuoteFioText(arg) + ": fio's options are --NAME=VALUE or --NAME");
      }
      line.job_files.push_back(arg);
      continue;
    }
    LC_ASSIGN_OR_RETURN(FioRawOption option,
                        ReadOptionLine(std::string_view(arg).substr(2), origin, env));
    if (option.name == "section") {
      if (!option.has_value || option.value.empty()) {
        return ErrorAt(origin, "--section needs a section name: --section=NAME");
      }
      line.selected_sections.push_back(option.value);
    } else if (IsProgramOption(option.name)) {
      line.program_options.push_back(std::move(option));
    } else if (option.name == "name") {
      if (!option.has_value || option.value.empty()) {
        return ErrorAt(origin, "--name needs a job name: --name=NAME");
      }
      FioSection section;
      section.name = option.value;
      section.global = option.value.substr(0, 6) == "global";
      section.origin = origin;
      line.sections.push_back(std::move(section));
    } else {
      if (line.sections.empty()) {
        FioSection global;
        global.name = "global";
        global.global = true;
        global.origin = origin;
        line.sections.push_back(std::move(global));
      }
      line.sections.back().options.push_back(std::move(option));
    }
  }
  return line;
}

Result<std::vector<FioJobOptions>> ResolveJobs(const std::vector<FioSection>& sections,
                                               const std::vector<std::string>& selected) {
  for (const std::string& name : selected) {
    const bool found = std::any_of(sections.begin(), sections.end(), [&](const FioSection& s) {
      return !s.global && s.name == name;
    });
    if (!found) {
      std::string names;
      for (const FioSection& s : sections) {
        if (s.global) continue;
        names += (names.empty() ? "" : ", ") + EscapeControlBytes(s.name);
      }
      return Status::InvalidArgument("--section=" + EscapeControlBytes(name) +
                                     ": no job section of that name (the job sections: " +
                                     (names.empty() ? "none" : names) + ")");
    }
  }
  std::vector<FioRawOption> globals;
  std::vector<FioJobOptions> jobs;
  for (const FioSection& section : sections) {
    if (section.resets_globals) globals.clear();
    if (section.global) {
      globals.insert(globals.end(), section.options.begin(), section.options.end());
      continue;
    }
    if (!selected.empty() &&
        std::find(selected.begin(), selected.end(), section.name) == selected.end()) {
      continue;
    }
    FioJobOptions job;
    job.section_name = section.name;
    job.origin = section.origin;
    job.starts_file = section.starts_file;
    job.options = globals;
    job.global_count = globals.size();
    job.options.insert(job.options.end(), section.options.begin(), section.options.end());
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Result<std::vector<FioJobOptions>> ReadFioJobs(const FioCommandLine& line, const FioParseEnv& env) {
  std::vector<FioSection> sections = line.sections;
  LC_ASSIGN_OR_RETURN(std::vector<FioSection> from_files, ParseJobFiles(line.job_files, env));
  sections.insert(sections.end(), from_files.begin(), from_files.end());
  return ResolveJobs(sections, line.selected_sections);
}

}  // namespace loadcell::fio
