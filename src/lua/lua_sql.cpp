// sysbench.sql: the driver, connections (queries, bulk inserts, reconnects),
// SQL errors, and InstallSql, which registers every object's methods.
// Statements and binds are in lua_sql_statement.cpp, results in
// lua_sql_result.cpp.

#include "lua/lua_sql.h"

#include <iostream>
#include <memory>
#include <string>

#include "lua/lua_api.h"
#include "runner/recorder.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell::luaapi {
namespace sql {
namespace {

constexpr int kSqlIgnorable = 1;  // sysbench.sql.error.IGNORABLE
constexpr int kSqlFatal = 2;
constexpr size_t kBulkFlushBytes = size_t{512} * 1024;

// con:query() and con:query_row(): runs `sql` (argument 2) into `rows`,
// raising SQL errors; counts it.
void RunQuery(lua_State* L, LuaConn* c, DbRows& rows, DbExecResult& r) {
  size_t n = 0;
  const char* sql = luaL_checklstring(L, 2, &n);
  DbError e = c->conn->Execute(std::string_view(sql, n), r, &rows);
  if (!e.ok()) RaiseSqlError(L, c, e, std::string_view(sql, n));
  CountResult(L, rows, r);
}

// A result set gets a result object of its own; any other statement the
// connection's reused one (nrows = rows changed, nfields = 0).
int ConnQuery(lua_State* L) {
  LuaConn* c = CheckConn(L);
  auto res = std::make_unique<LuaResult>();
  DbExecResult r;
  RunQuery(L, c, res->rows, r);
  if (!res->rows.columns.empty()) return PushResult(L, res.release(), LUA_NOREF, r);
  LuaResult* reused = ReusedResult(L, c->result, c->result_ref);
  return PushResult(L, reused, c->result_ref, r);
}

int ConnQueryRow(lua_State* L) {
  LuaConn* c = CheckConn(L);
  DbRows rows;
  DbExecResult r;
  RunQuery(L, c, rows, r);
  if (rows.rows.empty()) return 0;
  const auto& row = rows.rows[0];
  luaL_checkstack(L, static_cast<int>(row.size()) + 1, "too many columns");
  for (const auto& v : row) {
    if (v) {
      lua_pushlstring(L, v->data(), v->size());
    } else {
      lua_pushnil(L);
    }
  }
  return static_cast<int>(row.size());
}

void CloseConn(LuaConn* c) {
  for (LuaStmt* s : c->stmts) {
    s->st.reset();
    s->conn = nullptr;
  }
  c->stmts.clear();
  c->conn.reset();
}

int FlushBulk(lua_State* L, LuaConn* c) {
  if (c->bulk_rows == 0) return 0;
  DbExecResult r;
  DbError e = c->conn->Execute(c->bulk_buf, r, nullptr);
  std::string sql = std::move(c->bulk_buf);
  c->bulk_buf = c->bulk_prefix;
  c->bulk_rows = 0;
  if (!e.ok()) return RaiseSqlError(L, c, e, sql);
  Count(L, kOltpWrites);
  return 0;
}

int ConnBulkInit(lua_State* L) {
  LuaConn* c = CheckConn(L);
  c->bulk_prefix = luaL_checkstring(L, 2);
  c->bulk_prefix += ' ';
  c->bulk_buf = c->bulk_prefix;
  c->bulk_rows = 0;
  c->bulk_active = true;
  return 0;
}

int ConnBulkNext(lua_State* L) {
  LuaConn* c = CheckConn(L);
  if (!c->bulk_active) return luaL_error(L, "bulk_insert_next() without bulk_insert_init()");
  size_t n = 0;
  const char* v = luaL_checklstring(L, 2, &n);
  if (c->bulk_rows > 0 && c->bulk_buf.size() + n + 1 > kBulkFlushBytes) FlushBulk(L, c);
  if (c->bulk_rows > 0) c->bulk_buf += ',';
  c->bulk_buf.append(v, n);
  ++c->bulk_rows;
  return 0;
}

int ConnBulkDone(lua_State* L) {
  LuaConn* c = CheckConn(L);
  if (!c->bulk_active) return 0;
  c->bulk_active = false;
  return FlushBulk(L, c);
}

int ConnDisconnect(lua_State* L) {
  LuaConn* c = Check<LuaConn>(L, 1, kConnMeta);
  if (c != nullptr) CloseConn(c);
  return 0;
}

int ConnReconnect(lua_State* L) {
  LuaConn* c = CheckConn(L);
  for (LuaStmt* s : c->stmts) s->st.reset();
  DbError e = c->conn->Reconnect();
  if (!e.ok()) return RaiseSqlError(L, c, e, "(reconnect)");
  Count(L, kOltpReconnects);
  for (LuaStmt* s : c->stmts) {
    if (!s->emulated && !c->conn->Prepare(s->sql, s->nparams, s->st).ok()) s->emulated = true;
  }
  return 0;
}

int ConnGc(lua_State* L) {
  auto** p = static_cast<LuaConn**>(luaL_checkudata(L, 1, kConnMeta));
  if (*p != nullptr) {
    CloseConn(*p);
    luaL_unref(L, LUA_REGISTRYINDEX, (*p)->result_ref);
    delete *p;
    *p = nullptr;
  }
  return 0;
}

}  // namespace

LuaConn* CheckConn(lua_State* L) {
  LuaConn* c = Check<LuaConn>(L, 1, kConnMeta);
  if (c == nullptr || c->conn == nullptr) luaL_error(L, "connection is closed");
  return c;
}

// Raises the error of a failed statement: sysbench.error.RESTART_EVENT for an
// ignorable one (after a rollback), or a message naming the query.
int RaiseSqlError(lua_State* L, LuaConn* c, const DbError& e, std::string_view sql) {
  bool ignorable = e.cls == DbErrorClass::kRetryable || e.cls == DbErrorClass::kIgnorable;
  lua_newtable(L);
  lua_pushinteger(L, e.code);
  lua_setfield(L, -2, "sql_errno");
  lua_pushstring(L, e.sqlstate.c_str());
  lua_setfield(L, -2, "sql_state");
  // The server's words alone, as sysbench passes them on.
  const std::string& errmsg = e.server_message.empty() ? e.message : e.server_message;
  lua_pushstring(L, errmsg.c_str());
  lua_setfield(L, -2, "sql_errmsg");
  lua_pushlstring(L, sql.data(), sql.size());
  lua_setfield(L, -2, "query");
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "connection");
  if (e.cls == DbErrorClass::kReconnect && c->conn != nullptr &&
      Ctx(L).shared->ignore.Matches(e.code, e.sqlstate)) {
    // Listed in --*-ignore-errors: reopen (statements are prepared again)
    // and restart the event.
    for (LuaStmt* s : c->stmts) s->st.reset();
    if (c->conn->Reconnect().ok()) {
      Count(L, kOltpReconnects);
      for (LuaStmt* s : c->stmts) {
        if (!s->emulated && !c->conn->Prepare(s->sql, s->nparams, s->st).ok()) s->emulated = true;
      }
    }
    lua_pushinteger(L, kRestartEvent);
    lua_setfield(L, -2, "errcode");
    return lua_error(L);
  }
  if (!ignorable) {
    // sysbench.hooks.sql_error_ignorable(err) may declare it ignorable.
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "hooks");
    lua_getfield(L, -1, "sql_error_ignorable");
    if (lua_isfunction(L, -1)) {
      lua_pushvalue(L, -4);
      if (lua_pcall(L, 1, 1, 0) != 0) return lua_error(L);
      ignorable = lua_toboolean(L, -1) != 0;
    }
    lua_pop(L, 3);
  }
  if (ignorable) {
    if (IsDeadlock(e)) Count(L, kOltpDeadlocks);
    if (IsLockWaitTimeout(e)) Count(L, kOltpLockWaits);
    if (c->conn != nullptr) (void)c->conn->Rollback();
    lua_pushinteger(L, kRestartEvent);
    lua_setfield(L, -2, "errcode");
    return lua_error(L);
  }
  lua_pop(L, 1);
  luaL_where(L, 1);
  std::string msg = std::string(lua_tostring(L, -1)) +
                    "SQL error, errno = " + std::to_string(e.code) + ", state = '" + e.sqlstate +
                    "': " + e.message + " (query: " + std::string(sql.substr(0, 200)) + ")";
  lua_pop(L, 1);
  (void)kSqlFatal;
  (void)kSqlIgnorable;
  lua_pushstring(L, msg.c_str());
  return lua_error(L);
}

