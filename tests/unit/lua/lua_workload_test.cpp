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
#include "runner/runner.h"
#include "testing/status.h"
#include "testing/temp_dir.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {
namespace {

class LuaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty());
  }

  std::string Write(const std::string& name, const std::string& text) {
    return tmp_.Write(name, text);
  }
  std::string Read(const std::string& name) { return tmp_.Read(name); }

  // Loads `text` as a script and applies `--name=value` options (plus a
  // SQLite file and --out=<dir>/out.txt), and `undeclared` as options the
  // script does not declare. Returns the status of Validate.
  Status Load(const std::string& text,
              const std::vector<std::pair<std::string, std::string>>& opts = {},
              const std::string& command = "run", int threads = 1,
              const std::vector<std::pair<std::string, std::string>>& undeclared = {}) {
    path_ = Write("script.lua", text);
    RawOptions raw;
    raw.Add("sqlite-db", dir_ + "/sb.db", true, "test");
    for (auto& [n, v] : opts) raw.Add(n, v, true, "test");
    auto loaded = LoadLuaScript(path_, command, {path_, command}, &raw);
    if (!loaded.ok()) return loaded.status();
    w_ = std::move(loaded).value();
    general_ = std::make_unique<OptionSet>("General options");
    test_ = std::make_unique<OptionSet>("script options");
    cfg_.RegisterOptions(*general_);
    w_->RegisterOptions(*test_);
    LC_RETURN_IF_ERROR(general_->Apply(raw));
    LC_RETURN_IF_ERROR(test_->Apply(raw));
    LC_RETURN_IF_ERROR(raw.CheckAllConsumed(""));
    w_->SetGeneralOptions(*general_);
    if (!undeclared.empty()) w_->SetUndeclaredOptions(undeclared);
    return w_->Validate(threads);
  }

  // Runs one event on a new worker; its status.
  Status OneEvent() {
    auto worker = Worker0();
    if (!worker.ok()) return worker.status();
    return (*worker)->RunEvent();
  }

  Result<std::unique_ptr<Worker>> Worker0(uint64_t seed = 7) {
    ThreadContext ctx;
    ctx.thread_id = 0;
    ctx.seed = seed;
    ctx.recorder = &rec_;
    return w_->NewWorker(ctx);
  }

  std::string OutOption() const { return dir_ + "/out.txt"; }

  testing::TempDir tmp_;
  std::string dir_;  // tmp_.path()
  std::string path_;
  RunConfig cfg_;
  std::unique_ptr<OptionSet> general_, test_;
  std::unique_ptr<LuaScriptWorkload> w_;
  ThreadRecorder rec_{0};
};

// Binary mode: the same bytes on Windows, where text mode writes "\r\n".
const char kOut[] = R"LUA(
local function out(s)
  local f = assert(io.open(sysbench.opt.out, "ab")); f:write(s, "\n"); f:close()
end
)LUA";

TEST_F(LuaTest, OptionsAreTypedFromTheirDefaultsAndDashesEqualUnderscores) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
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
                 {{"out", OutOption()},
                  {"my-flag", "on"},
                  {"my_int", "42"},
                  {"my-real", "2.25"},
                  {"my-text", "hello"},
                  {"my-list", "p,q"}},
                 "run", 3));
  ASSERT_OK(Worker0());
  EXPECT_EQ(Read("out.txt"), "boolean true 42 2.25 hello p,q 3\n");
  // Typed: a non-number for an int option is refused naming the option.
  Status bad =
      Load("sysbench.cmdline.options = {n = {'n', 1}}\nfunction event() end\n", {{"n", "abc"}});
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("--n"), std::string::npos) << bad.message();
}

TEST_F(LuaTest, CmdlineFieldsTidAndVersion) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
function thread_init(id)
  out(sysbench.cmdline.command .. " " .. sysbench.cmdline.argv[1] ..
      " " .. tostring(sysbench.cmdline.script_path == sysbench.cmdline.argv[1]) ..
      " " .. sysbench.tid .. " " .. id .. " " .. type(sysbench.version))
end
)LUA",
                 {{"out", OutOption()}}));
  ASSERT_OK(Worker0());
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
  ASSERT_OK(Load(script, {{"out", OutOption()}}));
  ASSERT_OK(Worker0(11));
  ASSERT_OK(Worker0(11));
  ASSERT_OK(Worker0(12));
  std::istringstream lines(Read("out.txt"));
  std::string a, b, c;
  std::getline(lines, a);
  std::getline(lines, b);
  std::getline(lines, c);
  EXPECT_EQ(a, b);  // same seed, same numbers
  EXPECT_NE(a, c);
}

