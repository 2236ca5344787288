// `loadcell dbsim`: short runs (2 s) of a small SQLIOSim-style
// configuration through the binary, in a temporary folder: every user runs
// and every page read back is checked; a fault injected through the
// FileSystem seam (the test-only --inject-fault) is named by kind and the
// run exits 1; a bad configuration or a file loadcell did not make is
// refused with exit 2 and nothing written.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "diskspd/diskspd_xml_reader.h"
#include "testing/dbsim_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {
namespace {

// 4 MiB of 8 KiB pages (512) and a 2 MiB log; buffered I/O (a tmpfs takes no
// O_DIRECT), every user present but the bulk update user when `bulk_users`
// is 0 (its rewrites of whole runs would hide an injected fault from the
// audit) and the shrink user (no file is Shrinkable).
std::string DbsimConfigText(const std::string& config_extra, const std::string& random_extra,
                            int bulk_users = 0) {
  return "[CONFIG]\nTestCycles=1\nTestCycleDuration=2\nNoBuffering=FALSE\nWriteThrough=FALSE\n" +
         config_extra + "[RandomUser]\nUserCount=2\nSleepAfter=0\n" + random_extra +
         "[AuditUser]\nUserCount=1\nBuffersValidated=64\nAuditDelay=0\n"
         "[ReadAheadUser]\nUserCount=1\nRADelay=10\n"
         "[BulkUpdateUser]\nUserCount=" +
         std::to_string(bulk_users) +
         "\nBuffersBUMin=8\nBuffersBUMax=32\nBUDelay=20\n"
         "[File1]\nFileName=data.mdx\nInitialSize=4\n"
         "[File2]\nFileName=log.ldx\nInitialSize=2\nLogFile=TRUE\n";
}

ProcessResult Dbsim(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "dbsim");
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

nlohmann::json DbsimJson(const ProcessResult& r) {
  return nlohmann::json::parse(r.out, nullptr, false);
}

// The sum of `figure` (of a user's JSON object) over the users whose name
// starts with `user`.
template <typename Figure>
uint64_t SumOverUsers(const nlohmann::json& doc, const std::string& user, Figure figure) {
  uint64_t sum = 0;
  for (const auto& u : doc["users"]) {
    if (u["name"].get<std::string>().rfind(user, 0) == 0) sum += figure(u);
  }
  return sum;
}

// The number after `label` on the line of `user` in the Users section.
uint64_t UserFigure(const std::string& out, const std::string& user, const std::string& label) {
  const auto at = out.find("  " + user + " (");
  if (at == std::string::npos) return 0;
  // The user's block: its header line and the lines indented under it.
  std::string block;
  std::istringstream lines(out.substr(at));
  std::string line;
  std::getline(lines, line);
  block = line;
  while (std::getline(lines, line) && line.rfind("    ", 0) == 0) block += "\n" + line;
  std::smatch m;
  if (!std::regex_search(block, m, std::regex(label + " ([0-9]+)"))) return 0;
  return std::stoull(m[1]);
}

// The HTML page of a dbsim run holds a row per user and per data file,
// with its counts as the run's JSON `doc` has them, and a row per kind of
// I/O each user did with its count and a p50 and p99 (some of them writes).
void ExpectDbsimRows(const std::string& html, const nlohmann::json& doc) {
  // A row per user and per data file, with its counts as the JSON has them.
  auto num = [](uint64_t n) { return "<td class=\"num\">" + std::to_string(n) + "</td>"; };
  EXPECT_FALSE(doc["users"].empty());
  for (const auto& u : doc["users"]) {
    const auto& io = u["io"];
    const std::string row = "<tr><td>" + u["name"].get<std::string>() + "</td>" +
                            num(io["read"]["count"].get<uint64_t>()) +
                            num(io["scatter_read"]["count"].get<uint64_t>()) +
                            num(io["write"]["count"].get<uint64_t>()) +
                            num(io["gather_write"]["count"].get<uint64_t>()) +
                            num(io["log_write"]["count"].get<uint64_t>());
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
  const std::pair<const char*, const char*> kinds[] = {
      {"read", "reads"},           {"scatter_read", "scatter reads"},
      {"write", "writes"},         {"gather_write", "gather writes"},
      {"log_write", "log writes"}, {"flush", "flushes"}};
  const std::regex percentile("<td class=\"num\">[0-9.]+ (s|ms|µs|ns)</td>");
  size_t write_rows = 0;
  for (const auto& u : doc["users"]) {
    for (const auto& [key, words] : kinds) {
      const uint64_t count = u["io"][key]["count"].get<uint64_t>();
      if (count == 0) continue;
      const std::string row =
          "<tr><td>" + u["name"].get<std::string>() + "</td><td>" + words + "</td>" + num(count);
      const auto at = html.find(row);
      ASSERT_NE(at, std::string::npos) << row;
      // Its p50 and p99 cells: durations, not "-".
      const std::string rest =
          html.substr(at + row.size(), html.find("</tr>", at) - at - row.size());
      EXPECT_EQ(std::distance(std::sregex_iterator(rest.begin(), rest.end(), percentile),
                              std::sregex_iterator()),
                3)
          << row << rest;
      write_rows += std::string(key).find("write") != std::string::npos ? 1 : 0;
    }
  }
  EXPECT_GT(write_rows, 0u);  // a write's percentiles, not only the reads'
  EXPECT_EQ(doc["files"].size(), 1u);
  for (const auto& f : doc["files"]) {
    const std::string row =
        "<tr><td>" + f["name"].get<std::string>() + "</td>" + num(f["reads"].get<uint64_t>()) +
        num(f["scatter_reads"].get<uint64_t>()) + num(f["writes"].get<uint64_t>()) +
        num(f["gather_writes"].get<uint64_t>()) + num(f["flushes"].get<uint64_t>());
    EXPECT_NE(html.find(row), std::string::npos) << row;
  }
  EXPECT_NE(html.find("<h2>Users and files</h2>"), std::string::npos);
}

TEST(DbsimCommand, EveryUserRunsAndEveryPageReadBackIsAsWritten) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", "RandomUserReadWriteRatio=7000\n", 1));
  const ProcessResult r = Dbsim(dir, {"-cfg", "small.ini", "-dir", "."});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("every page read back was the version last written"), std::string::npos)
      << r.out;
  for (const char* user :
       {"random user (2 threads)", "log writer (1 thread)", "checkpoint (1 thread)",
        "read-ahead user (1 thread)", "audit user (1 thread)", "bulk update user (1 thread)"}) {
    EXPECT_NE(r.out.find(user), std::string::npos) << user << "\n" << r.out;
  }
  // The audit read every one of the 512 pages at least once, checked.
  EXPECT_GE(UserFigure(r.out, "audit user", "pages checked"), 512u) << r.out;
  EXPECT_GT(UserFigure(r.out, "read-ahead user", "scatter reads"), 0u) << r.out;
  EXPECT_GT(UserFigure(r.out, "log writer", "log writes"), 0u) << r.out;
  EXPECT_GT(
      UserFigure(r.out, "checkpoint", "writes") + UserFigure(r.out, "checkpoint", "gather writes"),
      0u)
      << r.out;
  EXPECT_GT(UserFigure(r.out, "bulk update user", "gather writes"), 0u) << r.out;
  // Each user's time waited at the throttle (TargetIODuration) is reported.
  size_t throttled = 0;
  for (size_t at = r.out.find("    throttled "); at != std::string::npos;
       at = r.out.find("    throttled ", at + 1)) {
    ++throttled;
  }
  EXPECT_EQ(throttled, 7u) << r.out;  // and the end-of-cycle audit
  EXPECT_NE(r.out.find("data.mdx (file 1, 512 pages)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Verdict:"), std::string::npos) << r.out;
  // The files are loadcell's: the folder's manifest lists them whole.
  const std::string manifest = dir.Read(".loadcell-sqlio.manifest");
  EXPECT_NE(manifest.find("created data.mdx 4194304 bytes by loadcell"), std::string::npos)
      << manifest;
  EXPECT_NE(manifest.find("created log.ldx 2097152 bytes"), std::string::npos) << manifest;
  // A second run replaces its own files without --allow-destructive.
  const ProcessResult again = Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1"});
  EXPECT_EQ(again.exit_code, 0) << Show(again);
}