namespace {

int DriverConnect(lua_State* L) {
  LuaThreadState& c = Ctx(L);
  if (c.shared->driver == nullptr) return luaL_error(L, "no database driver was set up");
  auto conn = c.shared->driver->Connect(c.tid);
  if (!conn.ok()) return luaL_error(L, "connection failed: %s", conn.status().message().c_str());
  c.shared->connected->store(true, std::memory_order_relaxed);
  auto* lc = new LuaConn;
  lc->conn = std::move(conn).value();
  NewUd(L, kConnMeta, lc);
  return 1;
}

int DriverName(lua_State* L) {
  LuaThreadState& c = Ctx(L);
  if (c.shared->driver == nullptr) return luaL_error(L, "no database driver was set up");
  lua_pushstring(L, c.shared->driver->Name().c_str());
  return 1;
}

int SqlDriver(lua_State* L) {
  LuaThreadState& c = Ctx(L);
  if (c.shared->driver == nullptr && !c.shared->driver_error.empty()) {
    // sysbench's way: the driver's own complaint, then an error located at
    // the script line that asked for the driver.
    std::cout << c.shared->driver_error << "\n" << std::flush;
    luaL_where(L, 1);
    lua_pushstring(L, "failed to initialize the DB driver");
    lua_concat(L, 2);
    return lua_error(L);
  }
  if (c.shared->driver == nullptr) return luaL_error(L, "no database driver was set up");
  if (lua_isstring(L, 1) && c.shared->driver->Name() != lua_tostring(L, 1)) {
    return luaL_error(L, "driver '%s' is not the one selected (--db-driver=%s)", lua_tostring(L, 1),
                      c.shared->driver->Name().c_str());
  }
  lua_newtable(L);
  luaL_getmetatable(L, kDriverMeta);
  lua_setmetatable(L, -2);
  return 1;
}

// `index`, when given, is __index with the methods table as its upvalue.
void NewMeta(lua_State* L, const char* name, const luaL_Reg* methods, lua_CFunction gc,
             lua_CFunction index = nullptr) {
  luaL_newmetatable(L, name);
  lua_newtable(L);
  luaL_register(L, nullptr, methods);
  if (index != nullptr) lua_pushcclosure(L, index, 1);
  lua_setfield(L, -2, "__index");
  if (gc != nullptr) {
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
}

}  // namespace
}  // namespace sql