TEST_F(LuaTest, SqlConnectionsStatementsBindsResultsAndCounting) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
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
  assert(rs.nrows == 1 and rs.nfields == 1, "nrows")
  assert(rs:fetch_row()[1] == "30" and rs:fetch_row() == nil, "statement row")
  b_s:set_rand_str("@@@"); b_d:set(7.25); b_id:set(3)
  upd:execute()
  b_id:set(999)
  upd:execute()  -- no row: counted as other
  local s, d = con:query_row("SELECT s, d FROM t WHERE id = 3")
  assert(#s == 3 and tonumber(d) == 7.25, "binds: " .. tostring(s) .. " " .. tostring(d))
  local rs2 = con:query("SELECT id, v FROM t WHERE id <= 2 ORDER BY id")
  assert(rs2.nrows == 2 and rs2.nfields == 2)
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
                 {{"out", OutOption()}}));
  PrepareContext pctx;
  ASSERT_OK(w_->Prepare(pctx));
  auto worker = Worker0();
  ASSERT_OK(worker);
  for (int i = 0; i < 3; ++i) {
    Status s = (*worker)->RunEvent();
    ASSERT_OK(s);
  }
  ASSERT_OK((*worker)->Finish());
  EXPECT_EQ(Read("out.txt"), "sqlite\n");
  EXPECT_EQ(rec_.counter(kOltpReads), 9u);   // select, query_row, query
  EXPECT_EQ(rec_.counter(kOltpWrites), 3u);  // the update that hit a row
  EXPECT_EQ(rec_.counter(kOltpOthers), 3u);  // the update that hit none
  EXPECT_EQ(rec_.counter(kOltpTransactions), 3u);
}

