-- A script of its own tables for the verdict's database check
-- (verdict_test.cpp, lua_scripts_test.cpp): prepare makes one table of 500
-- rows of 200 bytes named by --table-name; each event reads one row.

sysbench.cmdline.options = {table_name = {"the table's name", "sbtest1"}}

local function table_name() return sysbench.opt.table_name end

function prepare()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE " .. table_name() .. " (id INTEGER PRIMARY KEY, pad VARCHAR(200))")
  for i = 1, 500 do
    con:query("INSERT INTO " .. table_name() .. " (id, pad) VALUES (" .. i .. ", '" ..
              string.rep("x", 200) .. "')")
  end
end

function cleanup()
  local con = sysbench.sql.driver():connect()
  con:query("DROP TABLE IF EXISTS " .. table_name())
end

function thread_init()
  con = sysbench.sql.driver():connect()
end

function event()
  con:query("SELECT pad FROM " .. table_name() .. " WHERE id = 7")
end
