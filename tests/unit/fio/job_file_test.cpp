#include "fio/job_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/fio_test_env.h"
#include "testing/status.h"

namespace loadcell::fio {
namespace {

using loadcell::testing::FakeFioFiles;
using ::testing::HasSubstr;

std::vector<FioSection> SectionsOf(const std::string& text, const FakeFioFiles& files = {}) {
  Result<std::vector<FioSection>> r = ParseJobText(text, "jobs/main.fio", files.Env());
  EXPECT_OK(r);
  return r.ok() ? *r : std::vector<FioSection>{};
}

std::string ReadErrorOf(const std::string& text, const FakeFioFiles& files = {}) {
  Result<std::vector<FioSection>> r = ParseJobText(text, "jobs/main.fio", files.Env());
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << "one line";
  return r.status().message();
}

TEST(ParseJobText, SectionsOptionsValuesAndOrigins) {
  auto s = SectionsOf("[global]\nioengine=libaio\n\n[seq-read]\nrw=read\ntime_based\n");
  ASSERT_EQ(s.size(), 2U);
  EXPECT_EQ(s[0].name, "global");
  EXPECT_TRUE(s[0].global);
  EXPECT_EQ(s[0].origin.line, 1);
  ASSERT_EQ(s[0].options.size(), 1U);
  EXPECT_EQ(s[0].options[0].name, "ioengine");
  EXPECT_EQ(s[0].options[0].value, "libaio");
  EXPECT_TRUE(s[0].options[0].has_value);
  EXPECT_EQ(s[1].name, "seq-read");
  EXPECT_FALSE(s[1].global);
  ASSERT_EQ(s[1].options.size(), 2U);
  EXPECT_EQ(s[1].options[1].name, "time_based");
  EXPECT_FALSE(s[1].options[1].has_value);
  EXPECT_EQ(s[1].options[1].origin.file, "jobs/main.fio");
  EXPECT_EQ(s[1].options[1].origin.line, 6);
  EXPECT_EQ(FormatOrigin(s[1].options[1].origin), "jobs/main.fio:6");
}

TEST(ParseJobText, CommentsAndWhiteSpaceAsFio) {
  auto s = SectionsOf(
      "; a comment\n# another\n  [job]   ; trailing\n\t bs = 4k  # inline\nsize=1m;x\n"
      "  ;indented comment\r\nfilename=/dev/null\r\n");
  ASSERT_EQ(s.size(), 1U);
  EXPECT_EQ(s[0].name, "job");
  ASSERT_EQ(s[0].options.size(), 3U);
  EXPECT_EQ(s[0].options[0].name, "bs");
  EXPECT_EQ(s[0].options[0].value, "4k");
  EXPECT_EQ(s[0].options[1].value, "1m");
  EXPECT_EQ(s[0].options[2].value, "/dev/null");  // the CR is stripped
  EXPECT_EQ(s[0].options[2].origin.line, 7);
}

TEST(ParseJobText, EmptyValueIsAValue) {
  auto s = SectionsOf("[job]\ndescription=\n");
  ASSERT_EQ(s.size(), 1U);
  ASSERT_EQ(s[0].options.size(), 1U);
  EXPECT_TRUE(s[0].options[0].has_value);
  EXPECT_EQ(s[0].options[0].value, "");
}

TEST(ParseJobText, GlobalIsAnySectionStartingWithGlobalAsFio) {
  auto s = SectionsOf("[global-defaults]\nbs=8k\n[globe]\n");
  ASSERT_EQ(s.size(), 2U);
  EXPECT_TRUE(s[0].global);
  EXPECT_FALSE(s[1].global);
}

TEST(ParseJobText, BadSectionsAndStrayOptions) {
  EXPECT_EQ(ReadErrorOf("rw=read\n[job]\n"),
            "jobs/main.fio:1: option 'rw=read' comes before any [section]: every option belongs "
            "to a [global] or job section");
  EXPECT_THAT(ReadErrorOf("[job\nrw=read\n"), HasSubstr("jobs/main.fio:1: section header '[job'"));
  EXPECT_THAT(ReadErrorOf("\n[]\n"), HasSubstr("jobs/main.fio:2: a section without a name"));
  EXPECT_THAT(ReadErrorOf("[" + std::string(256, 'x') + "]\n"), HasSubstr("longer than 255 bytes"));
  EXPECT_THAT(ReadErrorOf("[job]\n=4k\n"), HasSubstr("jobs/main.fio:2: an option line without"));
}

TEST(ParseJobText, IncludeIsRelativeToTheIncludingFile) {
  FakeFioFiles files;
  files.files["jobs/common/base.fio"] = "ioengine=psync\ninclude more.fio\n";
  files.files["jobs/common/more.fio"] = "; nested\niodepth=4\n";
  auto s = SectionsOf("[global]\ninclude common/base.fio\nbs=8k\n[job]\n", files);
  ASSERT_EQ(s.size(), 2U);
  ASSERT_EQ(s[0].options.size(), 3U);
  EXPECT_EQ(s[0].options[0].name, "ioengine");
  EXPECT_EQ(s[0].options[0].origin.file, "jobs/common/base.fio");
  EXPECT_EQ(s[0].options[0].origin.line, 1);
  EXPECT_EQ(s[0].options[1].name, "iodepth");
  EXPECT_EQ(s[0].options[1].origin.file, "jobs/common/more.fio");
  EXPECT_EQ(s[0].options[1].origin.line, 2);
  EXPECT_EQ(s[0].options[2].name, "bs");
  EXPECT_EQ(s[0].options[2].origin.file, "jobs/main.fio");
}

TEST(ParseJobText, IncludePathsAreNormalisedWithSlashes) {
  // On Windows too, where a path joins with '\\': one spelling for
  // messages and for the loop check.
  FakeFioFiles files;
  files.files["jobs/x.fio"] = "bs=8k\n";
  auto s = SectionsOf("[job]\ninclude sub/../x.fio\n", files);
  ASSERT_EQ(s.size(), 1U);
  ASSERT_EQ(s[0].options.size(), 1U);
  EXPECT_EQ(s[0].options[0].origin.file, "jobs/x.fio");
}

TEST(ParseJobText, IncludeAbsolutePath) {
  FakeFioFiles files;
  files.files["/etc/fio/base.fio"] = "rw=write\n";
  auto s = SectionsOf("[job]\ninclude /etc/fio/base.fio\n", files);
  ASSERT_EQ(s.size(), 1U);
  ASSERT_EQ(s[0].options.size(), 1U);
  EXPECT_EQ(s[0].options[0].value, "write");
}

TEST(ParseJobText, IncludeErrors) {
  FakeFioFiles files;
  files.files["jobs/loop.fio"] = "include ./loop2.fio\n";
  files.files["jobs/loop2.fio"] = "include loop.fio\n";
  files.files["jobs/self.fio"] = "include main.fio\n";
  files.files["jobs/sections.fio"] = "bs=4k\n[other]\n";
  EXPECT_EQ(ReadErrorOf("[job]\ninclude loop.fio\n", files),
            "jobs/loop2.fio:1: include 'jobs/loop.fio' is a loop: that file is already being read");
  EXPECT_THAT(ReadErrorOf("[job]\ninclude self.fio\n", files),
              HasSubstr("jobs/self.fio:1: include 'jobs/main.fio' is a loop"));
  EXPECT_EQ(ReadErrorOf("[job]\ninclude sections.fio\n", files),
            "jobs/sections.fio:2: a section header in an included file: fio allows only option "
            "lines there");
  EXPECT_THAT(ReadErrorOf("[job]\ninclude missing.fio\n", files),
              HasSubstr("jobs/main.fio:2: include: cannot open job file 'jobs/missing.fio'"));
  EXPECT_THAT(ReadErrorOf("include base.fio\n[job]\n", files), HasSubstr("before any [section]"));
  EXPECT_EQ(ReadErrorOf("[job]\ninclude\n", files),
            "jobs/main.fio:2: include without a file name: write include FILE");
}

TEST(ParseJobText, IncludeDepthIsBounded) {
  FakeFioFiles files;
  for (int i = 0; i < 40; ++i) {
    files.files["jobs/d" + std::to_string(i) + ".fio"] =
        "include d" + std::to_string(i + 1) + ".fio\n";
  }
  EXPECT_THAT(ReadErrorOf("[job]\ninclude d0.fio\n", files), HasSubstr("nested deeper than 16"));
}

TEST(ParseJobText, EnvironmentVariables) {
  FakeFioFiles files;
  files.environment["SIZE"] = "64m";
  files.environment["DEV"] = "/dev/loop0";
  auto s = SectionsOf("[job]\nsize=${SIZE}\nfilename=${DEV}:${UNSET}x\nname=${SIZE\n", files);
  ASSERT_EQ(s.size(), 1U);
  ASSERT_EQ(s[0].options.size(), 3U);
  EXPECT_EQ(s[0].options[0].value, "64m");
  EXPECT_EQ(s[0].options[1].value, "/dev/loop0:x");  // an unset variable is empty, as fio
  EXPECT_EQ(s[0].options[2].value, "${SIZE");        // no closing brace: kept
}

TEST(ParseJobText, KeywordsAndTheirArithmetic) {
  auto s = SectionsOf(
      "[job]\nbs=$pagesize\nsize=8*$mb_memory\nnumjobs=$ncpus/2\nbsrange=$pagesize-16k\n");
  ASSERT_EQ(s.size(), 1U);
  ASSERT_EQ(s[0].options.size(), 4U);
  EXPECT_EQ(s[0].options[0].value, "4096");
  EXPECT_EQ(s[0].options[1].value, "16384");
  EXPECT_EQ(s[0].options[2].value, "2");
  EXPECT_EQ(s[0].options[3].value, "4096-16k");  // not an integer expression: left as replaced
}

TEST(ParseJobText, AnUnknownKeywordFigureIsRefused) {
  FakeFioFiles files;
  FioParseEnv env = files.Env();
  env.mb_memory = 0;
  Result<std::vector<FioSection>> r = ParseJobText("[job]\nsize=$mb_memory\n", "a.fio", env);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "a.fio:2: fio keyword '$mb_memory' is not known on this system");
}

TEST(ParseJobFiles, LaterFilesStartWithAStonewall) {
  FakeFioFiles files;
  files.files["a.fio"] = "[a1]\n[a2]\n";
  files.files["b.fio"] = "[global]\nbs=8k\n[b1]\n[b2]\n";
  Result<std::vector<FioSection>> r = ParseJobFiles({"a.fio", "b.fio"}, files.Env());
  ASSERT_OK(r);
  ASSERT_EQ(r->size(), 5U);
  EXPECT_FALSE((*r)[0].starts_file);
  EXPECT_FALSE((*r)[1].starts_file);
  EXPECT_FALSE((*r)[2].starts_file);  // the global section
  EXPECT_TRUE((*r)[3].starts_file);
  EXPECT_FALSE((*r)[4].starts_file);
  EXPECT_FALSE((*r)[0].resets_globals);
  EXPECT_TRUE((*r)[2].resets_globals);  // b.fio's first section, a global one
  EXPECT_FALSE((*r)[3].resets_globals);
}

TEST(ParseJobFiles, EachLaterFileStartsFromFiosDefaults) {
  FakeFioFiles files;
  files.files["a.fio"] = "[global]\nbs=8k\n[a1]\n";
  files.files["b.fio"] = "[b1]\nrw=write\n[global]\niodepth=2\n[b2]\n";
  Result<std::vector<FioSection>> r = ParseJobFiles({"a.fio", "b.fio"}, files.Env());
  ASSERT_OK(r);
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(*r, {});
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 3U);
  EXPECT_EQ((*jobs)[0].options.size(), 1U);  // a.fio's bs
  ASSERT_EQ((*jobs)[1].options.size(), 1U);  // b1: its own rw only
  EXPECT_EQ((*jobs)[1].options[0].name, "rw");
  ASSERT_EQ((*jobs)[2].options.size(), 1U);  // b2: b.fio's iodepth
  EXPECT_EQ((*jobs)[2].options[0].name, "iodepth");
}

