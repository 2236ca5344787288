// The sysbench 1.0 Lua API of LuaScriptWorkload, function by function, on
// SQLite in a temporary folder; and the error paths.

#include "lua/lua_workload.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "runner/recorder.h"
#include "runner/run_config.h"
#include "workloads/oltp_txn.h"

namespace loadcell {
namespace {

class LuaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/loadcell-lua-unit-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    std::string p = dir_ + "/" + name;
    std::ofstream(p) << text;
    return p;
  }
  std::string Read(const std::string& name) {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // Loads `text` as a script and applies `--name=value` options (plus a
  // SQLite file and --out=<dir>/out.txt). Returns the status of Validate.
  Status Load(const std::string& text, std::vector<std::pair<std::string, std::string>> opts = {},
              const std::string& command = "run", int threads = 1) {
    path_ = Write("script.lua", text);
    auto loaded = LoadLuaScript(path_, command, {path_, command});
    if (!loaded.ok()) return loaded.status();
    w_ = std::move(loaded).value();
    general_ = std::make_unique<OptionSet>("General options");
    test_ = std::make_unique<OptionSet>("script options");
    cfg_.RegisterOptions(*general_);
    w_->RegisterOptions(*test_);
    RawOptions raw;
    raw.Add("sqlite-db", dir_ + "/sb.db", true, "test");
    for (auto& [n, v] : opts) raw.Add(n, v, true, "test");
    LC_RETURN_IF_ERROR(general_->Apply(raw));
    LC_RETURN_IF_ERROR(test_->Apply(raw));
    LC_RETURN_IF_ERROR(raw.CheckAllConsumed(""));
    w_->SetGeneralOptions(*general_);
    return w_->Validate(threads);
  }

  Result<std::unique_ptr<Worker>> Worker0(uint64_t seed = 7) {
    ThreadContext ctx;
    ctx.thread_id = 0;
    ctx.seed = seed;
    ctx.recorder = &rec_;
    return w_->NewWorker(ctx);
  }

  std::string OutOption() const { return dir_ + "/out.txt"; }

  std::string dir_;
  std::string path_;
  RunConfig cfg_;
  std::unique_ptr<OptionSet> general_, test_;
  std::unique_ptr<LuaScriptWorkload> w_;
  ThreadRecorder rec_{0};
};

const char kOut[] = R"LUA(
local function out(s)
  local f = assert(io.open(sysbench.opt.out, "a")); f:write(s, "\n"); f:close()
end
)LUA";

TEST_F(LuaTest, OptionsAreTypedFromTheirDefaultsAndDashesEqualUnderscores) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {
  out = {"output file", ""},
  my_flag = {"a bool", false}, my_int = {"an int", 3}, my_real = {"a double", 0.5},
  my_text = {"a string", "x"}, my_list = {"a list", {"a", "b"}},
}
function event() end
function thread_init()
  out(string.format("%s %s %d %.2f %s %s,%s %d", type(sysbench.opt.my_flag),
      tostring(sysbench.opt.my_flag), sysbench.opt.my_int, sysbench.opt.my_real,
      sysbench.opt.my_text, sysbench.opt.my_list[1], sysbench.opt.my_list[2],
      sysbench.opt.threads))
end
)LUA",
                   {{"out", OutOption()}, {"my-flag", "on"}, {"my_int", "42"},
                    {"my-real", "2.25"}, {"my-text", "hello"}, {"my-list", "p,q"}}, "run", 3)
                  .ok());
  ASSERT_TRUE(Worker0().ok());
  EXPECT_EQ(Read("out.txt"), "boolean true 42 2.25 hello p,q 3\n");
  // Typed: a non-number for an int option is refused naming the option.
  Status bad = Load("sysbench.cmdline.options = {n = {'n', 1}}\nfunction event() end\n",
                    {{"n", "abc"}});
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("--n"), std::string::npos) << bad.message();
}

