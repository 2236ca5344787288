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

-- sysbench 0.5 names, still used by the 1.0 scripts.
sb_rand = sb.rand.default
sb_rand_uniform = sb.rand.uniform
sb_rand_gaussian = sb.rand.gaussian
sb_rand_special = sb.rand.special
sb_rand_uniq = sb.rand.unique
sb_rand_str = sb.rand.string
sb_rnd = function() return sb.rand.uniform(0, 4294967295) end

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
    "lat (ms,%d%%): %4.2f err/s: %4.2f reconn/s: %4.2f\n",
    stat.time_total, stat.threads_running, stat.events / t, q / t,
    stat.reads / t, stat.writes / t, stat.other / t,
    sb.opt.percentile or 95, stat.latency_pct, stat.errors / t, stat.reconnects / t))
end

function sb.report_csv(stat)
  local t, q = rates(stat)
  io.write(string.format("%.0f,%d,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f\n",
    stat.time_total, stat.threads_running, stat.events / t, q / t,
    stat.reads / t, stat.writes / t, stat.other / t, stat.latency_pct,
    stat.errors / t, stat.reconnects / t))
end

-- One JSON object per report; valid JSON (no trailing comma).
function sb.report_json(stat)
  local t, q = rates(stat)
  io.write(string.format(
    '{"time": %.0f, "threads": %d, "tps": %.2f, "qps": {"total": %.2f, "reads": %.2f, ' ..
    '"writes": %.2f, "other": %.2f}, "latency": %.2f, "errors": %.2f, "reconnects": %.2f}\n',
    stat.time_total, stat.threads_running, stat.events / t, q / t,
    stat.reads / t, stat.writes / t, stat.other / t, stat.latency_pct,
    stat.errors / t, stat.reconnects / t))
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