TEST(ParseJobFiles, AMissingFileIsNamed) {
  FakeFioFiles files;
  Result<std::vector<FioSection>> r = ParseJobFiles({"nope.fio"}, files.Env());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("nope.fio"));
}

TEST(ResolveJobs, GlobalsApplyToTheJobsAfterThem) {
  auto s = SectionsOf("[global]\nbs=8k\n[a]\nrw=read\n[global]\nbs=16k\niodepth=4\n[b]\n");
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(s, {});
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 2U);
  const FioJobOptions& a = (*jobs)[0];
  EXPECT_EQ(a.section_name, "a");
  ASSERT_EQ(a.options.size(), 2U);
  EXPECT_EQ(a.options[0].value, "8k");
  EXPECT_EQ(a.options[1].name, "rw");
  const FioJobOptions& b = (*jobs)[1];
  ASSERT_EQ(b.options.size(), 3U);  // bs=8k, bs=16k (the later wins), iodepth=4
  EXPECT_EQ(b.options[0].value, "8k");
  EXPECT_EQ(b.options[1].value, "16k");
  EXPECT_EQ(b.options[2].name, "iodepth");
  EXPECT_EQ(b.origin.line, 8);
}

TEST(ResolveJobs, SectionSelection) {
  auto s = SectionsOf("[global]\nbs=8k\n[a]\n[b]\nrw=write\n[c]\n");
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(s, {"c", "b"});
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 2U);
  EXPECT_EQ((*jobs)[0].section_name, "b");  // in the file's order
  EXPECT_EQ((*jobs)[1].section_name, "c");
  EXPECT_EQ((*jobs)[1].options.size(), 1U);  // the global bs
  Result<std::vector<FioJobOptions>> none = ResolveJobs(s, {"d"});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "--section=d: no job section of that name (the job sections: a, b, c)");
}