TEST_F(LuaTest, CmdlineFieldsTidAndVersion) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
function thread_init(id)
  out(sysbench.cmdline.command .. " " .. sysbench.cmdline.argv[1] ..
      " " .. tostring(sysbench.cmdline.script_path == sysbench.cmdline.argv[1]) ..
      " " .. sysbench.tid .. " " .. id .. " " .. type(sysbench.version))
end
)LUA",
                   {{"out", OutOption()}})
                  .ok());
  ASSERT_TRUE(Worker0().ok());
  EXPECT_EQ(Read("out.txt"), "run " + path_ + " true 0 0 string\n");
}

TEST_F(LuaTest, RandFunctionsStayInRangeAndFollowTheSeed) {
  const std::string script = std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
function thread_init()
  local r = sysbench.rand
  for _, f in ipairs({r.default, r.uniform, r.gaussian, r.special, r.pareto, r.zipfian}) do
    for i = 1, 200 do
      local v = f(10, 20)
      assert(v >= 10 and v <= 20 and v == math.floor(v), "out of range: " .. v)
    end
  end
  for i = 1, 100 do
    local d = r.uniform_double(); assert(d >= 0 and d < 1)
    assert(r.uniform_uint64() >= 0)
  end
  local seen = {}
  for i = 1, 1000 do
    local u = r.unique(); assert(not seen[u], "unique repeated"); seen[u] = true
  end
  local s = r.string("ab-###-@@@")
  assert(s:match("^ab%-%d%d%d%-%l%l%l$"), "string: " .. s)
  out(r.uniform(1, 1000000) .. " " .. sb_rand(1, 1000000) .. " " .. sb_rand_str("###"))
end
)LUA";
  ASSERT_TRUE(Load(script, {{"out", OutOption()}}).ok());
  ASSERT_TRUE(Worker0(11).ok());
  ASSERT_TRUE(Worker0(11).ok());
  ASSERT_TRUE(Worker0(12).ok());
  std::istringstream lines(Read("out.txt"));
  std::string a, b, c;
  std::getline(lines, a);
  std::getline(lines, b);
  std::getline(lines, c);
  EXPECT_EQ(a, b);  // same seed, same numbers
  EXPECT_NE(a, c);
}

TEST_F(LuaTest, SqlConnectionsStatementsBindsResultsAndCounting) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function prepare()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s TEXT, d DOUBLE)")
  con:bulk_insert_init("INSERT INTO t (id, v, s, d) VALUES")
  for i = 1, 10 do con:bulk_insert_next(string.format("(%d, %d, 'row%d', %d.5)", i, i * 10, i, i)) end
  con:bulk_insert_done()
  con:disconnect()
end
function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
  sel = con:prepare("SELECT v FROM t WHERE id = ?")
  id = sel:bind_create(sysbench.sql.type.INT)
  sel:bind_param(id)
  upd = con:prepare("UPDATE t SET s = ?, d = ? WHERE id = ?")
  b_s = upd:bind_create(sysbench.sql.type.VARCHAR, 20)
  b_d = upd:bind_create(sysbench.sql.type.DOUBLE)
  b_id = upd:bind_create(sysbench.sql.type.INT)
  upd:bind_param(b_s, b_d, b_id)