// sysbench 1.0.20: a statement's execute() returns a result with nrows,
// nfields, fetch_row() and free(); one object, filled again by each execution.
TEST_F(LuaTest, StatementResultsHaveRowsFieldsAndFree) {
  ASSERT_OK(Load(R"LUA(
function event()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE IF NOT EXISTS r (id INTEGER PRIMARY KEY, s TEXT)")
  con:query("INSERT INTO r VALUES (1, 'a'), (2, NULL), (3, 'c')")
  local st = con:prepare("SELECT id, s FROM r WHERE id <= ? ORDER BY id")
  local b = st:bind_create(sysbench.sql.type.INT)
  st:bind_param(b)
  b:set(2)
  local rs = st:execute()
  assert(rs.nrows == 2 and rs.nfields == 2, "nrows " .. rs.nrows .. " nfields " .. rs.nfields)
  local row = rs:fetch_row()
  assert(row[1] == "1" and row[2] == "a", "row 1")
  row = rs:fetch_row()
  assert(row[1] == "2" and row[2] == nil, "row 2: NULL is nil")
  assert(rs:fetch_row() == nil, "end")
  rs:free()
  local ok, err = pcall(function() return rs.nrows end)
  assert(not ok and err:find("result was freed"), tostring(err))
  b:set(3)
  local rs3 = st:execute()
  assert(rs3 == rs and rs3.nrows == 3 and rs3:fetch_row()[2] == "a", "reused and refilled")
  b:set(0)
  rs = st:execute()
  assert(rs.nrows == 0 and rs.nfields == 2 and rs:fetch_row() == nil, "no rows, still fields")
  -- A statement without a result set: nrows = rows changed, no fields.
  local del = con:prepare("DELETE FROM r WHERE id >= ?")
  local d = del:bind_create(sysbench.sql.type.INT)
  del:bind_param(d)
  d:set(2)
  rs = del:execute()
  assert(rs.nrows == 2 and rs.nfields == 0 and rs:fetch_row() == nil, "delete " .. rs.nrows)
  rs = con:query("DELETE FROM r")
  assert(rs.nrows == 1 and rs.nfields == 0, "query delete " .. rs.nrows)
  -- A query() result set is an object of its own, freed for good.
  local q = con:query("SELECT 7, 'x'")
  assert(q.nrows == 1 and q.nfields == 2 and q:fetch_row()[2] == "x")
  q:free()
  ok, err = pcall(function() return q:fetch_row() end)
  assert(not ok and err:find("result was freed"), tostring(err))
  del:close()
  st:close()
  con:disconnect()
end
)LUA"));
  auto worker = Worker0();
  ASSERT_OK(worker);
  Status s = (*worker)->RunEvent();
  EXPECT_OK(s);
}

TEST_F(LuaTest, ReconnectKeepsStatementsUsableAndConstantsExist) {
  ASSERT_OK(Load(R"LUA(
function event()
  assert(sysbench.sql.type.VARCHAR == 12 and sysbench.sql.type.INT == 3)
  assert(sysbench.sql.error.NONE == 0 and sysbench.sql.error.IGNORABLE == 1 and
         sysbench.sql.error.FATAL == 2)
  assert(sysbench.error.RESTART_EVENT ~= nil and sysbench.cmdline.PARALLEL_COMMAND)
  local con = sysbench.sql.driver("sqlite"):connect()
  local st = con:prepare("SELECT 1")
  con:reconnect()
  assert(st:execute().nrows == 1)
  con:disconnect()
  local ok, err = pcall(function() return st:execute() end)
  assert(not ok and err:find("closed"), tostring(err))
  ok, err = pcall(function() return sysbench.sql.driver("mysql") end)
  assert(not ok and err:find("not the one selected"), tostring(err))
end
)LUA"));
  auto worker = Worker0();
  ASSERT_OK(worker);
  Status s = (*worker)->RunEvent();
  EXPECT_OK(s);
  EXPECT_EQ(rec_.counter(kOltpReconnects), 1u);
}

// sysbench's event loop: a value other than nil or false from event() ends
// the thread's events, and that event is not counted.
TEST_F(LuaTest, EventReturningATrueValueEndsTheThread) {
  const char* kStops[] = {"0", "1", "true", "{}", "'x'"};
  for (const char* value : kStops) {
    ASSERT_OK(Load(std::string("function event() return ") + value + " end\n"));
    auto worker = Worker0();
    ASSERT_OK(worker);
    Status s = (*worker)->RunEvent();
    EXPECT_TRUE(IsEndOfWork(s)) << value << ": " << s.ToString();
    EXPECT_EQ(rec_.counter(kOltpTransactions), 0u) << value;
  }
  const char* kGoOn[] = {"false", "nil", ""};
  for (const char* value : kGoOn) {
    ASSERT_OK(Load(std::string("function event() return ") + value + " end\n"));
    auto worker = Worker0();
    ASSERT_OK(worker);
    EXPECT_OK((*worker)->RunEvent()) << value;
    EXPECT_OK((*worker)->RunEvent()) << value;
  }
  EXPECT_EQ(rec_.counter(kOltpTransactions), 6u);
}

// sysbench runs a script's main chunk once per interpreter: once in the
// main one (options, init, prepare...) and once in each worker's; and SQL
// works there, on the driver of the command line's database options.
TEST_F(LuaTest, MainChunkRunsOncePerInterpreterAndCanUseSql) {
  const std::string log = dir_ + "/loads.txt";
  ASSERT_OK(Load(R"LUA(
local f = assert(io.open(")LUA" +
                 log + R"LUA(", "ab")); f:write("load\n"); f:close()
local con = sysbench.sql.driver():connect()
con:query("CREATE TABLE IF NOT EXISTS main_chunk (a INT)")
con:query("INSERT INTO main_chunk VALUES (1)")
con:disconnect()
function event() end
)LUA"));
  EXPECT_EQ(Read("loads.txt"), "load\n");
  ASSERT_OK(Worker0());
  EXPECT_EQ(Read("loads.txt"), "load\nload\n");
  ASSERT_OK(Load(R"LUA(
local con = sysbench.sql.driver():connect()
count = con:query_row("SELECT COUNT(*) FROM main_chunk")
function event() assert(count == "2", tostring(count)) end
)LUA"));
  EXPECT_OK(OneEvent());
}

// sysbench's global ffi, its C types and the exported counter functions:
// a script that counts its own errors through ffi.C loads and counts.
TEST_F(LuaTest, FfiGlobalAndExportedCountersWork) {
  ASSERT_OK(Load(R"LUA(
ffi.cdef[[void sb_counter_inc(int, sb_counter_type);
uint64_t sb_counter_val(int, sb_counter_type);]]
function event()
  ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
  ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_READ)
  ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_READ)
  assert(tonumber(ffi.C.sb_counter_val(sysbench.tid, ffi.C.SB_CNT_READ)) == 2)
  assert(sysbench.cmdline.ARG_INT == 2 and sysbench.cmdline.ARG_LIST == 6)
end
)LUA"));
  EXPECT_OK(OneEvent());
  EXPECT_EQ(rec_.counter(kOltpIgnoredErrors), 1u);
  EXPECT_EQ(rec_.errors(), 1u);
  EXPECT_EQ(rec_.counter(kOltpReads), 2u);
}

// Options typed by sysbench.cmdline.ARG_* come back typed; "dash-opt" is
// sysbench.opt.dash_opt; print_test_options() lists them in sysbench's layout.
TEST_F(LuaTest, DeclaredTypesDashNamesAndPrintTestOptions) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {
  out = {"output file", ""},
  n = {"an int", nil, sysbench.cmdline.ARG_INT},
  f = {"a flag", nil, sysbench.cmdline.ARG_BOOL},
  l = {"a list", nil, sysbench.cmdline.ARG_LIST},
  ["dash-opt"] = {"dash desc", "dash val"},
}
function event() end
function thread_init()
  out(string.format("%s %s %s %s %s", type(sysbench.opt.n), tostring(sysbench.opt.n),
      tostring(sysbench.opt.f), type(sysbench.opt.l), sysbench.opt.dash_opt))
end
)LUA",
                 {{"out", OutOption()}}));
  ASSERT_OK(Worker0());
  EXPECT_EQ(Read("out.txt"), "number 0 true table dash val\n");
  ASSERT_OK(Load(R"LUA(
sysbench.cmdline.options = {b = {"bee", false}, long_name = {"el", {"x", "y"}}, s = {"es"}}
function help() sysbench.cmdline.print_test_options(); print(sysbench.opt.long_name[2]) end
)LUA",
                 {}, "help"));
  EXPECT_EQ(w_->ScriptHelp(),
            "  --b[=on|off]           bee [off]\n"
            "  --long_name=[LIST,...] el [x,y]\n"
            "  --s=STRING             es\n"
            "\n"
            "y\n");
  // Before the options are parsed too (help is shown without them).
  path_ = Write("help.lua",
                "sysbench.cmdline.options = {n = {'en', 5}}\n"
                "function help() print(sysbench.opt.n) end\n");
  auto loaded = LoadLuaScript(path_, "help", {path_, "help"});
  ASSERT_OK(loaded);
  EXPECT_EQ((*loaded)->ScriptHelp(), "5\n");
}