TEST(ParseFioCommandLine, OptionsBeforeTheFirstNameAreGlobal) {
  FakeFioFiles files;
  Result<FioCommandLine> line = ParseFioCommandLine(
      {"--ioengine=libaio", "--name=a", "--rw=randread", "--time_based", "job.fio", "--name=b",
       "--bs=8k", "--output-format=json", "--section=a", "--output=out.json"},
      files.Env());
  ASSERT_OK(line);
  EXPECT_THAT(line->job_files, ::testing::ElementsAre("job.fio"));
  EXPECT_THAT(line->selected_sections, ::testing::ElementsAre("a"));
  ASSERT_EQ(line->program_options.size(), 2U);
  EXPECT_EQ(line->program_options[0].name, "output-format");
  EXPECT_EQ(line->program_options[0].value, "json");
  ASSERT_EQ(line->sections.size(), 3U);
  EXPECT_TRUE(line->sections[0].global);
  ASSERT_EQ(line->sections[0].options.size(), 1U);
  EXPECT_EQ(line->sections[0].options[0].name, "ioengine");
  EXPECT_EQ(line->sections[1].name, "a");
  ASSERT_EQ(line->sections[1].options.size(), 2U);
  EXPECT_FALSE(line->sections[1].options[1].has_value);
  EXPECT_EQ(FormatOrigin(line->sections[1].options[0].origin), "command line argument 3");
  EXPECT_EQ(line->sections[2].name, "b");
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(line->sections, {});
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 2U);
  EXPECT_EQ((*jobs)[1].options.size(), 2U);  // ioengine, bs
}

