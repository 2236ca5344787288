#pragma once
// What the files of sysbench.sql share (src/lua only): the objects behind
// its connections, statements, binds and results, and the functions that
// InstallSql (lua_sql.cpp) registers from lua_sql_statement.cpp and
// lua_sql_result.cpp. The helpers that every execution calls are inline.

#include <cstdint>
#include <lua.hpp>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "db/db_driver.h"
#include "lua/lua_api.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell::luaapi::sql {

inline constexpr const char* kConnMeta = "loadcell.sql.connection";
inline constexpr const char* kStmtMeta = "loadcell.sql.statement";
inline constexpr const char* kBindMeta = "loadcell.sql.bind";
inline constexpr const char* kResultMeta = "loadcell.sql.result";
inline constexpr const char* kDriverMeta = "loadcell.sql.driver";

struct LuaStmt;
struct LuaResult;

struct LuaConn {
  std::unique_ptr<DbConnection> conn;
  // The result con:query() returns for a statement without a result set,
  // reused by every such query (sysbench reuses one per connection).
  LuaResult* result = nullptr;
  int result_ref = LUA_NOREF;
  std::set<LuaStmt*> stmts;
  std::string bulk_prefix;
  std::string bulk_buf;
  bool bulk_active = false;
  size_t bulk_rows = 0;
};

struct LuaBind {
  int type = 0;
  // CHAR/VARCHAR: the bind's length; bind:set() keeps that many bytes of a
  // longer value, as sysbench (0: no length given, nothing cut).
  size_t max_len = 0;
  bool is_null = true;
  int64_t i = 0;
  double d = 0;
  std::string s;
};

struct LuaStmt {
  LuaConn* conn = nullptr;
  bool is_select = false;  // returns a result set (counted as a read)
  int conn_ref = LUA_NOREF;
  std::unique_ptr<DbStatement> st;
  bool emulated = false;
  std::string sql;
  int nparams = 0;
  std::vector<LuaBind*> binds;
  std::vector<int> bind_refs;
  // The result object execute() returns, reused by every execution (as
  // sysbench reuses one result set per connection): its rows are those of
  // the last execution.
  LuaResult* result = nullptr;
  int result_ref = LUA_NOREF;
};

// rs.nrows, rs.nfields, rs:fetch_row(), rs:free().
struct LuaResult {
  DbRows rows;          // the rows of a result set; columns = its fields
  uint64_t nrows = 0;   // rows of a result set, or rows a statement changed
  size_t cursor = 0;    // next row fetch_row() returns
  bool reused = false;  // owned by a statement or connection: free() empties it
  bool freed = false;
  // Before the next execution: the columns stay (a statement's are fixed).
  void Reset() {
    rows.Clear();
    nrows = 0;
    cursor = 0;
    freed = false;
  }
};

template <typename T>
inline T* Check(lua_State* L, int i, const char* meta) {
  return *static_cast<T**>(luaL_checkudata(L, i, meta));
}

template <typename T>
inline T** NewUd(lua_State* L, const char* meta, T* v) {
  auto** p = static_cast<T**>(lua_newuserdata(L, sizeof(T*)));
  *p = v;
  luaL_getmetatable(L, meta);
  lua_setmetatable(L, -2);
  return p;
}

// Counts a statement that ran (not prepared, or emulated) as sysbench 1.0
// does: a result set is a read, else a write when it changed rows, else
// other.
inline void CountResult(lua_State* L, const DbRows& rows, const DbExecResult& r) {
  if (!rows.columns.empty()) {
    Count(L, kOltpReads);
  } else if (r.rows_affected > 0) {
    Count(L, kOltpWrites);
  } else {
    Count(L, kOltpOthers);
  }
}

// The reused result in `res`/`ref` (created on first use), emptied.
inline LuaResult* ReusedResult(lua_State* L, LuaResult*& res, int& ref) {
  if (ref == LUA_NOREF) {
    res = new LuaResult;
    res->reused = true;
    NewUd(L, kResultMeta, res);
    ref = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  res->Reset();
  return res;
}

// Fills `res` from an execution and pushes it.
inline int PushResult(lua_State* L, LuaResult* res, int ref, const DbExecResult& r) {
  res->nrows = res->rows.columns.empty() ? r.rows_affected : res->rows.rows.size();
  if (ref == LUA_NOREF) {
    NewUd(L, kResultMeta, res);
  } else {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  }
  return 1;
}

// The connection of argument 1; raises an error when it is closed.
LuaConn* CheckConn(lua_State* L);

// Raises the error of a failed statement: sysbench.error.RESTART_EVENT for an
// ignorable one (after a rollback), or a message naming the query.
int RaiseSqlError(lua_State* L, LuaConn* c, const DbError& e, std::string_view sql);

// Methods of connections (con:prepare), statements and binds:
// lua_sql_statement.cpp.
int ConnPrepare(lua_State* L);
int StmtBindCreate(lua_State* L);
int StmtBindParam(lua_State* L);
int StmtExecute(lua_State* L);
int StmtClose(lua_State* L);
int StmtGc(lua_State* L);
int BindSet(lua_State* L);
int BindSetRandStr(lua_State* L);
int BindGc(lua_State* L);

// Results (lua_sql_result.cpp): __index serves rs.nrows and rs.nfields, the
// methods (its upvalue) everything else.
int ResultIndex(lua_State* L);
int ResultFetchRow(lua_State* L);
int ResultFree(lua_State* L);
int ResultGc(lua_State* L);

}  // namespace loadcell::luaapi::sql