// sysbench's bind and result rules: a string cut to the bind's length, DATE
// refused, bind_param() nil without binds, a second free() an error, and a
// legacy db_query() of an UPDATE returns nothing.
TEST_F(LuaTest, BindAndResultRulesAsSysbench) {
  ASSERT_OK(Load(R"LUA(
function event()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE IF NOT EXISTS cut (v VARCHAR(100))")
  local st = con:prepare("INSERT INTO cut VALUES (?)")
  local b = st:bind_create(sysbench.sql.type.VARCHAR, 4)
  assert(st:bind_param() == nil and select("#", st:bind_param()) == 1)
  st:bind_param(b)
  b:set("0123456789")
  st:execute()
  assert(con:query_row("SELECT v FROM cut") == "0123")
  local ok, err = pcall(st.bind_create, st, sysbench.sql.type.DATE)
  assert(not ok and err:find("Unsupported argument type: 8"), tostring(err))
  local rs = con:query("SELECT v FROM cut")
  rs:free()
  ok, err = pcall(rs.free, rs)
  assert(not ok and err:find("db_free_results"), tostring(err))
  assert(db_query("UPDATE cut SET v = 'x'") == nil)
  assert(db_query("SELECT v FROM cut").nrows == 1)
  con:disconnect()
end
)LUA"));
  EXPECT_OK(OneEvent());
}

TEST_F(LuaTest, RestartEventRunsTheHookAndCountsAnError) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local n = 0
function sysbench.hooks.before_restart_event(err) out("restart " .. tostring(err.errcode)) end
function event()
  n = n + 1
  if n == 1 then error({errcode = sysbench.error.RESTART_EVENT}) end
end
)LUA",
                 {{"out", OutOption()}}));
  auto worker = Worker0();
  ASSERT_OK(worker);
  ASSERT_OK((*worker)->RunEvent());
  EXPECT_EQ(Read("out.txt"), "restart 1\n");
  EXPECT_EQ(rec_.errors(), 1u);
  EXPECT_EQ(rec_.counter(kOltpIgnoredErrors), 1u);
  EXPECT_EQ(rec_.counter(kOltpTransactions), 1u);
}

TEST_F(LuaTest, SqlErrorIgnorableHookTurnsAnErrorIntoARestart) {
  ASSERT_OK(Load(R"LUA(
local tries = 0
function sysbench.hooks.sql_error_ignorable(err)
  return err.sql_errmsg:find("no such table") ~= nil
end
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  tries = tries + 1
  if tries == 1 then con:query("SELECT * FROM missing_table") end
end
)LUA"));
  auto worker = Worker0();
  ASSERT_OK(worker);
  ASSERT_OK((*worker)->RunEvent());
  EXPECT_EQ(rec_.errors(), 1u);
}

TEST_F(LuaTest, FatalSqlErrorNamesTheScriptLineAndQuery) {
  ASSERT_OK(
      Load("function thread_init() con = sysbench.sql.driver():connect() end\n"
           "function event()\n"
           "  con:query('SELECT * FROM missing_table')\n"
           "end\n"));
  auto worker = Worker0();
  ASSERT_OK(worker);
  Status s = (*worker)->RunEvent();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path_ + ":3:"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("missing_table"), std::string::npos) << s.message();
}

