#pragma once
// The throwaway database servers that scripts/test-servers starts (through
// `make test` or scripts/run-tests): their connection settings come from the
// environment, LOADCELL_PG_* for PostgreSQL and LOADCELL_MYSQL_* for
// MariaDB/MySQL (HOST, PORT, USER, PASSWORD, DB; MYSQL_SOCKET). Test helper
// only.

#include <string>
#include <utility>
#include <vector>

namespace loadcell::testing {

// (option name without "--", value) pairs, in order; later entries win.
using OptionPairs = std::vector<std::pair<std::string, std::string>>;

// The value of the environment variable `name`, "" when unset.
std::string EnvVar(const std::string& name);

// The value of LOADCELL_<prefix>_<name> (prefix "PG" or "MYSQL"), or "" with
// a test failure saying how to start the servers.
std::string RequiredServerVar(const std::string& prefix, const std::string& name);

// Empty when every connection variable of `driver` ("pgsql", "mysql") is set
// (always for "sqlite"); otherwise the message a failing test prints.
std::string MissingServerEnv(const std::string& driver);

// The connection options of `driver` ("pgsql" or "mysql"): db-driver, then
// <driver>-host, -port, -user, -password, -db, from the environment;
// database `db` instead of the server's default one when not empty.
OptionPairs ServerOptions(const std::string& driver, const std::string& db = "");

// A TCP port of 127.0.0.1 where nothing listens now (bound, then released);
// 0 when none could be had.
int FreePort();

}  // namespace loadcell::testing