end
function event()
  id:set(3)
  local rs = sel:execute()
  assert(rs:nrows() == 1, "nrows")
  b_s:set_rand_str("@@@"); b_d:set(7.25); b_id:set(3)
  upd:execute()
  b_id:set(999)
  upd:execute()  -- no row: counted as other
  local s, d = con:query_row("SELECT s, d FROM t WHERE id = 3")
  assert(#s == 3 and tonumber(d) == 7.25, "binds: " .. tostring(s) .. " " .. tostring(d))
  local rs2 = con:query("SELECT id, v FROM t WHERE id <= 2 ORDER BY id")
  assert(rs2:nrows() == 2 and rs2:nfields() == 2)
  local row = rs2:fetch_row()
  assert(row[1] == "1" and row[2] == "10")
  row = rs2:fetch_row(); assert(row[1] == "2")
  assert(rs2:fetch_row() == nil)
  rs2:free()
end
function thread_done()
  sel:close(); upd:close(); con:disconnect()
  out(drv:name())
end
)LUA",
                   {{"out", OutOption()}})
                  .ok());
  PrepareContext pctx;
  ASSERT_TRUE(w_->Prepare(pctx).ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok()) << worker.status().message();
  for (int i = 0; i < 3; ++i) {
    Status s = (*worker)->RunEvent();
    ASSERT_TRUE(s.ok()) << s.message();
  }
  ASSERT_TRUE((*worker)->Finish().ok());
  EXPECT_EQ(Read("out.txt"), "sqlite\n");
  EXPECT_EQ(rec_.counter(kOltpReads), 9u);   // select, query_row, query
  EXPECT_EQ(rec_.counter(kOltpWrites), 3u);  // the update that hit a row
  EXPECT_EQ(rec_.counter(kOltpOthers), 3u);  // the update that hit none
  EXPECT_EQ(rec_.counter(kOltpTransactions), 3u);
}

TEST_F(LuaTest, StatementResultHoldsTheRowCountAndSurvivesFree) {
  ASSERT_TRUE(Load(R"LUA(
function event()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE IF NOT EXISTS r (id INTEGER PRIMARY KEY)")
  con:query("INSERT INTO r VALUES (1), (2), (3)")
  local st = con:prepare("SELECT id FROM r WHERE id <= ?")
  local b = st:bind_create(sysbench.sql.type.INT)
  st:bind_param(b)
  b:set(2)
  local rs = st:execute()
  assert(rs:nrows() == 2, "nrows " .. rs:nrows())
  rs:free()
  b:set(3)
  assert(st:execute():nrows() == 3)
  local ok, err = pcall(function() return st:execute():fetch_row() end)
  assert(not ok and err:find("use con:query"), tostring(err))
  assert(con:query("DELETE FROM r") == nil)
  st:close()
  con:disconnect()
end
)LUA")
                  .ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  Status s = (*worker)->RunEvent();
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST_F(LuaTest, ReconnectKeepsStatementsUsableAndConstantsExist) {
  ASSERT_TRUE(Load(R"LUA(
function event()
  assert(sysbench.sql.type.VARCHAR == 12 and sysbench.sql.type.INT == 3)
  assert(sysbench.sql.error.NONE == 0 and sysbench.sql.error.IGNORABLE == 1 and
         sysbench.sql.error.FATAL == 2)
  assert(sysbench.error.RESTART_EVENT ~= nil and sysbench.cmdline.PARALLEL_COMMAND)
  local con = sysbench.sql.driver("sqlite"):connect()
  local st = con:prepare("SELECT 1")
  con:reconnect()
  assert(st:execute():nrows() == 1)
  con:disconnect()
  local ok, err = pcall(function() return st:execute() end)
  assert(not ok and err:find("closed"), tostring(err))
  ok, err = pcall(function() return sysbench.sql.driver("mysql") end)
  assert(not ok and err:find("not the one selected"), tostring(err))
end
)LUA")
                  .ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  Status s = (*worker)->RunEvent();
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(rec_.counter(kOltpReconnects), 1u);
}

TEST_F(LuaTest, RestartEventRunsTheHookAndCountsAnError) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local n = 0
function sysbench.hooks.before_restart_event(err) out("restart " .. tostring(err.errcode)) end
function event()
  n = n + 1
  if n == 1 then error({errcode = sysbench.error.RESTART_EVENT}) end
end
)LUA",
                   {{"out", OutOption()}})
                  .ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  ASSERT_TRUE((*worker)->RunEvent().ok());
  EXPECT_EQ(Read("out.txt"), "restart 1\n");
  EXPECT_EQ(rec_.errors(), 1u);
  EXPECT_EQ(rec_.counter(kOltpIgnoredErrors), 1u);
  EXPECT_EQ(rec_.counter(kOltpTransactions), 1u);
}

