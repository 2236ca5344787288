#include "lua/lua_prelude.h"

namespace loadcell {

// Tables and functions that need no C: what C sets beforehand is
// sysbench.tid, version, opt, cmdline.{command,argv,script_path}, rand.*,
// sql.driver and the internal sysbench.__capture helpers.
const char kLuaPrelude[] = R"LUA(
local sb = sysbench
sb.error = {RESTART_EVENT = 1}
sb.sql.type = {NONE = 0, TINYINT = 1, SMALLINT = 2, INT = 3, BIGINT = 4, FLOAT = 5,
               DOUBLE = 6, TIME = 7, DATE = 8, DATETIME = 9, TIMESTAMP = 10,
               CHAR = 11, VARCHAR = 12}
sb.sql.error = {NONE = 0, IGNORABLE = 1, FATAL = 2}
sb.cmdline.PARALLEL_COMMAND = true
sb.hooks = {}

-- As under sysbench: the global `ffi`, the C types of its API and the
-- option type numbers, and the event loop's exported functions that
-- sysbench declares (sb_counter_inc and sb_counter_val it leaves undeclared:
-- the scripts that call them declare them).
ffi = require("ffi")
ffi.cdef[[
typedef enum {
  SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR, SB_CNT_RECONNECT,
  SB_CNT_MAX
} sb_counter_type;
typedef enum {
  SB_ARG_TYPE_NULL, SB_ARG_TYPE_BOOL, SB_ARG_TYPE_INT, SB_ARG_TYPE_SIZE, SB_ARG_TYPE_DOUBLE,
  SB_ARG_TYPE_STRING, SB_ARG_TYPE_LIST, SB_ARG_TYPE_FILE, SB_ARG_TYPE_MAX
} sb_arg_type_t;
void sb_event_start(int thread_id);
void sb_event_stop(int thread_id);
bool sb_more_events(int thread_id);
]]
sb.cmdline.ARG_NULL, sb.cmdline.ARG_BOOL, sb.cmdline.ARG_INT = 0, 1, 2
sb.cmdline.ARG_SIZE, sb.cmdline.ARG_DOUBLE, sb.cmdline.ARG_STRING = 3, 4, 5
sb.cmdline.ARG_LIST, sb.cmdline.ARG_FILE, sb.cmdline.ARG_MAX = 6, 7, 8

-- The script's options, one line each, in sysbench's help layout.
function sb.cmdline.print_test_options()
  local defs = sb.cmdline.options
  if type(defs) ~= "table" then return end
  local c = sb.cmdline
  local tags = {[c.ARG_BOOL] = "[=on|off]", [c.ARG_INT] = "=N", [c.ARG_SIZE] = "=SIZE",
                [c.ARG_DOUBLE] = "=N", [c.ARG_STRING] = "=STRING",
                [c.ARG_LIST] = "=[LIST,...]", [c.ARG_FILE] = "=FILENAME"}
  local by_value = {boolean = c.ARG_BOOL, number = c.ARG_DOUBLE, string = c.ARG_STRING,
                    table = c.ARG_LIST}
  local rows, width = {}, 0
  for name, def in pairs(defs) do
    if type(name) == "string" and type(def) == "table" then
      local v = def[2]
      local t = def[3] or by_value[type(v)] or c.ARG_STRING
      local left = "--" .. name .. (tags[t] or "=STRING")
      local shown
      if type(v) == "boolean" then shown = v and "on" or "off"
      elseif type(v) == "table" then shown = table.concat(v, ",")
      elseif v ~= nil then shown = tostring(v) end
      local right = tostring(def[1] or "")
      if shown ~= nil and shown ~= "" then right = right .. " [" .. shown .. "]" end
      rows[#rows + 1] = {name = name, left = left, right = right}
      if #left > width then width = #left end
    end
  end
  table.sort(rows, function(x, y) return x.name < y.name end)
  for _, r in ipairs(rows) do
    io.write("  ", r.left, string.rep(" ", width - #r.left + 1), r.right, "\n")
  end
  io.write("\n")  -- the list ends with a blank line, as sysbench's
end

-- The event loop as sysbench's thread_run() runs it, for a script that
-- calls it from its own thread_run(). A script that leaves it in place gets
-- the runner's own loop instead (LuaHost::OwnsThreadRun), which does the
-- same without going through Lua between events.
do
  local C = ffi.C
  local count_restart = sb.__restarted
  sb.__restarted = nil
  -- One event: event(tid) again after each RESTART_EVENT error; any other
  -- error goes on to the caller. Returns what event() returned.
  local function one_event(tid)
    for _ = 1, math.huge do
      local ok, ret = pcall(event, tid)
      if ok then return ret end
      if type(ret) ~= "table" or ret.errcode ~= sb.error.RESTART_EVENT then error(ret, 3) end
      count_restart()
      local hook = sb.hooks.before_restart_event
      if hook then hook(ret) end
    end
  end
  function thread_run(tid)
    while C.sb_more_events(tid) do
      C.sb_event_start(tid)
      -- A value other than nil or false ends the thread; that event is not counted.
      if one_event(tid) then return end
      C.sb_event_stop(tid)
    end
  end
end

-- uniform_uint64() gives a uint64_t cdata (a number would lose bits).
do
  local ffi = require("ffi")
  local fn = ffi.cast("uint64_t (*)(void *)", sb.rand.__rand_uint64)
  local state = sb.rand.__state
  sb.rand.__rand_uint64, sb.rand.__state = nil, nil
  function sb.rand.uniform_uint64() return fn(state) end
end

-- sysbench 0.5 names, still used by the 1.0 scripts.
sb_rand = sb.rand.default
sb_rand_uniform = sb.rand.uniform
sb_rand_gaussian = sb.rand.gaussian
sb_rand_special = sb.rand.special
sb_rand_str = sb.rand.string
sb_rnd = function() return sb.rand.uniform(0, 4294967295) end
-- A number in [a, b] (defaults 0 and 2^32-1) that this thread has not drawn
-- from that range before, until all were drawn. A wide range draws
-- sysbench.rand.unique() until one falls inside (a few draws); a narrow one
-- walks its own affine permutation x -> (m*x + c) mod n, gcd(m, n) = 1.
do
  local perms = {}
  local function gcd(x, y)
    while y ~= 0 do x, y = y, x % y end
    return x
  end
  function sb_rand_uniq(a, b)
    a, b = a or 0, b or 4294967295
    if type(a) ~= "number" or type(b) ~= "number" or a > b or a < 0 or b > 4294967295 then
      error("sb_rand_uniq(a, b): a and b must be numbers with 0 <= a <= b < 2^32", 2)
    end
    local n = b - a + 1
    if n > 67108864 then
      local v
      repeat v = sb.rand.unique() until v >= a and v <= b
      return v
    end
    local key = a .. ":" .. b
    local p = perms[key]
    if p == nil then
      local m = n > 1 and sb.rand.uniform(1, n - 1) or 1
      while gcd(m, n) ~= 1 do m = m - 1 end
      p = {i = 0, m = m, c = sb.rand.uniform(0, n - 1)}
      perms[key] = p
    end
    local v = (p.m * p.i + p.c) % n
    p.i = (p.i + 1) % n
    return a + v
  end
end

-- The sysbench 0.5 SQL API: global functions on one connection per
-- interpreter, opened by db_connect() or by the first call that needs it.
DB_ERROR_NONE, DB_ERROR_RESTART_TRANSACTION, DB_ERROR_FAILED = 0, 1, 2
DB_ERROR_DEADLOCK = DB_ERROR_RESTART_TRANSACTION
mysql_table_engine = mysql_table_engine or "innodb"
myisam_max_rows = myisam_max_rows or 1000000
do
  local con
  local stmts = setmetatable({}, {__mode = "k"})  -- statement -> its binds
  local function need(v, kind, fname, i)
    if type(v) ~= kind then
      error(string.format("%s(): argument #%d must be a %s, got %s", fname, i, kind, type(v)), 3)
    end
  end
  local function connection()
    if con == nil then con = sb.sql.driver():connect() end
    return con
  end
  function db_connect() connection() end
  function db_disconnect()
    if con ~= nil then con:disconnect() end
    con = nil
  end
  -- A statement without a result set (UPDATE, BEGIN...) returns nothing,
  -- as under sysbench (oltp_legacy/oltp.lua prints an UPDATE that returns
  -- a result).
  function db_query(sql)
    need(sql, "string", "db_query", 1)
    local rs = connection():query(sql)
    if rs ~= nil and rs.nfields == 0 then return nil end
    return rs
  end
  function db_prepare(sql)
    need(sql, "string", "db_prepare", 1)
    local st = connection():prepare(sql)
    stmts[st] = {}
    return st
  end
  local function state(st, fname)
    local s = stmts[st]
    if s == nil then error(fname .. "(): argument #1 must be a statement of db_prepare()", 3) end
    return s
  end
  -- params: a table whose values (read again at each db_execute) are bound
  -- in order; a value's Lua type at binding sets the SQL type.
  function db_bind_param(st, params)
    local s = state(st, "db_bind_param")
    need(params, "table", "db_bind_param", 2)
    local t = sb.sql.type
    local binds = {}
    for i = 1, #params do
      local v = params[i]
      local bt = t.VARCHAR
      if type(v) == "number" then bt = (v == math.floor(v)) and t.BIGINT or t.DOUBLE end
      binds[i] = st:bind_create(bt, 65535)
    end
    if #binds > 0 then st:bind_param(unpack(binds)) end
    s.params, s.binds = params, binds
  end
  -- results: after each db_execute, results[i] holds column i of the first
  -- row (nil for NULL or without rows).
  function db_bind_result(st, results)
    local s = state(st, "db_bind_result")
    need(results, "table", "db_bind_result", 2)
    s.results = results
  end
  function db_execute(st)
    local s = state(st, "db_execute")
    if s.binds ~= nil then
      for i = 1, #s.binds do
        local v = s.params[i]
        if type(v) == "boolean" then v = v and 1 or 0 end
        s.binds[i]:set(v)
      end
    end
    local rs = st:execute()
    if s.results ~= nil then
      local row = rs.nfields > 0 and rs:fetch_row() or {}
      for i = 1, math.max(#s.results, rs.nfields) do s.results[i] = row[i] end
    end
    return rs
  end
  function db_close(st)
    state(st, "db_close")
    stmts[st] = nil
    st:close()
  end
  -- Rows are at the client already: storing them is a no-op.
  function db_store_results(rs) return rs end
  function db_free_results(rs)
    if rs ~= nil then rs:free() end
  end
  function db_bulk_insert_init(sql)
    need(sql, "string", "db_bulk_insert_init", 1)
    connection():bulk_insert_init(sql)
  end
  function db_bulk_insert_next(values)
    need(values, "string", "db_bulk_insert_next", 1)
    connection():bulk_insert_next(values)
  end
  function db_bulk_insert_done()
    if con ~= nil then con:bulk_insert_done() end
  end
end

local function rates(stat)
  local t = stat.time_interval
  if t == nil or t <= 0 then t = 1 end
  local q = stat.reads + stat.writes + stat.other
  return t, q
end

-- The intermediate or final line in sysbench's text form.
function sb.report_default(stat)
  local t, q = rates(stat)
  io.write(string.format(
    "[ %.0fs ] thds: %d tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) " ..
    "lat (ms,%d%%): %4.2f err/s %4.2f reconn/s: %4.2f\n",
    stat.time_total, stat.threads_running, stat.events / t, q / t,
    stat.reads / t, stat.writes / t, stat.other / t,
    sb.opt.percentile or 95, stat.latency_pct * 1000, stat.errors / t, stat.reconnects / t))
end

function sb.report_csv(stat)
  local t, q = rates(stat)
  io.write(string.format("%.0f,%d,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f\n",
    stat.time_total, stat.threads_running, stat.events / t, q / t,
    stat.reads / t, stat.writes / t, stat.other / t, stat.latency_pct * 1000,
    stat.errors / t, stat.reconnects / t))
end

-- sysbench's JSON reports: the reports of one stream (the intermediate ones,
-- the cumulative one: sysbench makes them in two interpreters) are one JSON
-- array, opened by the first and closed by sysbench.__close_report(stream)
-- when that stream ends (LuaScriptWorkload, as sysbench when the
-- interpreter closes).
do
  local open_streams = {}
  function sb.report_json(stat)
    local t, q = rates(stat)
    local stream = sb.__report_stream or "report"
    io.write(open_streams[stream] and ",\n" or "[\n")
    open_streams[stream] = true
    io.write(string.format(table.concat({
      '  {',
      '    "time": %4.0f,',
      '    "threads": %u,',
      '    "tps": %4.2f,',
      '    "qps": {',
      '      "total": %4.2f,',
      '      "reads": %4.2f,',
      '      "writes": %4.2f,',
      '      "other": %4.2f',
      '    },',
      '    "latency": %4.2f,',
      '    "errors": %4.2f,',
      '    "reconnects": %4.2f',
      '  }'}, "\n"),
      stat.time_total, stat.threads_running, stat.events / t, q / t,
      stat.reads / t, stat.writes / t, stat.other / t, stat.latency_pct * 1000,
      stat.errors / t, stat.reconnects / t))
  end
  function sb.__close_report(stream)
    if open_streams[stream] then
      open_streams[stream] = nil
      io.write("\n]\n")
    end
  end
end

-- Runs f(...) with print and io.write appending to a buffer; returns the
-- text, or nil and the error message.
function sb.__capture(f, ...)
  local buf = {}
  local old_write, old_print = io.write, print
  io.write = function(...)
    for i = 1, select("#", ...) do buf[#buf + 1] = tostring((select(i, ...))) end
  end
  print = function(...)
    local n = select("#", ...)
    for i = 1, n do
      buf[#buf + 1] = tostring((select(i, ...)))
      if i < n then buf[#buf + 1] = "\t" end
    end
    buf[#buf + 1] = "\n"
  end
  local ok, err = pcall(f, ...)
  io.write, print = old_write, old_print
  if not ok then return nil, tostring(err) end
  return table.concat(buf)
end

-- Histogram with logarithmic buckets between range_min and range_max.
local hist = {}
hist.__index = hist
sb.histogram = {}
function sb.histogram.new(size, range_min, range_max)
  assert(size and size > 0 and range_min and range_max and range_max > range_min and
         range_min > 0, "histogram.new(size, range_min, range_max): bad arguments")
  local h = setmetatable({size = size, min = range_min, max = range_max, n = 0,
                          counts = {}}, hist)
  h.mult = (size - 1) / (math.log(range_max) - math.log(range_min))
  for i = 1, size do h.counts[i] = 0 end
  return h
end
local function bucket_value(h, i)
  return math.exp((i - 1) / h.mult + math.log(h.min))
end
function hist:update(value)
  local i
  if value <= self.min then i = 1
  elseif value >= self.max then i = self.size
  else i = math.floor((math.log(value) - math.log(self.min)) * self.mult + 0.5) + 1 end
  self.counts[i] = self.counts[i] + 1
  self.n = self.n + 1
end
function hist:percentile(p)
  if self.n == 0 then return 0 end
  local want = math.ceil(self.n * p / 100)
  local seen = 0
  for i = 1, self.size do
    seen = seen + self.counts[i]
    if seen >= want then return bucket_value(self, i) end
  end
  return self.max
end
function hist:print()
  local maxc = 0
  for i = 1, self.size do if self.counts[i] > maxc then maxc = self.counts[i] end end
  io.write("       value  ------------- distribution ------------- count\n")
  for i = 1, self.size do
    local c = self.counts[i]
    if c > 0 then
      io.write(string.format("%12.3f |%-40s %d\n", bucket_value(self, i),
                             string.rep("*", math.ceil(c * 40 / maxc)), c))
    end
  end
end
)LUA";

}  // namespace loadcell