// SQLIOSim's defaults: unbuffered (O_DIRECT) and write-through (O_DSYNC),
// in the build tree (a tmpfs refuses O_DIRECT).
TEST(DbsimCommand, UnbufferedWriteThroughKeepsEveryPage) {
  TempDir dir(BuildTree());
  std::string config = DbsimConfigText("", "RandomUserReadWriteRatio=7000\n");
  config.replace(config.find("NoBuffering=FALSE\nWriteThrough=FALSE\n"), 37,
                 "NoBuffering=TRUE\nWriteThrough=TRUE\n");
  dir.Write("direct.ini", config);
  const ProcessResult r = Dbsim(dir, {"-cfg", "direct.ini", "-dir", ".", "-d", "1"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("every page read back was the version last written"), std::string::npos)
      << r.out;
  EXPECT_GT(UserFigure(r.out, "log writer", "log writes"), 0u) << r.out;
  // Write-through: the checkpoint needs no flush of its own.
  EXPECT_NE(r.out.find("flushes 0;"), std::string::npos) << r.out;
}

// --format=json: one JSON document on stdout, every user with its I/O,
// the files (with their own I/O as the users timed it) and the page
// checks, agreeing with each other; --report-html the page of the same run.
TEST(DbsimCommand, TheJsonReportIsOneDocumentWithEveryUserAndFile) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", "RandomUserReadWriteRatio=7000\n", 1));
  const ProcessResult r =
      Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "--format=json", "--report-html=run.html"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  // --report-html: the page of the same run, its users and files as rows.
  ExpectDbsimRows(dir.Read("run.html"), doc);
  EXPECT_EQ(doc["test"], "dbsim");
  EXPECT_EQ(doc["page_size"], 8192);
  ASSERT_EQ(doc["users"].size(), 7u) << r.out;  // six users and the audit pass
  uint64_t checked = 0;
  uint64_t scatter = 0;
  for (const auto& u : doc["users"]) {
    checked += u["pages_checked"].get<uint64_t>();
    scatter += u["io"]["scatter_read"]["count"].get<uint64_t>();
    EXPECT_TRUE(u["failure"].is_null()) << u.dump();
    // IOPS: every kind of I/O it timed over its time.
    uint64_t ios = 0;
    for (const auto& [kind, figures] : u["io"].items()) ios += figures["count"].get<uint64_t>();
    const double time_s = u["time_s"].get<double>();
    ASSERT_GT(time_s, 0) << u.dump();
    EXPECT_NEAR(u["iops"].get<double>(), static_cast<double>(ios) / time_s, 1e-6 * (ios + 1))
        << u.dump();
  }
  EXPECT_GE(checked, 512u);
  ASSERT_EQ(doc["files"].size(), 1u);
  EXPECT_EQ(doc["files"][0]["pages"], 512);
  // The file's scatter reads are the users' (the read-ahead's).
  EXPECT_EQ(doc["files"][0]["scatter_reads"].get<uint64_t>(), scatter);
  // Its I/O as the users timed it: every kind but the log's, merged over
  // the users; its rate over the run's time, its percentiles and longest.
  uint64_t file_ios = 0;
  for (const auto& u : doc["users"]) {
    for (const char* kind :
         {"read", "scatter_read", "write", "gather_write", "flush", "grow", "shrink"}) {
      file_ios += u["io"][kind]["count"].get<uint64_t>();
    }
  }
  const auto& file_io = doc["files"][0]["io"];
  EXPECT_GT(file_io["count"].get<uint64_t>(), 0u);
  EXPECT_EQ(file_io["count"].get<uint64_t>(), file_ios);
  EXPECT_LE(file_io["p50_ns"].get<uint64_t>(), file_io["p99_ns"].get<uint64_t>());
  EXPECT_LE(file_io["p99_ns"].get<uint64_t>(), file_io["max_ns"].get<uint64_t>());
  EXPECT_EQ(doc["summary"]["latency_by_kind_ns"]["I/O on data.mdx"]["count"], file_io["count"]);
  const double run_s = doc["summary"]["total_time_s"].get<double>();
  ASSERT_GT(run_s, 0);
  EXPECT_NEAR(doc["files"][0]["iops"].get<double>(), static_cast<double>(file_ios) / run_s,
              1e-6 * (file_ios + 1));
  for (const auto& [kind, n] : doc["files"][0]["failed_pages"].items()) EXPECT_EQ(n, 0) << kind;
  EXPECT_EQ(doc["files"][0]["failed_pages"].size(), 9u);
  EXPECT_EQ(doc["page_checks"]["failed"], 0);
  EXPECT_GT(doc["log"]["bytes_written"].get<uint64_t>(), 0u);
  EXPECT_TRUE(doc["verdict"]["judged"].get<bool>());
}