TEST_F(LuaTest, SqlErrorIgnorableHookTurnsAnErrorIntoARestart) {
  ASSERT_TRUE(Load(R"LUA(
local tries = 0
function sysbench.hooks.sql_error_ignorable(err)
  return err.sql_errmsg:find("no such table") ~= nil
end
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  tries = tries + 1
  if tries == 1 then con:query("SELECT * FROM missing_table") end
end
)LUA")
                  .ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  ASSERT_TRUE((*worker)->RunEvent().ok());
  EXPECT_EQ(rec_.errors(), 1u);
}

TEST_F(LuaTest, FatalSqlErrorNamesTheScriptLineAndQuery) {
  ASSERT_TRUE(Load("function thread_init() con = sysbench.sql.driver():connect() end\n"
                   "function event()\n"
                   "  con:query('SELECT * FROM missing_table')\n"
                   "end\n")
                  .ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  Status s = (*worker)->RunEvent();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path_ + ":3:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("missing_table"), std::string::npos) << s.message();
}

TEST_F(LuaTest, SyntaxErrorNamesScriptAndLine) {
  Status s = Load("function event()\n  x = = 1\nend\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("syntax error"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(path_ + ":2:"), std::string::npos) << s.message();
}

TEST_F(LuaTest, RuntimeErrorInEventNamesScriptAndLine) {
  ASSERT_TRUE(Load("function event()\n  local t = nil\n  return t.x\nend\n").ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  Status s = (*worker)->RunEvent();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("event()"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(path_ + ":3:"), std::string::npos) << s.message();
}

TEST_F(LuaTest, ErrorInThreadInitFailsTheWorker) {
  ASSERT_TRUE(Load("function event() end\nfunction thread_init()\n  error('no way')\nend\n").ok());
  auto worker = Worker0();
  ASSERT_FALSE(worker.ok());
  EXPECT_NE(worker.status().message().find("thread_init()"), std::string::npos);
  EXPECT_NE(worker.status().message().find(path_ + ":3: no way"), std::string::npos)
      << worker.status().message();
}

TEST_F(LuaTest, ScriptWithoutEventGetsAClearMessage) {
  ASSERT_TRUE(Load("x = 1\n").ok());
  Status s = w_->Init(1);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("defines no event() function"), std::string::npos) << s.message();
}

TEST_F(LuaTest, MissingScriptIsNotFound) {
  auto r = LoadLuaScript(dir_ + "/nope.lua", "run", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

TEST_F(LuaTest, InitDoneAndThreadDoneAreCalled) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function init() out("init") end
function done() out("done") end
function thread_done() out("thread_done") end
function event() end
)LUA",
                   {{"out", OutOption()}})
                  .ok());
  ASSERT_TRUE(w_->Init(1).ok());
  auto worker = Worker0();
  ASSERT_TRUE(worker.ok());
  ASSERT_TRUE((*worker)->Finish().ok());
  ASSERT_TRUE(w_->Done().ok());
  EXPECT_EQ(Read("out.txt"), "init\nthread_done\ndone\n");
}

TEST_F(LuaTest, CustomAndParallelCommands) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
sysbench.cmdline.commands = {
  hello = {function() out("hello " .. sysbench.cmdline.command) end},
  fan = {function() out("fan " .. sysbench.tid) end, sysbench.cmdline.PARALLEL_COMMAND},
}
)LUA",
                   {{"out", OutOption()}}, "hello")
                  .ok());
  EXPECT_TRUE(w_->HasCommand("hello"));
  EXPECT_FALSE(w_->HasCommand("nothing"));
  PrepareContext ctx;
  ctx.threads = 3;
  ASSERT_TRUE(w_->RunCommand("hello", ctx).ok());
  ASSERT_TRUE(w_->RunCommand("fan", ctx).ok());
  std::string text = Read("out.txt");
  EXPECT_EQ(text.rfind("hello hello\n", 0), 0u) << text;
  for (const char* t : {"fan 0\n", "fan 1\n", "fan 2\n"}) {
    EXPECT_NE(text.find(t), std::string::npos) << text;
  }
  Status none = w_->RunCommand("cleanup", ctx);
  EXPECT_FALSE(none.ok());
  EXPECT_NE(none.message().find("does not implement the 'cleanup' command"), std::string::npos);
}

