#pragma once
// A FioParseEnv for the fio front end's tests: job files from a map (path ->
// text), an environment from another, fixed system figures.

#include <map>
#include <optional>
#include <string>

#include "core/status.h"
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

}  // namespace loadcell::testing
