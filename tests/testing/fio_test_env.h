#pragma once
// A FioParseEnv for the fio front end's tests: job files from a map (path ->
// text), an environment from another, fixed system figures; and the whole
// front end on a job file's text. Only unit_fio (which links loadcell_fio)
// includes it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "fio/fio_options.h"
#include "fio/job_file.h"

namespace loadcell::testing {

struct FakeFioFiles {
  std::map<std::string, std::string> files;
  std::map<std::string, std::string> environment;

  // The env reads this object's maps: it must outlive the env.
  fio::FioParseEnv Env() const {
    fio::FioParseEnv env;
    env.read_file = [this](const std::string& path) -> Result<std::string> {
      auto it = files.find(path);
      if (it == files.end()) return Status::NotFound("cannot open job file '" + path + "'");
      return it->second;
    };
    env.get_env = [this](const std::string& name) -> std::optional<std::string> {
      auto it = environment.find(name);
      if (it == environment.end()) return std::nullopt;
      return it->second;
    };
    env.ncpus = 4;
    env.pagesize = 4096;
    env.mb_memory = 2048;
    return env;
  }
};

// The FioJobSpecs of job file `text` (named `path`) through the whole front
// end: read, globals resolved, options applied and checked.
inline Result<std::vector<fio::FioJobSpec>> FioSpecsOf(const std::string& text,
                                                       const FakeFioFiles& files = {},
                                                       const std::string& path = "t.fio") {
  const fio::FioParseEnv env = files.Env();
  LC_ASSIGN_OR_RETURN(std::vector<fio::FioSection> sections, fio::ParseJobText(text, path, env));
  LC_ASSIGN_OR_RETURN(std::vector<fio::FioJobOptions> jobs, fio::ResolveJobs(sections, {}));
  return fio::BuildFioJobSpecs(jobs);
}

}  // namespace loadcell::testing