void InstallSql(lua_State* L) {
  using namespace sql;
  static const luaL_Reg kConn[] = {{"query", ConnQuery},
                                   {"query_row", ConnQueryRow},
                                   {"prepare", ConnPrepare},
                                   {"bulk_insert_init", ConnBulkInit},
                                   {"bulk_insert_next", ConnBulkNext},
                                   {"bulk_insert_done", ConnBulkDone},
                                   {"disconnect", ConnDisconnect},
                                   {"reconnect", ConnReconnect},
                                   {nullptr, nullptr}};
  static const luaL_Reg kStmt[] = {{"bind_create", StmtBindCreate},
                                   {"bind_param", StmtBindParam},
                                   {"execute", StmtExecute},
                                   {"close", StmtClose},
                                   {nullptr, nullptr}};
  static const luaL_Reg kBind[] = {
      {"set", BindSet}, {"set_rand_str", BindSetRandStr}, {nullptr, nullptr}};
  static const luaL_Reg kRes[] = {
      {"fetch_row", ResultFetchRow}, {"free", ResultFree}, {nullptr, nullptr}};
  static const luaL_Reg kDrv[] = {
      {"connect", DriverConnect}, {"name", DriverName}, {nullptr, nullptr}};
  NewMeta(L, kConnMeta, kConn, ConnGc);
  NewMeta(L, kStmtMeta, kStmt, StmtGc);
  NewMeta(L, kBindMeta, kBind, BindGc);
  NewMeta(L, kResultMeta, kRes, ResultGc, ResultIndex);
  NewMeta(L, kDriverMeta, kDrv, nullptr);
  lua_newtable(L);
  lua_pushcfunction(L, SqlDriver);
  lua_setfield(L, -2, "driver");
  lua_setfield(L, -2, "sql");
}

}  // namespace loadcell::luaapi
