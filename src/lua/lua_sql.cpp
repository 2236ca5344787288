// sysbench.sql: driver, connections, prepared statements, binds, results.

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>

#include "lua/lua_api.h"
#include "runner/recorder.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell::luaapi {
namespace {

constexpr int kSqlIgnorable = 1;  // sysbench.sql.error.IGNORABLE
constexpr int kSqlFatal = 2;
constexpr size_t kBulkFlushBytes = 512 * 1024;
const char* const kConnMeta = "loadcell.sql.connection";
const char* const kStmtMeta = "loadcell.sql.statement";
const char* const kBindMeta = "loadcell.sql.bind";
const char* const kResultMeta = "loadcell.sql.result";
const char* const kDriverMeta = "loadcell.sql.driver";

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
T* Check(lua_State* L, int i, const char* meta) {
  return *static_cast<T**>(luaL_checkudata(L, i, meta));
}

template <typename T>
T** NewUd(lua_State* L, const char* meta, T* v) {
  auto** p = static_cast<T**>(lua_newuserdata(L, sizeof(T*)));
  *p = v;
  luaL_getmetatable(L, meta);
  lua_setmetatable(L, -2);
  return p;
}

LuaConn* CheckConn(lua_State* L) {
  LuaConn* c = Check<LuaConn>(L, 1, kConnMeta);
  if (c == nullptr || c->conn == nullptr) luaL_error(L, "connection is closed");
  return c;
}

bool IsDeadlockLike(const DbError& e) {
  return e.code == 1213 || e.sqlstate == "40P01" || e.sqlstate == "40001";
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
  lua_pushstring(L, e.message.c_str());
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
    if (IsDeadlockLike(e)) Count(L, kOltpDeadlocks);
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

// Whether a statement returns a result set, from its first keyword.
bool ReturnsRows(std::string_view sql) {
  size_t i = 0;
  while (i < sql.size() && (std::isspace(static_cast<unsigned char>(sql[i])) || sql[i] == '(')) ++i;
  std::string word;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) {
    word += static_cast<char>(std::toupper(static_cast<unsigned char>(sql[i++])));
  }
  return word == "SELECT" || word == "SHOW" || word == "WITH" || word == "VALUES" ||
         word == "EXPLAIN" || word == "DESCRIBE" || word == "DESC" || word == "TABLE" ||
         word == "PRAGMA";
}

void CountResult(lua_State* L, const DbRows& rows, const DbExecResult& r) {
  if (!rows.columns.empty()) {
    Count(L, kOltpReads);
  } else if (r.rows_affected > 0) {
    Count(L, kOltpWrites);
  } else {
    Count(L, kOltpOthers);
  }
}

// The reused result in `res`/`ref` (created on first use), emptied.
LuaResult* ReusedResult(lua_State* L, LuaResult*& res, int& ref) {
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
int PushResult(lua_State* L, LuaResult* res, int ref, const DbExecResult& r) {
  res->nrows = res->rows.columns.empty() ? r.rows_affected : res->rows.rows.size();
  if (ref == LUA_NOREF) {
    NewUd(L, kResultMeta, res);
  } else {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
  }
  return 1;
}

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

int ConnPrepare(lua_State* L) {
  LuaConn* c = CheckConn(L);
  size_t n = 0;
  const char* sql = luaL_checklstring(L, 2, &n);
  auto* s = new LuaStmt;
  s->conn = c;
  s->sql.assign(sql, n);
  s->nparams = CountPlaceholders(s->sql);
  s->is_select = ReturnsRows(s->sql);
  DbError e = c->conn->Prepare(s->sql, s->nparams, s->st);
  if (!e.ok()) {
    // Statements the server cannot prepare (e.g. MySQL error 1295) run as
    // text with the binds quoted in.
    if (e.cls == DbErrorClass::kReconnect) {
      delete s;
      return RaiseSqlError(L, c, e, std::string_view(sql, n));
    }
    s->emulated = true;
  }
  s->binds.assign(s->nparams, nullptr);
  s->bind_refs.assign(s->nparams, LUA_NOREF);
  c->stmts.insert(s);
  NewUd(L, kStmtMeta, s);
  lua_pushvalue(L, 1);
  s->conn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 1;
}

void CloseStmt(lua_State* L, LuaStmt* s) {
  s->st.reset();
  if (s->conn != nullptr) s->conn->stmts.erase(s);
  s->conn = nullptr;
  for (int& r : s->bind_refs) {
    luaL_unref(L, LUA_REGISTRYINDEX, r);
    r = LUA_NOREF;
  }
  luaL_unref(L, LUA_REGISTRYINDEX, s->conn_ref);
  s->conn_ref = LUA_NOREF;
  luaL_unref(L, LUA_REGISTRYINDEX, s->result_ref);
  s->result_ref = LUA_NOREF;
  s->result = nullptr;
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

bool IsIntType(int t) { return t >= 1 && t <= 4; }
bool IsFloatType(int t) { return t == 5 || t == 6; }

int StmtBindCreate(lua_State* L) {
  LuaStmt* s = Check<LuaStmt>(L, 1, kStmtMeta);
  if (s == nullptr) return luaL_error(L, "statement is closed");
  auto* b = new LuaBind;
  b->type = static_cast<int>(luaL_checkinteger(L, 2));
  NewUd(L, kBindMeta, b);
  return 1;
}

int StmtBindParam(lua_State* L) {
  LuaStmt* s = Check<LuaStmt>(L, 1, kStmtMeta);
  if (s == nullptr) return luaL_error(L, "statement is closed");
  int n = lua_gettop(L) - 1;
  if (n > s->nparams) {
    return luaL_error(L, "bind_param: %d binds for a statement with %d placeholders", n,
                      s->nparams);
  }
  for (int i = 0; i < n; ++i) {
    LuaBind* b = Check<LuaBind>(L, i + 2, kBindMeta);
    luaL_unref(L, LUA_REGISTRYINDEX, s->bind_refs[i]);
    lua_pushvalue(L, i + 2);
    s->bind_refs[i] = luaL_ref(L, LUA_REGISTRYINDEX);
    s->binds[i] = b;
  }
  return 0;
}

DbValue BindValue(const LuaBind* b) {
  if (b == nullptr || b->is_null) return DbValue::Null();
  if (IsIntType(b->type)) return DbValue::Int(b->i);
  if (IsFloatType(b->type)) return DbValue::Double(b->d);
  return DbValue::String(b->s);
}

int StmtExecute(lua_State* L) {
  LuaStmt* s = Check<LuaStmt>(L, 1, kStmtMeta);
  if (s == nullptr || s->conn == nullptr || s->conn->conn == nullptr) {
    return luaL_error(L, "statement is closed (or its connection)");
  }
  LuaConn* c = s->conn;
  LuaResult* res = ReusedResult(L, s->result, s->result_ref);
  DbExecResult r;
  DbError e;
  if (!s->emulated && s->st != nullptr) {
    for (int i = 0; i < s->nparams; ++i) {
      const LuaBind* b = s->binds[i];
      if (b == nullptr || b->is_null) {
        s->st->BindNull(i);
      } else if (IsIntType(b->type)) {
        s->st->BindInt(i, b->i);
      } else if (IsFloatType(b->type)) {
        s->st->BindDouble(i, b->d);
      } else {
        s->st->BindString(i, b->s);
      }
    }
    e = s->st->Execute(r, &res->rows);
    if (!e.ok()) return RaiseSqlError(L, c, e, s->sql);
    if (s->is_select) {
      Count(L, kOltpReads);
    } else {
      Count(L, r.rows_affected > 0 ? kOltpWrites : kOltpOthers);
    }
  } else {
    std::string text;
    int k = 0;
    char quote = 0;
    for (char ch : s->sql) {
      if (quote != 0) {
        if (ch == quote) quote = 0;
        text += ch;
      } else if (ch == '\'' || ch == '"') {
        quote = ch;
        text += ch;
      } else if (ch == '?' && k < s->nparams) {
        c->conn->AppendLiteral(text, BindValue(s->binds[k++]));
      } else {
        text += ch;
      }
    }
    e = c->conn->Execute(text, r, &res->rows);
    if (!e.ok()) return RaiseSqlError(L, c, e, s->sql);
    CountResult(L, res->rows, r);
  }
  return PushResult(L, res, s->result_ref, r);
}

int StmtClose(lua_State* L) {
  LuaStmt* s = Check<LuaStmt>(L, 1, kStmtMeta);
  if (s != nullptr) CloseStmt(L, s);
  return 0;
}

int StmtGc(lua_State* L) {
  auto** p = static_cast<LuaStmt**>(luaL_checkudata(L, 1, kStmtMeta));
  if (*p != nullptr) {
    CloseStmt(L, *p);
    delete *p;
    *p = nullptr;
  }
  return 0;
}

int BindSet(lua_State* L) {
  LuaBind* b = Check<LuaBind>(L, 1, kBindMeta);
  if (lua_isnoneornil(L, 2)) {
    b->is_null = true;
    return 0;
  }
  b->is_null = false;
  if (IsIntType(b->type)) {
    b->i = static_cast<int64_t>(luaL_checknumber(L, 2));
  } else if (IsFloatType(b->type)) {
    b->d = luaL_checknumber(L, 2);
  } else {
    if (lua_type(L, 2) == LUA_TBOOLEAN) {
      b->s.assign(1, lua_toboolean(L, 2) ? '1' : '0');
    } else {
      lua_pushvalue(L, 2);  // lua_tolstring converts numbers in place
      size_t n = 0;
      const char* v = lua_tolstring(L, -1, &n);
      if (v == nullptr)
        return luaL_error(L, "bind:set(): a %s cannot be bound", luaL_typename(L, 2));
      b->s.assign(v, n);
      lua_pop(L, 1);
    }
  }
  return 0;
}

int BindSetRandStr(lua_State* L) {
  LuaBind* b = Check<LuaBind>(L, 1, kBindMeta);
  size_t n = 0;
  const char* p = luaL_checklstring(L, 2, &n);
  RandString(Ctx(L).rng, p, n, b->s);
  b->is_null = false;
  return 0;
}

int BindGc(lua_State* L) {
  auto** p = static_cast<LuaBind**>(luaL_checkudata(L, 1, kBindMeta));
  delete *p;
  *p = nullptr;
  return 0;
}

LuaResult* CheckResult(lua_State* L) {
  LuaResult* r = Check<LuaResult>(L, 1, kResultMeta);
  if (r == nullptr || r->freed) luaL_error(L, "result was freed");
  return r;
}

// rs.nrows and rs.nfields are fields (as in sysbench, where the result is a
// C struct); other keys are the methods (upvalue 1).
int ResultIndex(lua_State* L) {
  size_t n = 0;
  const char* key = lua_tolstring(L, 2, &n);
  const std::string_view k = key != nullptr ? std::string_view(key, n) : std::string_view();
  if (k == "nrows") {
    lua_pushnumber(L, static_cast<double>(CheckResult(L)->nrows));
    return 1;
  }
  if (k == "nfields") {
    lua_pushnumber(L, static_cast<double>(CheckResult(L)->rows.columns.size()));
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

// The next row as a table of strings (NULL -> nil), or nil at the end.
int ResultFetchRow(lua_State* L) {
  LuaResult* r = CheckResult(L);
  if (r->cursor >= r->rows.rows.size()) return 0;
  const auto& row = r->rows.rows[r->cursor++];
  lua_createtable(L, static_cast<int>(row.size()), 0);
  for (size_t i = 0; i < row.size(); ++i) {
    if (row[i]) {
      lua_pushlstring(L, row[i]->data(), row[i]->size());
      lua_rawseti(L, -2, static_cast<int>(i + 1));
    }
  }
  return 1;
}

int ResultGc(lua_State* L) {
  auto** p = static_cast<LuaResult**>(luaL_checkudata(L, 1, kResultMeta));
  delete *p;
  *p = nullptr;
  return 0;
}

// rs:free(): a query() result is freed at once; a reused one (of a statement
// or connection) lets its rows go and is filled again by the next execution.
int ResultFree(lua_State* L) {
  auto** p = static_cast<LuaResult**>(luaL_checkudata(L, 1, kResultMeta));
  if (*p == nullptr) return 0;
  if (!(*p)->reused) return ResultGc(L);
  (*p)->rows.Clear();
  (*p)->freed = true;
  return 0;
}

int DriverConnect(lua_State* L) {
  LuaThreadState& c = Ctx(L);
  if (c.shared->driver == nullptr) return luaL_error(L, "no database driver was set up");
  auto conn = c.shared->driver->Connect(c.tid);
  if (!conn.ok()) return luaL_error(L, "connection failed: %s", conn.status().message().c_str());
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

void InstallSql(lua_State* L) {
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
