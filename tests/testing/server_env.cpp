#include "testing/server_env.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>

namespace loadcell::testing {
namespace {

std::string PrefixOf(const std::string& driver) { return driver == "pgsql" ? "PG" : "MYSQL"; }

constexpr const char* kConnectionVars[] = {"HOST", "PORT", "USER", "PASSWORD", "DB"};

}  // namespace

std::string EnvVar(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  return v != nullptr ? v : "";
}

std::string RequiredServerVar(const std::string& prefix, const std::string& name) {
  const std::string var = "LOADCELL_" + prefix + "_" + name;
  const std::string v = EnvVar(var);
  if (v.empty()) {
    ADD_FAILURE() << var << " is not set: run the tests through `make test` (scripts/run-tests), "
                  << "or start the servers with `scripts/test-servers start ENV_FILE` and "
                  << "source ENV_FILE";
  }
  return v;
}

std::string MissingServerEnv(const std::string& driver) {
  if (driver == "sqlite") return "";
  const std::string p = "LOADCELL_" + PrefixOf(driver) + "_";
  for (const char* v : kConnectionVars) {
    if (EnvVar(p + v).empty()) {
      return p + v +
             " is not set: run the tests with `make test` (scripts/run-tests starts the "
             "throwaway servers), or `scripts/test-servers start` and source its env file";
    }
  }
  return "";
}

OptionPairs ServerOptions(const std::string& driver, const std::string& db) {
  const std::string p = "LOADCELL_" + PrefixOf(driver) + "_";
  return {{"db-driver", driver},
          {driver + "-host", EnvVar(p + "HOST")},
          {driver + "-port", EnvVar(p + "PORT")},
          {driver + "-user", EnvVar(p + "USER")},
          {driver + "-password", EnvVar(p + "PASSWORD")},
          {driver + "-db", db.empty() ? EnvVar(p + "DB") : db}};
}

int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return 0;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  int port = 0;
  if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  close(fd);
  return port;
}

}  // namespace loadcell::testing
