// The table of bad job files (tests/data/fio_bad_jobs/cases.tsv), each run
// through the whole front end: it must be refused with exactly its line.

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fio/fio_options.h"
#include "fio/job_file.h"
#include "testing/status.h"

namespace loadcell::fio {
namespace {

const std::string kBadJobsFolder = std::string(LOADCELL_SOURCE_DIR) + "/tests/data/fio_bad_jobs";

struct BadJobCase {
  std::string name;
  std::string fio_verdict;
  std::string expected;
  std::string job;
};

std::string Unescape(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char c = text[++i];
    out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
  }
  return out;
}

std::vector<BadJobCase> ReadBadJobCases() {
  std::ifstream in(kBadJobsFolder + "/cases.tsv");
  EXPECT_TRUE(in.good()) << kBadJobsFolder;
  std::vector<BadJobCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields;
    std::stringstream row(line);
    for (std::string field; std::getline(row, field, '\t');) fields.push_back(field);
    // Refused by the plan against the folder's files (some given program
    // options in a fifth column): the binary's check.
    const bool plan = fields[0].rfind("plan_", 0) == 0;
    EXPECT_TRUE(fields.size() == 4 || (plan && fields.size() == 5)) << line;
    if (plan || fields.size() != 4) continue;
    cases.push_back(BadJobCase{fields[0], fields[1], fields[2], Unescape(fields[3])});
  }
  return cases;
}

// Job files read from the folder, named by their paths inside it.
FioParseEnv BadJobsEnv() {
  FioParseEnv env;
  env.read_file = [](const std::string& path) -> Result<std::string> {
    std::ifstream in(kBadJobsFolder + "/" + path);
    if (!in) return Status::NotFound("cannot open job file '" + path + "'");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  env.get_env = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
  env.ncpus = 2;
  env.pagesize = 4096;
  env.mb_memory = 1024;
  return env;
}

Status FrontEndStatus(const std::string& job) {
  const FioParseEnv env = BadJobsEnv();
  LC_ASSIGN_OR_RETURN(std::vector<FioSection> sections, ParseJobText(job, "bad.fio", env));
  LC_ASSIGN_OR_RETURN(std::vector<FioJobOptions> jobs, ResolveJobs(sections, {}));
  LC_ASSIGN_OR_RETURN(std::vector<FioJobSpec> specs, BuildFioJobSpecs(jobs));
  return Status::Ok();
}

TEST(FioBadJobs, TheTableHasSixtyUniqueCasesAndFiosVerdicts) {
  const std::vector<BadJobCase> cases = ReadBadJobCases();
  EXPECT_GE(cases.size(), 60U);
  std::set<std::string> names;
  for (const BadJobCase& c : cases) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_TRUE(c.fio_verdict == "refuses" || c.fio_verdict == "warns" ||
                c.fio_verdict == "accepts")
        << c.name << ": " << c.fio_verdict;
  }
}

TEST(FioBadJobs, EachIsRefusedInItsOneLine) {
  for (const BadJobCase& c : ReadBadJobCases()) {
    const Status status = FrontEndStatus(c.job);
    EXPECT_FALSE(status.ok()) << c.name << " was accepted";
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_EQ(status.message(), c.expected) << c.name;
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << c.name;
  }
}

TEST(FioBadJobs, TheJobsAreBadOnlyWhereTheyAreSaidToBe) {
  // Each case's job without its last line is a good job (most cases add
  // their fault on the last line): a check that the table's refusals come
  // from the line they name and not from a second fault beside it.
  int good = 0;
  for (const BadJobCase& c : ReadBadJobCases()) {
    const std::string prefix = "bad.fio:";
    if (c.expected.rfind(prefix, 0) != 0) continue;
    const int line = std::stoi(c.expected.substr(prefix.size()));
    std::vector<std::string> lines;
    std::stringstream job(c.job);
    for (std::string l; std::getline(job, l);) lines.push_back(l);
    if (line != static_cast<int>(lines.size()) || line < 2) continue;
    lines.pop_back();
    std::string rest;
    for (const std::string& l : lines) rest += l + "\n";
    if (rest.find("size=") == std::string::npos && rest.find("filename=") == std::string::npos) {
      continue;
    }
    EXPECT_OK(FrontEndStatus(rest)) << c.name << " without its last line";
    ++good;
  }
  EXPECT_GE(good, 40);
}

}  // namespace
}  // namespace loadcell::fio