// Each sysbench.rand function returns the Lua type sysbench 1.0.20's does:
// numbers (its C functions return uint32_t or double through the FFI), a
// string, and for uniform_uint64 a uint64_t cdata that keeps all 64 bits.
TEST_F(LuaTest, RandFunctionsReturnSysbenchsLuaTypes) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local ffi = require("ffi")
function event()
  local r = sysbench.rand
  for _, name in ipairs({"default", "uniform", "gaussian", "special", "pareto", "zipfian"}) do
    assert(type(r[name](1, 10)) == "number", name)
  end
  assert(type(r.unique()) == "number" and type(r.uniform_double()) == "number")
  assert(type(r.string("#@")) == "string")
  assert(type(sb_rnd()) == "number" and type(sb_rand_uniq()) == "number")
  local u = r.uniform_uint64()
  assert(type(u) == "cdata" and ffi.istype("uint64_t", u), "uint64 type: " .. type(u))
  -- The high bits vary too: some draw lands at or above 2^63, and the low
  -- 11 bits (lost in a double) are not all zero.
  local high, low = false, false
  for i = 1, 64 do
    local v = r.uniform_uint64()
    if v >= 9223372036854775808ULL then high = true end
    if v % 2048 ~= 0 then low = true end
  end
  assert(high and low, "64-bit spread")
  out(tostring(u))
end
)LUA",
                 {{"out", OutOption()}}));
  for (int i = 0; i < 2; ++i) {
    auto worker = Worker0(5);
    ASSERT_OK(worker);
    Status s = (*worker)->RunEvent();
    ASSERT_OK(s);
  }
  std::istringstream lines(Read("out.txt"));
  std::string a, b;
  std::getline(lines, a);
  std::getline(lines, b);
  EXPECT_EQ(a, b);  // the same seed gives the same 64-bit value
  ASSERT_GT(a.size(), 3u);
  EXPECT_EQ(a.substr(a.size() - 3), "ULL");
}

// ffi.C reaches the C runtime the binary links (glibc on Linux, msvcrt.dll
// in loadcell.exe): a call through it returns what the C function does.
TEST_F(LuaTest, FfiCReachesTheCRuntime) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local ffi = require("ffi")
ffi.cdef[[
size_t strlen(const char *s);
int abs(int n);
]]
function event()
  out(string.format("%d %d", tonumber(ffi.C.strlen("loadcell")), ffi.C.abs(-42)))
end
)LUA",
                 {{"out", OutOption()}}));
  ASSERT_OK(OneEvent());
  EXPECT_EQ(Read("out.txt"), "8 42\n");
}

TEST_F(LuaTest, SbRandUniqDrawsEachValueOfARangeOnce) {
  ASSERT_OK(Load(R"LUA(
function event()
  local seen, n = {}, 0
  for i = 1, 50 do
    local v = sb_rand_uniq(101, 150)
    assert(v >= 101 and v <= 150 and v == math.floor(v), "range: " .. v)
    assert(not seen[v], "repeated " .. v); seen[v] = true
  end
  local w = sb_rand_uniq(0, 4294967295)
  assert(w >= 0 and w <= 4294967295)
end
)LUA"));
  Status s = OneEvent();
  EXPECT_OK(s);
}

// A wrong argument is a script error naming the script and the line of the
// call, also for the functions the API implements in Lua.
TEST_F(LuaTest, WrongArgumentsNameTheScriptLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"sysbench.rand.uniform('x', 2)", "number expected"},
      {"sysbench.rand.string(nil)", "string expected"},
      {"sysbench.rand.default(5, 1)", "bad range"},
      {"sb_rand_uniq(9, 3)", "sb_rand_uniq(a, b)"},
      {"db_query(42)", "db_query(): argument #1 must be a string, got number"},
      {"db_prepare({})", "db_prepare(): argument #1 must be a string"},
      {"db_execute({})", "db_execute(): argument #1 must be a statement of db_prepare()"},
      {"db_bind_param(db_prepare('SELECT ?'), 5)", "db_bind_param(): argument #2 must be a table"},
      {"db_bind_result({}, {})", "db_bind_result(): argument #1"},
      {"db_close(7)", "db_close(): argument #1"},
      {"db_bulk_insert_next(1)", "db_bulk_insert_next(): argument #1 must be a string"},
      {"db_query('SELECT * FROM no_such_table')", "no_such_table"},
      {"local c = sysbench.sql.driver():connect(); c:query({})", "string expected"},
      {"local c = sysbench.sql.driver():connect(); local rs = c:query('SELECT 1'); rs:free(); "
       "rs:fetch_row()",
       "result was freed"},
      {"local c = sysbench.sql.driver():connect(); local st = c:prepare('SELECT ?'); "
       "st:bind_param(1)",
       "loadcell.sql.bind expected"},
  };
  for (const auto& [call, message] : cases) {
    ASSERT_OK(Load("function event()\n  local x = 1\n  " + call + "\nend\n")) << call;
    Status s = OneEvent();
    ASSERT_FALSE(s.ok()) << call;
    EXPECT_NE(s.message().find(path_ + ":3:"), std::string::npos) << call << ": " << s.message();
    EXPECT_NE(s.message().find(message), std::string::npos) << call << ": " << s.message();
  }
}

