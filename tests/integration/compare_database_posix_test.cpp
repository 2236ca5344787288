// `loadcell compare` of OLTP runs on SQLite through the real binary: the
// database's cache, as the verdict's `database` check records it, is the
// same for two runs on one host (comparable), and a run saved with
// --verdict=off does not record it ("not recorded", not a difference); each
// database fact compare weighs is named when it differs; two Lua scripts'
// runs record their database's settings, and compare names a difference.

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::RunLoadcell;
using testing::Show;
using testing::TempDir;

std::vector<std::string> SqliteOltp(const TempDir& dir, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"oltp_read_only", "--sqlite-db=" + (dir / "s.db"),
                                   "--table-size=1000"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CompareDatabase, TheCacheOfTwoRunsOnOneHostIsTheSameAndUnjudgedIsNotRecorded) {
  TempDir dir;
  ProcessResult r = RunLoadcell(SqliteOltp(dir, {"prepare"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  for (const char* name : {"a", "b"}) {
    r = RunLoadcell(
        SqliteOltp(dir, {"--events=100", "--format=json",
                         "--output-file=" + (dir / (std::string(name) + ".json")), "run"}));
    ASSERT_EQ(r.exit_code, 0) << Show(r);
  }
  r = RunLoadcell(SqliteOltp(dir, {"--events=100", "--verdict=off", "--format=json",
                                   "--output-file=" + (dir / "c.json"), "run"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  r = RunLoadcell({"compare", dir / "a.json", dir / "b.json", dir / "c.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: comparable\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  C: comparable; not recorded: database cache\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  C (" + (dir / "c.json") + "): not judged\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; not judged: C\n"), std::string::npos) << r.out;
}

// The database facts compare weighs, each changed alone in copies of one
// real OLTP result on SQLite: the server, SQLite's two settings, and the
// database's cache as the verdict recorded it.
TEST(CompareDatabase, EachDatabaseFactThatDiffersIsNamedWithBothValues) {
  TempDir dir;
  ProcessResult r = RunLoadcell(SqliteOltp(dir, {"prepare"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  r = RunLoadcell(SqliteOltp(
      dir, {"--events=100", "--format=json", "--output-file=" + (dir / "base.json"), "run"}));
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  const nlohmann::json base = nlohmann::json::parse(testing::ReadFile(dir / "base.json"));
  // Sets the setting `name` of a saved result's manifest.
  const auto setting = [](nlohmann::json& doc, const std::string& name, const std::string& value) {
    for (nlohmann::json& s : doc["manifest"]["database_settings"]) {
      if (s["name"] == name) s["value"] = value;
    }
  };
  struct Edit {
    const char* name;
    std::function<void(nlohmann::json& doc, bool b)> set;
    std::string difference;
  };
  const std::vector<Edit> edits = {
      {"server",
       [&](nlohmann::json& d, bool b) {
         setting(d, "server", b ? "SQLite 3.46.0" : "SQLite 3.40.1");
       },
       "database server SQLite 3.40.1 vs SQLite 3.46.0"},
      {"journal_mode",
       [&](nlohmann::json& d, bool b) { setting(d, "journal_mode", b ? "wal" : "delete"); },
       "journal_mode delete vs wal"},
      {"synchronous",
       [&](nlohmann::json& d, bool b) { setting(d, "synchronous", b ? "OFF" : "FULL"); },
       "synchronous FULL vs OFF"},
      {"database cache",
       [](nlohmann::json& d, bool b) {
         for (nlohmann::json& c : d["validity"]["checks"]) {
           if (c["id"] == "database")
             c["figures"]["cache_bytes"] = b ? (uint64_t{8} << 30) : (uint64_t{4} << 30);
         }
       },
       "database cache 4 GiB vs 8 GiB"},
  };
  ASSERT_EQ(base["manifest"]["database_settings"].size(), 3u) << base["manifest"].dump();
  for (size_t i = 0; i < edits.size(); ++i) {
    SCOPED_TRACE(edits[i].name);
    std::string paths[2];
    for (const bool b : {false, true}) {
      nlohmann::json doc = base;
      // Every setting the same on both sides but the one changed.
      setting(doc, "server", "SQLite 3.40.1");
      setting(doc, "journal_mode", "delete");
      setting(doc, "synchronous", "FULL");
      edits[i].set(doc, b);
      paths[b ? 1 : 0] =
          dir.Write(std::string(b ? "b" : "a") + std::to_string(i) + ".json", doc.dump());
    }
    r = RunLoadcell({"compare", paths[0], paths[1]});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
    EXPECT_NE(r.out.find("  B: not comparable: " + edits[i].difference + "\n"), std::string::npos)
        << r.out;
  }
}

// A Lua script connects only when its threads start, after the run's
// manifest is begun: its database's settings are read after the run, with
// the data set, so that compare of two Lua runs names the one that differs
// rather than "not recorded". SQLite: loadcell's driver asks every file for
// WAL, which an in-memory database cannot keep (its journal stays in memory).
TEST(CompareDatabase, TwoLuaRunsOnSqliteNameTheirSettingsDifference) {
  TempDir dir;
  const std::string script = dir.Write("select.lua",
                                       "function thread_init()\n"
                                       "  con = sysbench.sql.driver():connect()\n"
                                       "end\n"
                                       "function event()\n"
                                       "  con:query(\"SELECT 1\")\n"
                                       "end\n");
  for (const std::string& db : {dir / "file.db", std::string(":memory:")}) {
    const std::string out = db == ":memory:" ? dir / "memory.json" : dir / "file.json";
    const ProcessResult r =
        RunLoadcell({script, "--db-driver=sqlite", "--sqlite-db=" + db, "--events=100",
                     "--format=json", "--output-file=" + out, "run"});
    ASSERT_EQ(r.exit_code, 0) << Show(r);
  }
  const nlohmann::json file = nlohmann::json::parse(testing::ReadFile(dir / "file.json"));
  ASSERT_EQ(file["manifest"]["database_settings"].size(), 3u) << file["manifest"].dump();
  EXPECT_EQ(file["manifest"]["database_settings"][0]["name"], "server");
  EXPECT_EQ(file["manifest"]["database_settings"][1]["value"], "wal");
  ProcessResult r = RunLoadcell({"compare", dir / "file.json", dir / "memory.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: not comparable: journal_mode wal vs memory"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("database settings"), std::string::npos) << r.out;
  // The same result twice: comparable, its settings recorded.
  r = RunLoadcell({"compare", dir / "file.json", dir / "file.json"});
  ASSERT_EQ(r.exit_code, 0) << Show(r);
  EXPECT_NE(r.out.find("  B: comparable"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("database settings"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace loadcell
