// A run of several jobs in loadcell's schema (WriteJobsDocument): the
// total's document with each job's and group's, read back by the reader
// into ResultData's parts, and every member it adds documented.

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/json/json_reader.h"
#include "report/reporter.h"
#include "testing/report_fixture.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

// Two jobs (the fixture's result, the second with twice its events) in
// group 0 and their group.
std::string TwoJobsDocument() {
  testing::FakeWorkload w;
  const RunResult one = testing::FixtureResult();
  RunResult two = testing::FixtureResult();
  two.events *= 2;
  const std::vector<JobPart> jobs = {{"reader", 0, 1, &one}, {"writer", 0, 1, &two}};
  const std::vector<JobPart> groups = {{"group 0", 0, 2, &one}};
  std::ostringstream out;
  WriteJobsDocument(out, one, jobs, groups, w, testing::FixtureSettings());
  return out.str();
}

TEST(JobsDocumentTest, EachPartReadsBackWithItsJob) {
  Result<ResultData> r = ParseResultJson(TwoJobsDocument(), "run.json");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->events, testing::FixtureResult().events);
  ASSERT_EQ(r->jobs.size(), 2u);
  ASSERT_EQ(r->groups.size(), 1u);
  EXPECT_EQ(r->jobs[0].job_name, "reader");
  EXPECT_EQ(r->jobs[1].job_name, "writer");
  EXPECT_EQ(r->jobs[1].events, 2 * testing::FixtureResult().events);
  EXPECT_EQ(r->groups[0].job_name, "group 0");
  EXPECT_EQ(r->groups[0].job_instances, 2);
  EXPECT_EQ(r->jobs[0].job_group, 0);
  // A part's own histogram and verdict.
  EXPECT_FALSE(r->jobs[1].histogram.empty());
  EXPECT_EQ(r->jobs[1].validity.judged, r->validity.judged);
  // A run of one workload has no parts.
  EXPECT_TRUE(r->jobs[0].jobs.empty());
}

TEST(JobsDocumentTest, ABrokenPartIsNamedByItsPlace) {
  std::string text = TwoJobsDocument();
  // The second job's name made a number.
  const size_t at = text.find("\"name\": \"writer\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 16, "\"name\": 7");
  Result<ResultData> r = ParseResultJson(text, "run.json");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("jobs[1].job.name: expected a string"), std::string::npos)
      << r.status().message();
}

TEST(JobsDocumentTest, TheMembersItAddsAreDocumented) {
  const std::string doc =
      testing::ReadFile(std::string(LOADCELL_SOURCE_DIR) + "/docs/json-schema.md");
  for (const char* field : {"`jobs`", "`groups`", "`jobs[].job`", "`groups[].job`"}) {
    EXPECT_NE(doc.find(field), std::string::npos) << field;
  }
}

}  // namespace
}  // namespace loadcell