// The sysbench 0.5 API: global db_* functions on one implicit connection,
// options as globals, the 0.5 constants.
TEST_F(LuaTest, Sysbench05GlobalApi) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
function event()
  assert(DB_ERROR_NONE == 0 and DB_ERROR_RESTART_TRANSACTION == 1 and DB_ERROR_FAILED == 2)
  assert(thread_id == 0 and db_driver == "sqlite" and num_threads == 1, "globals")
  assert(test == sysbench.cmdline.script_path, "test = the script path")
  -- Options the script does not declare: globals and sysbench.opt, numbers
  -- when they are numbers; general options too.
  assert(oltp_table_size == 30 and sysbench.opt.oltp_table_size == 30, "number option")
  assert(oltp_skip_trx == "on" and oltp_label == "a b", "text options")
  assert(threads == 1 and type(debug) == "table", "general option; libraries kept")
  db_query("CREATE TABLE t5 (id INTEGER PRIMARY KEY, c TEXT)")  -- connects on first use
  db_bulk_insert_init("INSERT INTO t5 (id, c) VALUES")
  for i = 1, oltp_table_size do db_bulk_insert_next(string.format("(%d, 'c%d')", i, i)) end
  db_bulk_insert_done()
  local rs = db_query("SELECT COUNT(*) FROM t5")
  assert(db_store_results(rs) == rs and rs:fetch_row()[1] == "30", "bulk rows")
  db_free_results(rs)
  -- Parameters are read from the bound table at each db_execute; results
  -- land in the bound table.
  local params, result = {1}, {}
  local st = db_prepare("SELECT id, c FROM t5 WHERE id = ?")
  db_bind_param(st, params)
  db_bind_result(st, result)
  params[1] = 7
  rs = db_execute(st)
  assert(rs.nrows == 1 and result[1] == "7" and result[2] == "c7", "bound result 7")
  params[1] = 12
  db_execute(st)
  assert(result[1] == "12" and result[2] == "c12", "bound result 12")
  params[1] = 99
  db_execute(st)
  assert(result[1] == nil and result[2] == nil, "no row: nil")
  local upd_params = {"changed", 3}
  local upd = db_prepare("UPDATE t5 SET c = ? WHERE id = ?")
  db_bind_param(upd, upd_params)
  assert(db_execute(upd).nrows == 1)
  db_close(upd)
  local ok, err = pcall(db_execute, upd)
  assert(not ok and err:find("statement of db_prepare"), tostring(err))
  db_disconnect()
  -- A query after db_disconnect() opens the connection again.
  local r2 = db_query("SELECT c FROM t5 WHERE id = 3")
  out(r2:fetch_row()[1])
  db_close(st)
  db_disconnect()
end
)LUA",
                 {}, "run", 1,
                 {{"out", OutOption()},
                  {"oltp-table-size", "30"},
                  {"oltp_skip_trx", "on"},
                  {"oltp-label", "a b"}}));
  Status s = OneEvent();
  ASSERT_OK(s);
  EXPECT_EQ(Read("out.txt"), "changed\n");
}

TEST_F(LuaTest, ScriptsThatDeclareOptionsGetNoOptionGlobals) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() out(tostring(oltp_table_size) .. " " .. tostring(threads)) end
)LUA",
                 {{"out", OutOption()}}));
  EXPECT_TRUE(w_->DeclaresOptions());
  ASSERT_OK(OneEvent());
  EXPECT_EQ(Read("out.txt"), "nil nil\n");
}

TEST_F(LuaTest, SyntaxErrorNamesScriptAndLine) {
  Status s = Load("function event()\n  x = = 1\nend\n");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("syntax error"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(path_ + ":2:"), std::string::npos) << s.message();
}

TEST_F(LuaTest, RuntimeErrorInEventNamesScriptAndLine) {
  ASSERT_OK(Load("function event()\n  local t = nil\n  return t.x\nend\n"));
  auto worker = Worker0();
  ASSERT_OK(worker);
  Status s = (*worker)->RunEvent();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("event()"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(path_ + ":3:"), std::string::npos) << s.message();
}

TEST_F(LuaTest, ErrorInThreadInitFailsTheWorker) {
  ASSERT_OK(Load("function event() end\nfunction thread_init()\n  error('no way')\nend\n"));
  auto worker = Worker0();
  ASSERT_FALSE(worker.ok());
  EXPECT_NE(worker.status().message().find("thread_init()"), std::string::npos);
  EXPECT_NE(worker.status().message().find(path_ + ":3: no way"), std::string::npos)
      << worker.status().message();
}

TEST_F(LuaTest, ScriptWithoutEventGetsAClearMessage) {
  ASSERT_OK(Load("x = 1\n"));
  Status s = w_->Init(1);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kNotReady);
  EXPECT_NE(s.message().find("cannot find the event() function in "), std::string::npos)
      << s.message();
}

