-- A small OLTP workload in the sysbench 0.5 style, written for loadcell's
-- tests: options arrive as globals (--oltp-table-size -> oltp_table_size),
-- SQL goes through the global db_* functions, random values through sb_*.
-- Runs on SQLite (and on the other drivers where their SQL allows).

function set_vars()
   oltp_table_size = oltp_table_size or 1000
   oltp_tables_count = oltp_tables_count or 1
   oltp_point_selects = oltp_point_selects or 4
   oltp_range_size = oltp_range_size or 10
   -- 0.5 flags are the text "on" / "off"
   oltp_skip_trx = (oltp_skip_trx == "on")
end

local function table_name(i)
   return "legacy" .. i
end

function prepare()
   set_vars()
   db_connect()
   for i = 1, oltp_tables_count do
      local t = table_name(i)
      print("Creating table '" .. t .. "'...")
      if db_driver == "pgsql" then
         db_query("CREATE TABLE " .. t .. " (id INTEGER PRIMARY KEY, k INTEGER NOT NULL, " ..
                  "c CHAR(32) NOT NULL, pad CHAR(16) NOT NULL)")
      else
         db_query("CREATE TABLE " .. t .. " (id INTEGER NOT NULL PRIMARY KEY, " ..
                  "k INTEGER NOT NULL, c CHAR(32) NOT NULL, pad CHAR(16) NOT NULL)")
      end
      db_bulk_insert_init("INSERT INTO " .. t .. " (id, k, c, pad) VALUES")
      for j = 1, oltp_table_size do
         db_bulk_insert_next(string.format("(%d, %d, '%s', '%s')", j,
                                           sb_rand(1, oltp_table_size),
                                           sb_rand_str("########-########-########-#####"),
                                           sb_rand_str("@@@@@@@@-@@@@@@@")))
      end
      db_bulk_insert_done()
   end
   db_disconnect()
end

function thread_init(thread_id)
   set_vars()
   db_connect()
   -- A prepared point select whose parameter table is read at each execute.
   point_params = {1}
   point_stmt = db_prepare("SELECT c FROM " .. table_name(1) .. " WHERE id = ?")
   db_bind_param(point_stmt, point_params)
   point_result = {}
   db_bind_result(point_stmt, point_result)
   update_params = {0, "x"}
   update_stmt = db_prepare("UPDATE " .. table_name(1) .. " SET k = ?, pad = ? WHERE id = 1")
   db_bind_param(update_stmt, update_params)
   checked = 0
end

function event(thread_id)
   local t = table_name(sb_rand_uniform(1, oltp_tables_count))
   if not oltp_skip_trx then
      db_query("BEGIN")
   end
   for i = 1, oltp_point_selects do
      local rs = db_query("SELECT c FROM " .. t .. " WHERE id = " .. sb_rand(1, oltp_table_size))
      db_free_results(rs)
   end
   local start = sb_rand(1, oltp_table_size - oltp_range_size + 1)
   local rs = db_query("SELECT SUM(k) FROM " .. t .. " WHERE id BETWEEN " .. start ..
                       " AND " .. (start + oltp_range_size - 1))
   db_store_results(rs)
   db_free_results(rs)

   point_params[1] = sb_rand_uniq(1, oltp_table_size)
   rs = db_execute(point_stmt)
   db_store_results(rs)
   if rs.nrows ~= 1 or type(point_result[1]) ~= "string" or #point_result[1] ~= 32 then
      error("point select by a prepared statement returned no row")
   end
   checked = checked + 1
   db_free_results(rs)

   update_params[1] = sb_rnd() % 1000
   update_params[2] = sb_rand_str("@@@@@@@@-@@@@@@@")
   db_execute(update_stmt)
   if not oltp_skip_trx then
      db_query("COMMIT")
   end
end

function thread_done(thread_id)
   db_close(point_stmt)
   db_close(update_stmt)
   print(string.format("thread %d checked %d prepared point selects", thread_id, checked))
   db_disconnect()
end

function cleanup()
   set_vars()
   for i = 1, oltp_tables_count do
      print("Dropping table '" .. table_name(i) .. "'...")
      db_query("DROP TABLE IF EXISTS " .. table_name(i))
   end
end