TEST(ReadFioJobs, CommandLineJobsThenFilesWithTheGlobalsOfBoth) {
  FakeFioFiles files;
  files.files["a.fio"] = "[global]\nrw=write\n[a1]\n[a2]\nbs=16k\n";
  files.files["b.fio"] = "[b1]\n";
  Result<FioCommandLine> line =
      ParseFioCommandLine({"--bs=8k", "a.fio", "--name=cli", "--iodepth=4", "b.fio", "--section=a2",
                           "--section=b1", "--section=cli"},
                          files.Env());
  ASSERT_OK(line);
  Result<std::vector<FioJobOptions>> jobs = ReadFioJobs(*line, files.Env());
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 3U);
  EXPECT_EQ((*jobs)[0].section_name, "cli");
  ASSERT_EQ((*jobs)[0].options.size(), 2U);  // bs=8k (global), iodepth=4
  EXPECT_FALSE((*jobs)[0].starts_file);
  EXPECT_EQ((*jobs)[1].section_name, "a2");
  ASSERT_EQ((*jobs)[1].options.size(), 3U);  // bs=8k (command line), rw=write, bs=16k
  EXPECT_EQ((*jobs)[1].options[0].origin.command_line, true);
  EXPECT_EQ((*jobs)[1].options[2].value, "16k");
  EXPECT_FALSE((*jobs)[1].starts_file);  // a1 was first in a.fio (and the first file has none)
  EXPECT_EQ((*jobs)[2].section_name, "b1");
  EXPECT_TRUE((*jobs)[2].starts_file);
  // A later file starts from fio's defaults: neither the command line's
  // globals nor a.fio's reach it.
  EXPECT_TRUE((*jobs)[2].options.empty());
}

TEST(ParseFioCommandLine, NameGlobalStartsAGlobalSection) {
  FakeFioFiles files;
  Result<FioCommandLine> line =
      ParseFioCommandLine({"--name=a", "--name=global", "--bs=8k", "--name=b"}, files.Env());
  ASSERT_OK(line);
  Result<std::vector<FioJobOptions>> jobs = ResolveJobs(line->sections, {});
  ASSERT_OK(jobs);
  ASSERT_EQ(jobs->size(), 2U);
  EXPECT_TRUE((*jobs)[0].options.empty());
  EXPECT_EQ((*jobs)[1].options.size(), 1U);
}

TEST(ParseFioCommandLine, Refusals) {
  FakeFioFiles files;
  for (const auto& [args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--name="}, "command line argument 1: --name needs a job name: --name=NAME"},
           {{"--name=a", "--section"},
            "command line argument 2: --section needs a section name: "
            "--section=NAME"},
           {{"-x"}, "command line argument 1: '-x': fio's options are --NAME=VALUE or --NAME"},
       }) {
    Result<FioCommandLine> line = ParseFioCommandLine(args, files.Env());
    ASSERT_FALSE(line.ok()) << message;
    EXPECT_EQ(line.status().message(), message);
  }
}

}  // namespace
}  // namespace loadcell::fio