TEST_F(LuaTest, MissingScriptIsNotFound) {
  auto r = LoadLuaScript(dir_ + "/nope.lua", "run", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
}

TEST_F(LuaTest, InitDoneAndThreadDoneAreCalled) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function init() out("init") end
function done() out("done") end
function thread_done() out("thread_done") end
function event() end
)LUA",
                 {{"out", OutOption()}}));
  ASSERT_OK(w_->Init(1));
  auto worker = Worker0();
  ASSERT_OK(worker);
  ASSERT_OK((*worker)->Finish());
  ASSERT_OK(w_->Done());
  // done() runs after the end report, as in sysbench: not from Done().
  EXPECT_EQ(Read("out.txt"), "init\nthread_done\n");
  ASSERT_OK(w_->RunDoneHook());
  EXPECT_EQ(Read("out.txt"), "init\nthread_done\ndone\n");
}

TEST_F(LuaTest, CustomAndParallelCommands) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
sysbench.cmdline.commands = {
  hello = {function() out("hello " .. sysbench.cmdline.command) end},
  fan = {function() out("fan " .. sysbench.tid) end, sysbench.cmdline.PARALLEL_COMMAND},
}
)LUA",
                 {{"out", OutOption()}}, "hello"));
  EXPECT_TRUE(w_->HasCommand("hello"));
  EXPECT_FALSE(w_->HasCommand("nothing"));
  PrepareContext ctx;
  ctx.threads = 3;
  ASSERT_OK(w_->RunCommand("hello", ctx));
  ASSERT_OK(w_->RunCommand("fan", ctx));
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
  ASSERT_OK(Load("function event() end\nfunction help() print('my help') end\n", {}, "help"));
  EXPECT_EQ(w_->ScriptHelp(), "my help\n");
}

TEST_F(LuaTest, ReportHooksAndReportFunctions) {
  ASSERT_OK(Load(R"LUA(
function event() end
function sysbench.hooks.report_intermediate(stat)
  sysbench.report_json(stat)
end
function sysbench.hooks.report_cumulative(stat)
  sysbench.report_csv(stat)
end
)LUA"));
  IntervalSnapshot s;
  s.t_end_s = 2;
  s.duration_s = 1;
  s.threads = 2;
  s.events = 10;
  s.counters.assign(kOltpCounterCount, 0);
  s.counters[kOltpReads] = 30;
  // sysbench's JSON: the intermediate reports are one array, its closing
  // bracket printed when that stream ends (before the cumulative report).
  std::string first = w_->IntervalOutput(s, 95).value_or("");
  EXPECT_EQ(
      first.rfind("[\n  {\n    \"time\":    2,\n    \"threads\": 2,\n    \"tps\": 10.00,\n", 0), 0u)
      << first;
  EXPECT_NE(first.find("      \"reads\": 30.00,\n"), std::string::npos) << first;
  EXPECT_EQ(first.substr(first.size() - 4), "\n  }") << first;
  s.t_end_s = 3;
  std::string second = w_->IntervalOutput(s, 95).value_or("");
  EXPECT_EQ(second.rfind(",\n  {\n    \"time\":    3,", 0), 0u) << second;
  RunResult r;
  r.total_time_s = 2;
  r.events = 8;
  r.counters.assign(kOltpCounterCount, 0);
  std::string section = w_->TextSection(r);
  EXPECT_EQ(section.rfind("\n]\n2,0,4.00,", 0), 0u) << section;
}

// A cumulative report_json is an array of its own.
TEST_F(LuaTest, CumulativeJsonReportIsAnArrayOfItsOwn) {
  ASSERT_OK(
      Load("function event() end\n"
           "sysbench.hooks.report_cumulative = sysbench.report_json\n"));
  RunResult r;
  r.total_time_s = 5;
  r.events = 10;
  r.counters.assign(kOltpCounterCount, 0);
  const std::string text = w_->OwnEndOutput(r).value_or("");
  EXPECT_EQ(text.rfind("[\n  {\n    \"time\":    5,\n    \"threads\": 0,\n    \"tps\": 2.00,", 0),
            0u)
      << text;
  EXPECT_EQ(text.substr(text.size() - 7), "\n  }\n]\n") << text;
}

TEST_F(LuaTest, ReportDefaultLineWithoutHooks) {
  ASSERT_OK(Load(R"LUA(
function event() end
function sysbench.hooks.report_intermediate(stat) sysbench.report_default(stat) end
)LUA"));
  IntervalSnapshot s;
  s.t_end_s = 3;
  s.duration_s = 1;
  s.threads = 1;
  s.events = 5;
  s.counters.assign(kOltpCounterCount, 0);
  EXPECT_EQ(w_->IntervalOutput(s, 95).value_or("").rfind("[ 3s ] thds: 1 tps: 5.00 qps: 0.00", 0),
            0u);
}

TEST_F(LuaTest, Histogram) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function event() end
function thread_init()
  local h = sysbench.histogram.new(100, 1, 1000)
  for i = 1, 99 do h:update(2) end
  h:update(500)
  out(string.format("%.0f %.0f", h:percentile(50), h:percentile(100)))
end
)LUA",
                 {{"out", OutOption()}}));
  ASSERT_OK(Worker0());
  std::string t = Read("out.txt");
  int p50 = 0, p100 = 0;
  ASSERT_EQ(std::sscanf(t.c_str(), "%d %d", &p50, &p100), 2) << t;
  EXPECT_EQ(p50, 2);
  EXPECT_GE(p100, 450);
  EXPECT_LE(p100, 550);
}

}  // namespace
}  // namespace loadcell

