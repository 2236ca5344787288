-- One query per event, named by --query (verdict's database check,
-- oltp_verdict_test.cpp): a server-side sleep makes each transaction take
-- as long as the test asks, as an overloaded server would. prepare makes
-- one small table named as sysbench's (sbtest1), the tables whose size the
-- check reads; cleanup drops it.

sysbench.cmdline.options = {query = {"the statement each event runs", "SELECT 1"}}

function prepare()
  local con = sysbench.sql.driver():connect()
  con:query("CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY)")
  for i = 1, 10 do
    con:query("INSERT INTO sbtest1 (id) VALUES (" .. i .. ")")
  end
end

function cleanup()
  local con = sysbench.sql.driver():connect()
  con:query("DROP TABLE IF EXISTS sbtest1")
end

function thread_init()
  con = sysbench.sql.driver():connect()
end

function event()
  con:query(sysbench.opt.query)
end