// --format=json is a run of loadcell's run schema beside dbsim's own
// figures: the summary is every user merged, the manifest holds the
// configuration in force; `loadcell report` makes its page and `loadcell
// compare` puts two runs side by side, naming what differs between them.
TEST(DbsimCommand, TheJsonIsALoadcellResultThatReportAndCompareRead) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", "RandomUserReadWriteRatio=7000\n"));
  std::vector<std::string> results;
  for (const char* page : {"8192", "4096"}) {
    const ProcessResult r = Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1",
                                        std::string("--page-size=") + page, "--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    results.push_back(dir.Write(std::string("p") + page + ".json", r.out));
  }
  const nlohmann::json doc = nlohmann::json::parse(dir.Read("p8192.json"), nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["schema"], "loadcell-result/1");
  EXPECT_EQ(doc["manifest"]["test"], "dbsim");
  EXPECT_TRUE(doc["failure"].is_null()) << doc["failure"].dump();
  uint64_t checked = 0;
  uint64_t threads = 0;
  for (const auto& u : doc["users"]) {
    checked += u["pages_checked"].get<uint64_t>();
    threads += u["threads"].get<uint64_t>();
  }
  EXPECT_GE(checked, 512u);
  EXPECT_EQ(doc["summary"]["counters"]["pages checked"].get<uint64_t>(), checked);
  EXPECT_EQ(doc["threads"].size(), threads);
  EXPECT_EQ(doc["summary"]["metrics"]["failed_pages"]["value"], 0);
  EXPECT_GT(doc["summary"]["metrics"]["io_per_second"]["value"].get<double>(), 0);
  std::map<std::string, std::string> options;
  for (const auto& o : doc["manifest"]["options"]) {
    options[o["name"].get<std::string>()] = o["value"].get<std::string>();
  }
  EXPECT_EQ(options["CONFIG.TestCycleDuration"], "1");
  EXPECT_EQ(options["RandomUser.RandomUserReadWriteRatio"], "7000");
  EXPECT_EQ(options["File1.FileName"], "data.mdx");
  EXPECT_EQ(options["page-size"], "8192");
  ASSERT_EQ(doc["manifest"]["targets"].size(), 1u);
  EXPECT_EQ(doc["manifest"]["targets"][0]["block_bytes"], 8192);
  EXPECT_EQ(doc["manifest"]["targets"][0]["caching"], "buffered");
  EXPECT_TRUE(doc.contains("validity"));

  const ProcessResult page = RunLoadcell({"report", results[0], "-o", dir.File("p.html")});
  ASSERT_EQ(page.exit_code, 0) << Show(page);
  const std::string html = dir.Read("p.html");
  EXPECT_NE(html.find("<h1>loadcell dbsim</h1>"), std::string::npos);
  EXPECT_NE(html.find("pages checked"), std::string::npos);
  EXPECT_NE(html.find("failed checks"), std::string::npos);
  ExpectDbsimRows(html, doc);

  const ProcessResult cmp = RunLoadcell({"compare", results[0], results[1]});
  ASSERT_EQ(cmp.exit_code, 0) << Show(cmp);
  EXPECT_NE(cmp.out.find("Comparing 2 results of test 'dbsim'"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("I/O per sec"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.out.find("failed checks"), std::string::npos) << cmp.out;
  EXPECT_NE(cmp.err.find("--page-size: 8192 in A, 4096 in B"), std::string::npos) << cmp.err;
}

struct InjectedFault {
  const char* option;
  std::vector<const char*> kinds;  // one of them must be named
  const char* reread;              // what the first failure's re-read saw
  const char* never = nullptr;     // a kind that must not be named
  // WriteThrough=TRUE: every acknowledged write is durable, so an old
  // version read is older than the durable key.
  bool write_through = false;
};

// Each fault through the seam, named in the report; the run fails (exit 1).
// Few updates (1%) so that the audit reads a broken page long before a
// later write replaces it; StopOnError=FALSE so that every kind is counted.
TEST(DbsimCommand, AnInjectedFaultIsNamedByKindAndFailsTheRun) {
  const std::vector<InjectedFault> faults = {
      {"drop-write:5", {"lost write", "stale page"}, "too"},
      {"torn-write:5", {"torn page"}, "re-reads failed, the last saw torn page too"},
      // A write misdirected from page P to page Q shows as a misplaced page
      // at Q, or, when Q is written again before any read of it (more often
      // on a loaded machine, with the bulk update users writing too), as
      // the write P lost.
      {"misdirect-write:5", {"misplaced page", "lost write"}, "too"},
      // A stale or unfilled read happens once: its re-read is good, so the
      // old version read is a stale page (the medium holds the expected
      // one), never a lost write, even when its key was flushed (always so
      // with write-through).
      {"stale-read:5", {"stale page"}, "a re-read returned the expected version", "lost write"},
      {"stale-read:5",
       {"stale page"},
       "a re-read returned the expected version",
       "lost write",
       true},
      {"unfilled-read:100", {"bytes not read"}, "a re-read returned the expected version"},
  };
  for (const InjectedFault& f : faults) {
    TempDir dir;
    std::string config = DbsimConfigText("StopOnError=FALSE\n", "RandomUserReadWriteRatio=9900\n");
    if (f.write_through) config.replace(config.find("WriteThrough=FALSE"), 18, "WriteThrough=TRUE");
    dir.Write("fault.ini", config);
    const std::string option = std::string("--inject-fault=") + f.option;
    const ProcessResult r = RunUntilInjectedFaultFires([&dir, &option] {
      return Dbsim(dir, {"-cfg", "fault.ini", "-dir", ".", option});
    });
    EXPECT_EQ(r.exit_code, 1) << f.option << "\n" << Show(r);
    const auto checks = r.out.find("Page checks:");
    ASSERT_NE(checks, std::string::npos) << f.option << "\n" << r.out;
    const std::string section = r.out.substr(checks);
    EXPECT_NE(section.find("  injected fault (" + option + "): fired\n"), std::string::npos)
        << Show(r);
    bool named = false;
    for (const char* kind : f.kinds) {
      named = named || section.find(std::string("  ") + kind + ": ") != std::string::npos;
    }
    EXPECT_TRUE(named) << f.option << "\n" << section;
    if (f.never != nullptr) {
      EXPECT_EQ(section.find(std::string("  ") + f.never + ": "), std::string::npos)
          << f.option << "\n"
          << section;
    }
    const auto first = section.find("first failures:");
    ASSERT_NE(first, std::string::npos) << f.option << "\n" << section;
    const std::string first_line = section.substr(first, section.find('\n', first + 17) - first);
    EXPECT_NE(first_line.find(f.reread), std::string::npos) << f.option << "\n" << first_line;
    EXPECT_EQ(section.find("every page read back"), std::string::npos) << f.option;
  }
}

// A fault that never fired tested nothing: the run says so in one line and
// fails (exit 1) instead of reporting every page good; the JSON holds the
// option and whether it fired, and null in a run without one.
TEST(DbsimCommand, AnInjectedFaultThatNeverFiredFailsTheRunAndSaysSo) {
  TempDir dir;
  dir.Write("fault.ini", DbsimConfigText("StopOnError=FALSE\n", "RandomUserReadWriteRatio=9900\n"));
  const ProcessResult r = Dbsim(dir, {"-cfg", "fault.ini", "-dir", ".", "-d", "1",
                                      "--inject-fault=torn-write:1000000000", "--format=json"});
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_NE(r.err.find("loadcell: error: dbsim: --inject-fault=torn-write:1000000000 never "
                       "fired: the first data file took too few I/Os"),
            std::string::npos)
      << r.err;
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_EQ(doc["page_checks"]["injected_fault"]["option"], "--inject-fault=torn-write:1000000000");
  EXPECT_EQ(doc["page_checks"]["injected_fault"]["fired"], false);
  EXPECT_EQ(doc["page_checks"]["failed"], 0);

  const ProcessResult clean =
      Dbsim(dir, {"-cfg", "fault.ini", "-dir", ".", "-d", "1", "--format=json"});
  ASSERT_EQ(clean.exit_code, 0) << Show(clean);
  const nlohmann::json clean_doc = DbsimJson(clean);
  ASSERT_TRUE(clean_doc["page_checks"].contains("injected_fault")) << clean.out;
  EXPECT_TRUE(clean_doc["page_checks"]["injected_fault"].is_null()) << clean.out;
  EXPECT_EQ(clean.out.find("injected fault"), std::string::npos);
}

// -log: SQLIOSim's XML error log in its layout (its stylesheet, LOG,
// ENTRY with SQLIOSim's attributes, EXTENDED_DESCRIPTION), an ERROR entry
// for every page that failed its check with its file, page, offset, the
// expected and the seen header fields; -save: the configuration the run was given, which a next run
// reads as its -cfg.
TEST(DbsimCommand, AnInjectedFaultIsInTheXmlErrorLogAndSaveWritesTheConfiguration) {
  TempDir dir;
  dir.Write("fault.ini", DbsimConfigText("StopOnError=FALSE\n", "RandomUserReadWriteRatio=9900\n"));
  const ProcessResult r = RunUntilInjectedFaultFires([&dir] {
    return Dbsim(dir, {"-cfg", "fault.ini", "-dir", ".", "-log", "errors.xml", "-save", "saved.ini",
                       "--inject-fault=torn-write:5"});
  });
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  std::string log = dir.Read("errors.xml");
  // SQLIOSim's layout: its stylesheet named, a LOG of ENTRY elements with
  // SQLIOSim's attributes and an EXTENDED_DESCRIPTION each.
  const std::string prolog =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<?xml-stylesheet type=\"text/xsl\" href=\"ErrorLog.xslt\"?>\n";
  ASSERT_EQ(log.rfind(prolog + "<LOG ", 0), 0u) << log;
  // The reader takes no processing instruction but the declaration.
  log.erase(log.find("<?xml-stylesheet"), log.find("<LOG ") - log.find("<?xml-stylesheet"));
  Result<diskspd::XmlElement> doc = diskspd::ReadXmlDocument(log);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << log;
  EXPECT_EQ(doc->name, "LOG");
  size_t entries = 0;
  std::set<std::string> error_pages;  // the PAGE of each ERROR entry
  size_t infos = 0;
  for (const diskspd::XmlElement& e : doc->children) {
    ASSERT_EQ(e.name, "ENTRY") << log;
    for (const char* a : {"TYPE", "TIME", "DATE", "TID", "User", "File", "Line", "Func", "HRESULT",
                          "SYSTEXT", "TIME_MS"}) {
      EXPECT_NE(e.Attribute(a), nullptr) << a << " of the entry on line " << e.line;
    }
    EXPECT_TRUE(std::regex_match(*e.Attribute("TIME"), std::regex("[0-9]{2}:[0-9]{2}:[0-9]{2}")))
        << *e.Attribute("TIME");
    EXPECT_TRUE(std::regex_match(*e.Attribute("DATE"), std::regex("[0-9]{2}/[0-9]{2}/[0-9]{2}")))
        << *e.Attribute("DATE");
    const diskspd::XmlElement* description = nullptr;
    const diskspd::XmlElement* expected = nullptr;
    const diskspd::XmlElement* sector = nullptr;
    for (const diskspd::XmlElement& c : e.children) {
      if (c.name == "EXTENDED_DESCRIPTION") description = &c;
      if (c.name == "EXPECTED") expected = &c;
      if (c.name == "SECTOR") sector = &c;
    }
    ASSERT_NE(description, nullptr) << "entry on line " << e.line;
    EXPECT_FALSE(description->text.empty()) << "entry on line " << e.line;
    if (*e.Attribute("TYPE") == "INFO") {
      ++infos;
      continue;
    }
    // Each page that failed: an ERROR entry with its place (the offset is
    // the page's), what was expected and the torn sector.
    ++entries;
    ASSERT_EQ(*e.Attribute("TYPE"), "ERROR");
    error_pages.insert(*e.Attribute("PAGE"));
    EXPECT_EQ(*e.Attribute("HRESULT"), "0x80070467");
    EXPECT_EQ(*e.Attribute("KIND"), "torn page");
    EXPECT_EQ(*e.Attribute("DATA_FILE"), "data.mdx");
    EXPECT_EQ(*e.Attribute("FILE_ID"), "1");
    EXPECT_EQ(*e.Attribute("PAGE_SIZE"), "8192");
    EXPECT_EQ(std::stoull(*e.Attribute("OFFSET")), std::stoull(*e.Attribute("PAGE")) * 8192);
    ASSERT_NE(expected, nullptr) << "entry on line " << e.line;
    EXPECT_EQ(*expected->Attribute("PAGE"), *e.Attribute("PAGE"));
    EXPECT_NE(sector, nullptr) << "entry on line " << e.line;
    EXPECT_NE(std::stoi(*e.Attribute("TID")), 0) << "a user's thread, not main";
  }
  EXPECT_EQ(infos, 2u) << log;  // the start and "run ended: "
  EXPECT_NE(log.find("run ended: "), std::string::npos) << log;
  // As many ERROR entries as the report counts failed checks, and as many
  // distinct pages in them as it counts pages: the one page torn once, read
  // (and failing) as often as the users read it.
  std::smatch torn;
  ASSERT_TRUE(std::regex_search(
      r.out, torn, std::regex("\n  torn page: ([0-9]+) failed checks? of ([0-9]+) pages?\n")))
      << r.out;
  EXPECT_EQ(entries, std::stoull(torn[1])) << log;
  EXPECT_GE(std::stoull(torn[1]), 1u);
  EXPECT_EQ(torn[2], "1") << r.out;
  EXPECT_EQ(error_pages.size(), 1u) << log;
  // The data file's own line counts them too (the fault is on its I/O).
  const std::string files = r.out.substr(r.out.find("Files:\n"));
  std::smatch in_file;
  ASSERT_TRUE(
      std::regex_search(files, in_file,
                        std::regex("\n    [0-9]+ I/Os, [0-9.]+ IOPS; latency \\(us\\): p50 "
                                   "[0-9.]+, p95 [0-9.]+, p99 [0-9.]+, longest [0-9.]+; "
                                   "throttled [0-9.]+ ms; failed checks: torn page ([0-9]+)\n")))
      << files;
  EXPECT_EQ(in_file[1], torn[1]) << files;
  // The configuration as run, the switches applied, every key spelled out.
  const std::string saved = dir.Read("saved.ini");
  EXPECT_NE(saved.find("\nStopOnError=FALSE\n"), std::string::npos) << saved;
  EXPECT_NE(saved.find("\nTestCycleDuration=2\n"), std::string::npos) << saved;
  EXPECT_NE(saved.find("\nRandomUserReadWriteRatio=9900\n"), std::string::npos) << saved;
  EXPECT_NE(saved.find("[File1]\nFileName=data.mdx\nInitialSize=4\n"), std::string::npos) << saved;
  EXPECT_NE(saved.find("[File2]\nFileName=log.ldx\nInitialSize=2\n"), std::string::npos) << saved;
  // It reads as a configuration: the next command goes past it to the
  // -log refused for being one of the run's files (nothing run).
  const ProcessResult again = Dbsim(dir, {"-cfg", "saved.ini", "-dir", ".", "-log", "data.mdx"});
  EXPECT_EQ(again.exit_code, 2) << Show(again);
  EXPECT_NE(again.err.find("-log data.mdx: that is the run's file data.mdx"), std::string::npos)
      << again.err;
}

// The bulk update user and the shrink user beside the others: a Shrinkable
// file shrinks and grows every few milliseconds by 1 to 2 increments of
// 1 MB while every other user reads and writes it; no page shrunk away is
// reported lost, every page grown back is written and checked, and the
// files, resized, stay loadcell's for the next run.
TEST(DbsimCommand, BulkUpdateAndShrinkUsersRunBesideTheOthersAndEveryPageIsKept) {
  TempDir dir;
  std::string config = DbsimConfigText("", "RandomUserReadWriteRatio=7000\n", 1);
  config.replace(config.find("[File1]\nFileName=data.mdx\nInitialSize=4\n"), 40,
                 "[ShrinkUser]\nMinShrinkInterval=0\nMaxShrinkInterval=0\nMinExtends=1\n"
                 "MaxExtends=2\n"
                 "[File1]\nFileName=data.mdx\nInitialSize=4\nMaxSize=6\nIncrement=1\n"
                 "Shrinkable=TRUE\n");
  dir.Write("shrink.ini", config);
  const ProcessResult r = Dbsim(dir, {"-cfg", "shrink.ini", "-dir", ".", "-d", "3"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("every page read back was the version last written"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("shrink user (1 thread)"), std::string::npos) << r.out;
  EXPECT_GT(UserFigure(r.out, "shrink user", "pages grown"), 0u) << r.out;
  EXPECT_GT(UserFigure(r.out, "shrink user", "pages shrunk"), 0u) << r.out;
  EXPECT_GT(UserFigure(r.out, "bulk update user", "gather writes"), 0u) << r.out;
  EXPECT_GT(UserFigure(r.out, "audit user", "pages checked"), 0u) << r.out;
  EXPECT_NE(r.out.find("data.mdx (file 1, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("times from 512 pages"), std::string::npos) << r.out;
  // Resized, the file is still loadcell's: the next run replaces it.
  const ProcessResult again =
      Dbsim(dir, {"-cfg", "shrink.ini", "-dir", ".", "-d", "1", "--format=json"});
  ASSERT_EQ(again.exit_code, 0) << Show(again);
  const nlohmann::json doc = nlohmann::json::parse(again.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << again.out;
  ASSERT_EQ(doc["files"].size(), 1u);
  EXPECT_TRUE(doc["files"][0]["shrinkable"].get<bool>());
  EXPECT_EQ(doc["files"][0]["capacity_pages"], 768);
  EXPECT_GT(doc["files"][0]["grows"].get<uint64_t>() + doc["files"][0]["shrinks"].get<uint64_t>(),
            0u);
  EXPECT_EQ(doc["page_checks"]["failed"], 0);
  // A journal cannot follow a resized file yet: refused, nothing written.
  const ProcessResult journal = Dbsim(dir, {"-cfg", "shrink.ini", "-dir", ".", "--journal=j.txt"});
  EXPECT_EQ(journal.exit_code, 2) << Show(journal);
  EXPECT_NE(journal.err.find("--journal with a Shrinkable or Sparse file"), std::string::npos)
      << journal.err;
}

// [ShrinkUser]'s keys, each row a 3 s cycle of its own: a resize comes
// every MinShrinkInterval..MaxShrinkInterval seconds and moves the file's
// end by MinExtends..MaxExtends increments of 1 MB (128 pages). The data
// file starts at 12 MB and may grow to 24: three resizes of up to 3
// increments never reach either end, so no resize is cut short.
struct ShrinkKeysCase {
  const char* name;
  const char* keys;
  uint64_t min_resizes;
  uint64_t max_resizes;
  uint64_t min_extends;
  uint64_t max_extends;
};

TEST(DbsimKeys, ShrinkIntervalAndExtendsShowInTheResizes) {
  const ShrinkKeysCase cases[] = {
      {"an interval of 1 s: a resize each second, each of exactly 2 increments",
       "MinShrinkInterval=1\nMaxShrinkInterval=1\nMinExtends=2\nMaxExtends=2\n", 2, 3, 2, 2},
      {"an interval of 1 s, 1 to 3 increments each",
       "MinShrinkInterval=1\nMaxShrinkInterval=1\nMinExtends=1\nMaxExtends=3\n", 2, 3, 1, 3},
      {"an interval of 30 s: no resize in a 3 s cycle",
       "MinShrinkInterval=30\nMaxShrinkInterval=30\nMinExtends=2\nMaxExtends=2\n", 0, 0, 2, 2},
  };
  constexpr uint64_t kIncrementPages = 128;
  for (const ShrinkKeysCase& c : cases) {
    SCOPED_TRACE(c.name);
    TempDir dir;
    std::string config = DbsimConfigText("", "");
    config.replace(config.find("TestCycleDuration=2"), 19, "TestCycleDuration=3");
    config.replace(config.find("[File1]\nFileName=data.mdx\nInitialSize=4\n"), 40,
                   std::string("[ShrinkUser]\n") + c.keys +
                       "[File1]\nFileName=data.mdx\nInitialSize=12\nMaxSize=24\nIncrement=1\n"
                       "Shrinkable=TRUE\n");
    dir.Write("shrink.ini", config);
    const ProcessResult r = Dbsim(dir, {"-cfg", "shrink.ini", "-dir", ".", "--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = DbsimJson(r);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    const uint64_t resizes = SumOverUsers(doc, "shrink user", [](const nlohmann::json& u) {
      return u["io"]["grow"]["count"].get<uint64_t>() + u["io"]["shrink"]["count"].get<uint64_t>();
    });
    const uint64_t pages_moved = SumOverUsers(doc, "shrink user", [](const nlohmann::json& u) {
      return u["pages_grown"].get<uint64_t>() + u["pages_shrunk"].get<uint64_t>();
    });
    EXPECT_GE(resizes, c.min_resizes) << r.out;
    EXPECT_LE(resizes, c.max_resizes) << r.out;
    ASSERT_EQ(doc["files"].size(), 1u) << r.out;
    EXPECT_EQ(doc["files"][0]["grows"].get<uint64_t>() + doc["files"][0]["shrinks"].get<uint64_t>(),
              resizes)
        << r.out;
    // Each resize moved the end by MinExtends..MaxExtends increments.
    EXPECT_GE(pages_moved, resizes * c.min_extends * kIncrementPages) << r.out;
    EXPECT_LE(pages_moved, resizes * c.max_extends * kIncrementPages) << r.out;
    EXPECT_EQ(doc["page_checks"]["failed"], 0) << r.out;
  }
}

// YieldPercentage: the share of a random user's page accesses after which
// it yields the CPU, counted per user as `yields`. Reads only (no update
// waits on a log that may close at the end), so that every access is a
// read or a cache hit and ends with its yield, or none.
TEST(DbsimKeys, YieldPercentageIsTheShareOfAccessesThatYield) {
  struct Row {
    int yield_percentage;
    double min_share;
    double max_share;
  };
  for (const Row& row : {Row{0, 0, 0}, Row{5000, 0.35, 0.65}, Row{10000, 1, 1}}) {
    SCOPED_TRACE(row.yield_percentage);
    TempDir dir;
    dir.Write("yield.ini", DbsimConfigText("", "RandomUserReadWriteRatio=10000\nYieldPercentage=" +
                                                   std::to_string(row.yield_percentage) + "\n"));
    const ProcessResult r =
        Dbsim(dir, {"-cfg", "yield.ini", "-dir", ".", "-d", "1", "--format=json"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    const nlohmann::json doc = DbsimJson(r);
    ASSERT_FALSE(doc.is_discarded()) << r.out;
    const uint64_t accesses = SumOverUsers(doc, "random user", [](const nlohmann::json& u) {
      return u["cache_hits"].get<uint64_t>() + u["io"]["read"]["count"].get<uint64_t>();
    });
    auto yields_of = [](const nlohmann::json& u) { return u["yields"].get<uint64_t>(); };
    const uint64_t yields = SumOverUsers(doc, "random user", yields_of);
    EXPECT_EQ(SumOverUsers(doc, "", yields_of), yields) << r.out;  // only a random user yields
    ASSERT_GE(accesses, 200u) << r.out;
    const double share = static_cast<double>(yields) / static_cast<double>(accesses);
    EXPECT_GE(share, row.min_share) << yields << " of " << accesses;
    EXPECT_LE(share, row.max_share) << yields << " of " << accesses;
  }
}

// Affinity and IOAffinity: a mask naming a CPU this process may not run on
// (this machine has far fewer than 31) is refused in one line naming the
// key, exit 2, nothing made; IOAffinity on CPU 0 with I/O helpers
// (--user-depth 3) runs and every page checks.
TEST(DbsimKeys, AnAffinityMaskNamingACpuThisProcessLacksIsRefused) {
  for (const char* key : {"Affinity", "IOAffinity"}) {
    SCOPED_TRACE(key);
    TempDir dir;
    dir.Write("cpu.ini", DbsimConfigText(std::string(key) + "=1073741824\n", ""));
    const ProcessResult r = Dbsim(dir, {"-cfg", "cpu.ini", "-dir", "."});
    EXPECT_EQ(r.exit_code, 2) << Show(r);
    EXPECT_NE(r.err.find(std::string("dbsim: [CONFIG] ") + key +
                         "=1073741824 names CPU 30, which this process may not run on"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/data.mdx"));
  }
  TempDir dir;
  dir.Write("io.ini", DbsimConfigText("IOAffinity=1\n", "RandomUserReadWriteRatio=7000\n"));
  const ProcessResult r =
      Dbsim(dir, {"-cfg", "io.ini", "-dir", ".", "-d", "1", "--user-depth=3", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_GT(doc["page_checks"]["verified_pages"].get<uint64_t>(), 0u) << r.out;
  EXPECT_EQ(doc["page_checks"]["failed"], 0) << r.out;
}

// SQLIOSim's meaning of keys the first part only accepted: every update
// rolled back (RollbackChance=10000) writes no log record and dirties no
// page; with ForceReadAhead=FALSE and every page cached (CacheHitRatio) the
// read-ahead reads nothing; StampFiles zeroes the files before their pages
// are stamped, and every page still checks.
TEST(DbsimCommand, RollbacksLogNothingAndCachedReadAheadIsSkipped) {
  TempDir dir;
  dir.Write("keys.ini",
            DbsimConfigText("CacheHitRatio=10000\nForceReadAhead=FALSE\nStampFiles=TRUE\n"
                            "TargetIODuration=1\nMaxOutstandingIO=2\n",
                            "RandomUserReadWriteRatio=0\nRollbackChance=10000\n"));
  const ProcessResult r = Dbsim(dir, {"-cfg", "keys.ini", "-dir", ".", "-d", "1", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  std::map<std::string, nlohmann::json> users;
  for (const auto& u : doc["users"]) users[u["name"].get<std::string>()] = u;
  ASSERT_EQ(users.count("random user"), 1u) << r.out;
  EXPECT_GT(users["random user"]["rollbacks"].get<uint64_t>(), 0u);
  EXPECT_EQ(users["log writer"]["io"]["log_write"]["count"], 0);
  EXPECT_EQ(users["checkpoint"]["bytes_written"], 0);
  EXPECT_EQ(users["read-ahead user"]["io"]["scatter_read"]["count"], 0);
  EXPECT_GT(users["read-ahead user"]["cache_hits"].get<uint64_t>(), 0u);
  EXPECT_GE(users["end-of-cycle audit"]["pages_checked"].get<uint64_t>(), 512u);
  for (const auto& [name, u] : users) EXPECT_TRUE(u.contains("throttled_ns")) << name;
  EXPECT_EQ(doc["page_checks"]["failed"], 0);
}

// The time I/Os waited at the throttle (TargetIODuration, MaxOutstandingIO)
// is each data file's too: over two data files, the files' waits add up to
// the users' exactly (every throttled I/O is on a data file when there is no
// doublewrite area), in the JSON, the text and the HTML.
TEST(DbsimCommand, EachFilesThrottledTimeAddsUpToTheUsers) {
  TempDir dir;
  std::string config = DbsimConfigText("TargetIODuration=1\nMaxOutstandingIO=1\n",
                                       "RandomUserReadWriteRatio=5000\n", 1);
  config += "[File3]\nFileName=more.mdx\nInitialSize=4\n";
  dir.Write("throttle.ini", config);
  const ProcessResult r = Dbsim(dir, {"-cfg", "throttle.ini", "-dir", ".", "-d", "2",
                                      "--format=json", "--report-html=page.html"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  uint64_t users = 0;
  for (const auto& u : doc["users"]) users += u["throttled_ns"].get<uint64_t>();
  uint64_t files = 0;
  ASSERT_EQ(doc["files"].size(), 2u);
  for (const auto& f : doc["files"]) {
    ASSERT_TRUE(f.contains("throttled_ns")) << f.dump();
    files += f["throttled_ns"].get<uint64_t>();
  }
  EXPECT_GT(users, 0u) << "MaxOutstandingIO=1 with 4 random users: some I/O waited";
  EXPECT_EQ(files, users);
  // The HTML's data file rows: the throttled cell (after the name and 11
  // figures) a duration where the file waited, "-" where it did not.
  const std::string page = dir.Read("page.html");
  const std::regex cell("<td[^>]*>([^<]*)</td>");
  size_t waited = 0;
  for (const auto& f : doc["files"]) {
    const std::string name = f["name"].get<std::string>();
    const auto at = page.find("<tr><td>" + name + "</td>", page.find("<h3>Data files</h3>"));
    ASSERT_NE(at, std::string::npos) << name;
    const std::string row = page.substr(at, page.find("</tr>", at) - at);
    std::vector<std::string> cells;
    for (auto it = std::sregex_iterator(row.begin(), row.end(), cell); it != std::sregex_iterator();
         ++it) {
      cells.push_back((*it)[1]);
    }
    ASSERT_EQ(cells.size(), 14u) << row;
    if (f["throttled_ns"].get<uint64_t>() > 0) {
      ++waited;
      EXPECT_TRUE(std::regex_match(cells[12], std::regex("[0-9.]+ (s|ms|µs|ns)"))) << row;
    } else {
      EXPECT_EQ(cells[12], "-") << row;
    }
  }
  EXPECT_GT(waited, 0u) << "the files' throttled time adds up to the users', above 0";
}

TEST(DbsimCommand, ABadConfigurationIsRefusedBeforeAnythingIsWritten) {
  TempDir dir;
  dir.Write("bad.ini", "[CONFIG]\nTestCycles=1\n[RandomUser]\nUserCount=2\nSpeed=3\n");
  const ProcessResult r = Dbsim(dir, {"-cfg", "bad.ini", "-dir", "."});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("bad.ini:5: unknown key 'Speed' in [RandomUser]"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  std::vector<std::string> entries;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    entries.push_back(e.path().filename().string());
  }
  EXPECT_EQ(entries, std::vector<std::string>{"bad.ini"});
}

TEST(DbsimCommand, AFileLoadcellDidNotMakeIsRefusedAndKept) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", ""));
  dir.Write("data.mdx", "the user's own data");
  const ProcessResult r = Dbsim(dir, {"-cfg", "small.ini", "-dir", "."});
  EXPECT_EQ(r.exit_code, 2) << Show(r);
  EXPECT_NE(r.err.find("loadcell did not create it"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--allow-destructive"), std::string::npos) << r.err;
  EXPECT_EQ(dir.Read("data.mdx"), "the user's own data");
}

// The verdict of the run is every user's: each check at its gravest over the
// users (the text's one block, the JSON's `validity`), each user's own in
// its JSON; --verdict=off judges nothing, strict exits 3 only on INVALID.
TEST(DbsimCommand, TheVerdictIsEveryUsersAndFollowsTheVerdictOption) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", "RandomUserReadWriteRatio=7000\n"));
  const ProcessResult r =
      Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const auto gravity = [](const std::string& level) {
    return level == "invalid" ? 3 : level == "warn" ? 2 : level == "not_checked" ? 1 : 0;
  };
  ASSERT_GE(doc["users"].size(), 5u) << r.out;
  std::map<std::string, int> gravest;  // by check id, over the users
  for (const auto& u : doc["users"]) {
    ASSERT_TRUE(u.contains("validity")) << u.dump();
    for (const auto& c : u["validity"]["checks"]) {
      int& g = gravest[c["id"].get<std::string>()];
      g = std::max(g, gravity(c["level"].get<std::string>()));
    }
  }
  const nlohmann::json& merged = doc["validity"];
  ASSERT_EQ(merged["checks"].size(), gravest.size()) << merged.dump();
  for (const auto& c : merged["checks"]) {
    EXPECT_EQ(gravity(c["level"].get<std::string>()), gravest[c["id"].get<std::string>()])
        << c.dump();
  }
  EXPECT_EQ(doc["verdict"]["overall"], merged["overall"]);

  const ProcessResult strict =
      Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1", "--verdict=strict"});
  const size_t block = strict.out.find("\nValidity (");
  ASSERT_NE(block, std::string::npos) << Show(strict);
  EXPECT_EQ(strict.out.find("\nValidity (", block + 1), std::string::npos) << strict.out;
  if (strict.out.find("\nVerdict: INVALID (") == std::string::npos) {
    EXPECT_EQ(strict.exit_code, 0) << Show(strict);
  } else {
    EXPECT_EQ(strict.exit_code, 3) << Show(strict);
  }

  const ProcessResult off =
      Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1", "--verdict=off", "--format=json"});
  ASSERT_EQ(off.exit_code, 0) << Show(off);
  const nlohmann::json none = nlohmann::json::parse(off.out, nullptr, false);
  EXPECT_FALSE(none["verdict"]["judged"].get<bool>()) << off.out;
  EXPECT_FALSE(none.contains("validity")) << off.out;
  for (const auto& u : none["users"]) EXPECT_FALSE(u.contains("validity")) << u.dump();

  const ProcessResult bad = Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "--verdict=maybe"});
  EXPECT_EQ(bad.exit_code, 2) << Show(bad);
  EXPECT_NE(bad.err.find("dbsim: --verdict=maybe: the verdict is off, on or strict"),
            std::string::npos)
      << bad.err;
}

// The configuration's keys and -size, each seen in what the run did.

// -size MB: every data file starts at MB and may grow to twice that, the
// log is half a data file.
TEST(DbsimKeys, TheSizeOptionSetsTheDataAndTheLogFiles) {
  TempDir dir;
  dir.Write("small.ini", DbsimConfigText("", ""));
  const ProcessResult r =
      Dbsim(dir, {"-cfg", "small.ini", "-dir", ".", "-d", "1", "-size", "6", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  ASSERT_EQ(doc["files"].size(), 1u) << r.out;
  EXPECT_EQ(doc["files"][0]["initial_pages"], 768);  // 6 MiB of 8 KiB pages
  EXPECT_EQ(doc["files"][0]["capacity_pages"], 1536);
  const std::string manifest = dir.Read(".loadcell-sqlio.manifest");
  EXPECT_NE(manifest.find("created data.mdx 6291456 bytes"), std::string::npos) << manifest;
  EXPECT_NE(manifest.find("created log.ldx 3145728 bytes"), std::string::npos) << manifest;
}

// UseScatterGather=FALSE: the read-ahead and the writers still move runs of
// pages, one page per I/O.
TEST(DbsimKeys, WithoutScatterGatherEveryPageIsItsOwnIo) {
  TempDir dir;
  dir.Write("plain.ini", DbsimConfigText("UseScatterGather=FALSE\n",
                                         "RandomUserReadWriteRatio=7000\n", /*bulk_users=*/1));
  const ProcessResult r = Dbsim(dir, {"-cfg", "plain.ini", "-dir", ".", "--format=json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  uint64_t read_ahead_bytes = 0;
  for (const auto& u : doc["users"]) {
    EXPECT_EQ(u["io"]["scatter_read"]["count"], 0) << u.dump();
    EXPECT_EQ(u["io"]["gather_write"]["count"], 0) << u.dump();
    if (u["name"].get<std::string>().rfind("read-ahead", 0) == 0) {
      read_ahead_bytes += u["bytes_read"].get<uint64_t>();
    }
  }
  EXPECT_GT(read_ahead_bytes, 0u) << r.out;
  EXPECT_EQ(doc["files"][0]["scatter_reads"], 0);
  EXPECT_EQ(doc["files"][0]["gather_writes"], 0);
  EXPECT_GT(doc["files"][0]["reads"].get<uint64_t>(), 0u);
  EXPECT_GT(doc["files"][0]["writes"].get<uint64_t>(), 0u);
}

// DeleteFilesAtShutdown=TRUE: the files the run made are gone after it,
// what else is in the folder stays.
TEST(DbsimKeys, DeleteFilesAtShutdownRemovesOnlyTheFilesItMade) {
  TempDir dir;
  dir.Write("gone.ini", DbsimConfigText("DeleteFilesAtShutdown=TRUE\n", ""));
  dir.Write("mine.txt", "a user's file");
  const ProcessResult r = Dbsim(dir, {"-cfg", "gone.ini", "-dir", ".", "-d", "1"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/data.mdx"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/log.ldx"));
  EXPECT_EQ(dir.Read("mine.txt"), "a user's file");
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/gone.ini"));
  // Kept without it.
  dir.Write("kept.ini", DbsimConfigText("DeleteFilesAtShutdown=FALSE\n", ""));
  const ProcessResult kept = Dbsim(dir, {"-cfg", "kept.ini", "-dir", ".", "-d", "1"});
  ASSERT_EQ(kept.exit_code, 0) << Show(kept);
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/data.mdx"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/log.ldx"));
}

// StopOnError=TRUE: the first failed check ends the run, long before its
// time; FALSE goes on to the end (AnInjectedFaultIsNamedByKindAndFailsTheRun).
TEST(DbsimKeys, StopOnErrorEndsTheRunAtTheFirstFailure) {
  TempDir dir;
  std::string config = DbsimConfigText("StopOnError=TRUE\n", "RandomUserReadWriteRatio=9900\n");
  config.replace(config.find("TestCycleDuration=2"), 19, "TestCycleDuration=30");
  dir.Write("stop.ini", config);
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult r = RunUntilInjectedFaultFires([&dir] {
    return Dbsim(dir,
                 {"-cfg", "stop.ini", "-dir", ".", "--inject-fault=torn-write:5", "--format=json"});
  });
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_GE(doc["page_checks"]["by_kind"]["torn page"].get<uint64_t>(), 1u) << r.out;
  // The failed checks above; the distinct pages: the one torn.
  EXPECT_EQ(doc["page_checks"]["pages_by_kind"]["torn page"], 1) << r.out;
  EXPECT_EQ(doc["page_checks"]["pages_failed"], 1) << r.out;
  EXPECT_EQ(doc["page_checks"]["pages_by_kind"]["lost write"], 0) << r.out;
  EXPECT_EQ(doc["page_checks"]["injected_fault"]["fired"], true) << r.out;
  // A 30 s cycle ended by the failure: no user ran its time out.
  for (const auto& u : doc["users"]) EXPECT_LT(u["time_s"].get<double>(), 25.0) << u.dump();
  EXPECT_LT(took, 25.0);
}

// StopOnError=FALSE: a failed check stops no one; every user runs its whole
// 2 s cycle and the end-of-cycle audit still reads every page.
TEST(DbsimKeys, StopOnErrorFalseRunsEveryUsersWholeCycle) {
  TempDir dir;
  dir.Write("go.ini", DbsimConfigText("StopOnError=FALSE\n", "RandomUserReadWriteRatio=9900\n"));
  const ProcessResult r = RunUntilInjectedFaultFires([&dir] {
    return Dbsim(dir,
                 {"-cfg", "go.ini", "-dir", ".", "--inject-fault=torn-write:5", "--format=json"});
  });
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  const nlohmann::json doc = DbsimJson(r);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  EXPECT_GE(doc["page_checks"]["by_kind"]["torn page"].get<uint64_t>(), 1u) << r.out;
  EXPECT_EQ(doc["page_checks"]["injected_fault"]["fired"], true) << r.out;
  bool audited = false;
  for (const auto& u : doc["users"]) {
    if (u["name"] == "end-of-cycle audit") {
      audited = true;
      EXPECT_GE(u["pages_checked"].get<uint64_t>(), 512u) << u.dump();
      continue;
    }
    EXPECT_GE(u["time_s"].get<double>(), 1.9) << u.dump();
  }
  EXPECT_TRUE(audited) << r.out;
}

}  // namespace
}  // namespace loadcell::testing