TEST_F(LuaTest, HelpFunctionTextIsCaptured) {
  ASSERT_TRUE(Load("function event() end\nfunction help() print('my help') end\n", {}, "help").ok());
  EXPECT_EQ(w_->ScriptHelp(), "my help\n");
}

TEST_F(LuaTest, ReportHooksAndReportFunctions) {
  ASSERT_TRUE(Load(R"LUA(
function event() end
function sysbench.hooks.report_intermediate(stat)
  sysbench.report_json(stat)
end
function sysbench.hooks.report_cumulative(stat)
  sysbench.report_csv(stat)
end
)LUA")
                  .ok());
  IntervalSnapshot s;
  s.t_end_s = 2;
  s.duration_s = 1;
  s.threads = 2;
  s.events = 10;
  s.counters.assign(kOltpCounterCount, 0);
  s.counters[kOltpReads] = 30;
  std::string line = w_->IntervalLine(s, 95);
  EXPECT_EQ(line.rfind("{\"time\": 2, \"threads\": 2, \"tps\": 10.00", 0), 0u) << line;
  EXPECT_NE(line.find("\"reads\": 30.00"), std::string::npos) << line;
  EXPECT_EQ(line.find(",}"), std::string::npos);
  EXPECT_EQ(line.substr(line.size() - 2), "}\n");
  RunResult r;
  r.total_time_s = 2;
  r.events = 8;
  r.counters.assign(kOltpCounterCount, 0);
  std::string section = w_->TextSection(r);
  EXPECT_EQ(section.rfind("2,0,4.00,", 0), 0u) << section;
}

TEST_F(LuaTest, ReportDefaultLineWithoutHooks) {
  ASSERT_TRUE(Load(R"LUA(
function event() end
function sysbench.hooks.report_intermediate(stat) sysbench.report_default(stat) end
)LUA")
                  .ok());
  IntervalSnapshot s;
  s.t_end_s = 3;
  s.duration_s = 1;
  s.threads = 1;
  s.events = 5;
  s.counters.assign(kOltpCounterCount, 0);
  EXPECT_EQ(w_->IntervalLine(s, 95).rfind("[ 3s ] thds: 1 tps: 5.00 qps: 0.00", 0), 0u);
}

TEST_F(LuaTest, Histogram) {
  ASSERT_TRUE(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
function thread_init()
  local h = sysbench.histogram.new(100, 1, 1000)
  for i = 1, 99 do h:update(2) end
  h:update(500)
  out(string.format("%.0f %.0f", h:percentile(50), h:percentile(100)))
end
)LUA",
                   {{"out", OutOption()}})
                  .ok());
  ASSERT_TRUE(Worker0().ok());
  std::string t = Read("out.txt");
  int p50 = 0, p100 = 0;
  ASSERT_EQ(std::sscanf(t.c_str(), "%d %d", &p50, &p100), 2) << t;
  EXPECT_EQ(p50, 2);
  EXPECT_GE(p100, 450);
  EXPECT_LE(p100, 550);
}

TEST_F(LuaTest, ScriptSpellings) {
  std::string file = Write("mine.lua", "function event() end\n");
  auto builtin = [](const std::string& n) { return n == "oltp" || n == "oltp_read_write"; };
  EXPECT_TRUE(IsScriptSpelling(file, +builtin));
  EXPECT_TRUE(IsScriptSpelling("/no/such/custom.lua", +builtin));
  EXPECT_FALSE(IsScriptSpelling("/no/such/oltp.lua", +builtin));  // legacy built-in
  EXPECT_FALSE(IsScriptSpelling("cpu", +builtin));
  std::string sb = Write("oltp_read_write.lua", "function event() end\n");
  EXPECT_TRUE(IsScriptSpelling(sb, +builtin));  // an existing file wins
}

}  // namespace
}  // namespace loadcell