namespace loadcell {
namespace {

// The fixture's script run through the runner: `events` events (and no time
// limit), on `threads` threads.
class LuaRunTest : public LuaTest {
 protected:
  Result<RunResult> RunScript(int64_t events, int threads = 1) {
    cfg_.threads = threads;
    cfg_.events = events;
    cfg_.time_s = 0;
    cfg_.seed = 5;
    return RunWorkload(*w_, cfg_, Manifest{}, nullptr);
  }
  // RunScript, which must succeed.
  RunResult MustRunScript(int64_t events, int threads = 1) {
    Result<RunResult> r = RunScript(events, threads);
    EXPECT_OK(r);
    if (!r.ok()) return RunResult{};
    EXPECT_OK(r->failure);
    return std::move(r).value();
  }
};

// sysbench 1.0.20: a script's own thread_run() replaces the event loop; its
// events are the sb_event_start()/sb_event_stop() pairs that
// sb_more_events() allows, within the run's limits.
TEST_F(LuaRunTest, ScriptsOwnThreadRunReplacesTheEventLoop) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local n = 0
function event() n = n + 1 end
function thread_run(tid)
  while ffi.C.sb_more_events(tid) do
    ffi.C.sb_event_start(tid)
    event(tid)
    ffi.C.sb_event_stop(tid)
  end
  out("thread " .. tid .. " ran " .. n)
end
)LUA",
                 {{"out", OutOption()}}));
  EXPECT_TRUE(w_->Info().own_loop);
  const RunResult r = MustRunScript(5);
  EXPECT_EQ(r.events, 5u);
  EXPECT_EQ(r.counters[kOltpTransactions], 5u);
  EXPECT_EQ(Read("out.txt"), "thread 0 ran 5\n");
}

// cmd_run.t: a thread_run() that runs no event is called once per thread.
TEST_F(LuaRunTest, ThreadRunWithoutEventsRunsOncePerThread) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
function thread_run(tid) out("thread_run") end
function event() out("event") end
)LUA",
                 {{"out", OutOption()}}));
  const RunResult r = MustRunScript(0, 2);
  EXPECT_EQ(r.events, 0u);
  EXPECT_EQ(Read("out.txt"), "thread_run\nthread_run\n");
}

// The API's thread_run() is sysbench's loop: a script's own may call it, and
// it restarts events after RESTART_EVENT and ends at a true value.
TEST_F(LuaRunTest, TheApisThreadRunCanBeCalledFromTheScripts) {
  ASSERT_OK(Load(std::string(kOut) + R"LUA(
sysbench.cmdline.options = {out = {"output file", ""}}
local calls = 0
function event()
  calls = calls + 1
  if calls == 2 then error({errcode = sysbench.error.RESTART_EVENT}) end
  if calls == 6 then return true end
end
local api_loop = thread_run
function thread_run(tid)
  out("before")
  api_loop(tid)
  out("after " .. calls)
end
)LUA",
                 {{"out", OutOption()}}));
  const RunResult r = MustRunScript(100);
  // Calls 1, 2 (restarted as 3), 4, 5 are events; call 6 ends the thread.
  EXPECT_EQ(r.events, 4u);
  EXPECT_EQ(r.counters[kOltpIgnoredErrors], 1u);
  EXPECT_EQ(Read("out.txt"), "before\nafter 6\n");
}

// A script that leaves thread_run() alone runs in the runner's own loop; an
// error in its own thread_run() fails the run naming it.
TEST_F(LuaRunTest, OnlyAScriptsOwnThreadRunIsItsOwnLoop) {
  ASSERT_OK(Load("function event() end\n"));
  EXPECT_FALSE(w_->Info().own_loop);
  EXPECT_EQ(MustRunScript(3).events, 3u);
  ASSERT_OK(Load("function event() end\nfunction thread_run() error('broken loop') end\n"));
  Result<RunResult> r = RunScript(3);
  ASSERT_OK(r);
  EXPECT_FALSE(r->failure.ok());
  EXPECT_NE(r->failure.message().find("thread_run"), std::string::npos) << r->failure.ToString();
  EXPECT_NE(r->failure.message().find("broken loop"), std::string::npos) << r->failure.ToString();
}

}  // namespace
}  // namespace loadcell
