#include "lua/lua_host.h"

#include <lua.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "core/version.h"
#include "lua/lua_prelude.h"
#include "runner/recorder.h"
#include "workloads/oltp_txn.h"

namespace loadcell {
namespace {

constexpr int kRestartEvent = 1;  // sysbench.error.RESTART_EVENT
constexpr int kSqlIgnorable = 1;  // sysbench.sql.error.IGNORABLE
constexpr int kSqlFatal = 2;
constexpr size_t kBulkFlushBytes = 512 * 1024;
const char kStateKey = 0;  // address used as registry key
const char* const kConnMeta = "loadcell.sql.connection";
const char* const kStmtMeta = "loadcell.sql.statement";
const char* const kBindMeta = "loadcell.sql.bind";
const char* const kResultMeta = "loadcell.sql.result";
const char* const kDriverMeta = "loadcell.sql.driver";

LuaThreadState& Ctx(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kStateKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* s = static_cast<LuaThreadState*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return *s;
}

void Count(lua_State* L, int counter, uint64_t n = 1) {
  LuaThreadState& c = Ctx(L);
  if (c.recorder != nullptr) c.recorder->Add(counter, n);
}

// ---- sysbench.rand ------------------------------------------------------

int64_t ArgInt(lua_State* L, int i) { return static_cast<int64_t>(luaL_checknumber(L, i)); }

// Distribution of `type` (index in DistributionNames, -1 = --rand-type).
int DrawFrom(lua_State* L, int type) {
  LuaThreadState& c = Ctx(L);
  int64_t a = ArgInt(L, 1), b = ArgInt(L, 2);
  if (b < a) return luaL_error(L, "bad range [%d, %d]", static_cast<int>(a), static_cast<int>(b));
  const auto lo = static_cast<uint64_t>(a), hi = static_cast<uint64_t>(b);
  int t = type;
  if (t < 0) {
    const auto& names = DistributionNames();
    t = 2;
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == c.shared->rand.type) t = static_cast<int>(i);
    }
  }
  if (t == 0) {
    lua_pushnumber(L, static_cast<double>(static_cast<int64_t>(c.rng.Uniform(lo, hi))));
    return 1;
  }
  for (auto& e : c.cache) {
    if (e.type == t && e.lo == lo && e.hi == hi && e.dist) {
      lua_pushnumber(L, static_cast<double>(static_cast<int64_t>(e.dist->Next(c.rng))));
      return 1;
    }
  }
  DistributionConfig cfg = c.shared->rand;
  cfg.type = DistributionNames()[t];
  Result<Distribution> d = Distribution::Create(cfg, lo, hi);
  if (!d.ok()) return luaL_error(L, "%s", d.status().message().c_str());
  auto& slot = c.cache[c.cache_next];
  c.cache_next = (c.cache_next + 1) % 8;
  slot.type = t;
  slot.lo = lo;
  slot.hi = hi;
  slot.dist.emplace(std::move(d).value());
  lua_pushnumber(L, static_cast<double>(static_cast<int64_t>(slot.dist->Next(c.rng))));
  return 1;
}
int RandDefault(lua_State* L) { return DrawFrom(L, -1); }
int RandUniform(lua_State* L) { return DrawFrom(L, 0); }
int RandGaussian(lua_State* L) { return DrawFrom(L, 1); }
int RandSpecial(lua_State* L) { return DrawFrom(L, 2); }
int RandPareto(lua_State* L) { return DrawFrom(L, 3); }
int RandZipfian(lua_State* L) { return DrawFrom(L, 4); }

int RandUniformUint64(lua_State* L) {
  // LuaJIT numbers are doubles: returned as a uint64_t cdata-free number
  // would lose bits, so the value is given as a double of the top 53 bits
  // unless an exact integer fits.
  uint64_t v = Ctx(L).rng.Next();
  lua_pushnumber(L, static_cast<double>(v));
  return 1;
}

int RandUniformDouble(lua_State* L) {
  lua_pushnumber(L, Ctx(L).rng.NextDouble());
  return 1;
}

// A 32-bit number not returned before by this thread (until 2^32 calls):
// an affine map x -> m*x + a (m odd) over a counter is a bijection mod 2^32.
int RandUnique(lua_State* L) {
  LuaThreadState& c = Ctx(L);
  uint32_t v = c.unique_mult * c.unique_next++ + c.unique_add;
  lua_pushnumber(L, static_cast<double>(v));
  return 1;
}

// '#' -> a digit, '@' -> a lowercase letter, anything else verbatim.
void RandString(Random& rng, const char* p, size_t n, std::string& out) {
  out.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (p[i] == '#') {
      out[i] = static_cast<char>('0' + rng.Uniform(0, 9));
    } else if (p[i] == '@') {
      out[i] = static_cast<char>('a' + rng.Uniform(0, 25));
    } else {
      out[i] = p[i];
    }
  }
}

int RandStringFn(lua_State* L) {
  size_t n = 0;
  const char* p = luaL_checklstring(L, 1, &n);
  thread_local std::string buf;
  RandString(Ctx(L).rng, p, n, buf);
  lua_pushlstring(L, buf.data(), buf.size());
  return 1;
}

// ---- sysbench.sql ---------------------------------------------------------

struct LuaStmt;
struct LuaResult;

struct LuaConn {
  std::unique_ptr<DbConnection> conn;
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
  // sysbench reuses one result set per connection).
  LuaResult* result = nullptr;
  int result_ref = LUA_NOREF;
};

struct LuaResult {
  bool has_rows = true;  // false for a prepared statement's result: counts only
  DbRows rows;
  uint64_t nrows = 0;
  size_t cursor = 0;
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
  std::string msg = std::string(lua_tostring(L, -1)) + "SQL error, errno = " +
                    std::to_string(e.code) + ", state = '" + e.sqlstate + "': " + e.message +
                    " (query: " + std::string(sql.substr(0, 200)) + ")";
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

// Pushes a result object (for a result set) or the affected-row count.
int PushResult(lua_State* L, DbRows&& rows, const DbExecResult& r) {
  if (rows.columns.empty()) {
    lua_pushnil(L);
    return 1;
  }
  auto* res = new LuaResult;
  res->rows = std::move(rows);
  res->nrows = res->rows.rows.size();
  NewUd(L, kResultMeta, res);
  return 1;
}

int ConnQuery(lua_State* L) {
  LuaConn* c = CheckConn(L);
  size_t n = 0;
  const char* sql = luaL_checklstring(L, 2, &n);
  DbRows rows;
  DbExecResult r;
  DbError e = c->conn->Execute(std::string_view(sql, n), r, &rows);
  if (!e.ok()) return RaiseSqlError(L, c, e, std::string_view(sql, n));
  CountResult(L, rows, r);
  return PushResult(L, std::move(rows), r);
}

int ConnQueryRow(lua_State* L) {
  LuaConn* c = CheckConn(L);
  size_t n = 0;
  const char* sql = luaL_checklstring(L, 2, &n);
  DbRows rows;
  DbExecResult r;
  DbError e = c->conn->Execute(std::string_view(sql, n), r, &rows);
  if (!e.ok()) return RaiseSqlError(L, c, e, std::string_view(sql, n));
  CountResult(L, rows, r);
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
  DbRows rows;
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
    e = s->st->Execute(r, nullptr);
    if (!e.ok()) return RaiseSqlError(L, c, e, s->sql);
    if (!s->is_select) {
      Count(L, r.rows_affected > 0 ? kOltpWrites : kOltpOthers);
      return 0;
    }
    Count(L, kOltpReads);
    // A prepared statement's result carries its row count only (fetch_row()
    // is for con:query() results).
    if (s->result_ref == LUA_NOREF) {
      s->result = new LuaResult;
      s->result->has_rows = false;
      NewUd(L, kResultMeta, s->result);
      s->result_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    s->result->nrows = r.rows_returned;
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->result_ref);
    return 1;
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
    e = c->conn->Execute(text, r, &rows);
  }
  if (!e.ok()) return RaiseSqlError(L, c, e, s->sql);
  CountResult(L, rows, r);
  return PushResult(L, std::move(rows), r);
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
      b->s = lua_toboolean(L, 2) ? "1" : "0";
    } else {
      lua_pushvalue(L, 2);  // lua_tolstring converts numbers in place
      size_t n = 0;
      const char* v = lua_tolstring(L, -1, &n);
      if (v == nullptr) return luaL_error(L, "bind:set(): a %s cannot be bound", luaL_typename(L, 2));
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
  if (r == nullptr) luaL_error(L, "result was freed");
  return r;
}

int ResultNrows(lua_State* L) {
  lua_pushnumber(L, static_cast<double>(CheckResult(L)->nrows));
  return 1;
}

int ResultNfields(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(CheckResult(L)->rows.columns.size()));
  return 1;
}

// The next row as a table of strings (NULL -> nil), or nil at the end.
int ResultFetchRow(lua_State* L) {
  LuaResult* r = CheckResult(L);
  if (!r->has_rows) {
    return luaL_error(L, "fetch_row() is not available on a prepared statement's result; "
                         "use con:query() to read rows");
  }
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

// rs:free(): a query() result is freed at once; a statement's reused result
// is left to its statement.
int ResultFree(lua_State* L) {
  auto** p = static_cast<LuaResult**>(luaL_checkudata(L, 1, kResultMeta));
  if (*p != nullptr && !(*p)->has_rows) return 0;
  return ResultGc(L);
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
    return luaL_error(L, "driver '%s' is not the one selected (--db-driver=%s)",
                      lua_tostring(L, 1), c.shared->driver->Name().c_str());
  }
  lua_newtable(L);
  luaL_getmetatable(L, kDriverMeta);
  lua_setmetatable(L, -2);
  return 1;
}

void NewMeta(lua_State* L, const char* name, const luaL_Reg* methods, lua_CFunction gc) {
  luaL_newmetatable(L, name);
  lua_newtable(L);
  luaL_register(L, nullptr, methods);
  lua_setfield(L, -2, "__index");
  if (gc != nullptr) {
    lua_pushcfunction(L, gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_pop(L, 1);
}

void InstallApi(lua_State* L) {
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
  static const luaL_Reg kRes[] = {{"nrows", ResultNrows},
                                  {"nfields", ResultNfields},
                                  {"fetch_row", ResultFetchRow},
                                  {"free", ResultFree},
                                  {nullptr, nullptr}};
  static const luaL_Reg kDrv[] = {
      {"connect", DriverConnect}, {"name", DriverName}, {nullptr, nullptr}};
  NewMeta(L, kConnMeta, kConn, ConnGc);
  NewMeta(L, kStmtMeta, kStmt, StmtGc);
  NewMeta(L, kBindMeta, kBind, BindGc);
  NewMeta(L, kResultMeta, kRes, ResultGc);
  NewMeta(L, kDriverMeta, kDrv, nullptr);

  static const luaL_Reg kRand[] = {{"default", RandDefault},
                                   {"uniform", RandUniform},
                                   {"gaussian", RandGaussian},
                                   {"special", RandSpecial},
                                   {"pareto", RandPareto},
                                   {"zipfian", RandZipfian},
                                   {"uniform_uint64", RandUniformUint64},
                                   {"uniform_double", RandUniformDouble},
                                   {"unique", RandUnique},
                                   {"string", RandStringFn},
                                   {nullptr, nullptr}};
  lua_newtable(L);  // sysbench
  lua_newtable(L);
  luaL_register(L, nullptr, kRand);
  lua_setfield(L, -2, "rand");
  lua_newtable(L);
  lua_pushcfunction(L, SqlDriver);
  lua_setfield(L, -2, "driver");
  lua_setfield(L, -2, "sql");
  lua_newtable(L);
  lua_setfield(L, -2, "cmdline");
  lua_newtable(L);
  lua_setfield(L, -2, "opt");
  lua_pushstring(L, kVersion);
  lua_setfield(L, -2, "version");
  lua_pushstring(L, (std::string("loadcell ") + kVersion).c_str());
  lua_setfield(L, -2, "version_string");
  lua_setglobal(L, "sysbench");
}

// "@path" chunk names make messages read "path:line: message".
Status LoadFileChunk(lua_State* L, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound("cannot open script '" + path + "'");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  if (text.rfind("#!", 0) == 0) text.insert(0, "--");  // keep line numbers
  std::string chunk = "@" + path;
  if (luaL_loadbuffer(L, text.data(), text.size(), chunk.c_str()) != 0) {
    std::string msg = lua_tostring(L, -1);
    lua_pop(L, 1);
    return Status::Internal("syntax error in script: " + msg);
  }
  return Status::Ok();
}

int Traceback(lua_State* L) {
  // Keep tables (RESTART_EVENT) as they are; strings stay as the message.
  return 1;
}

}  // namespace

LuaHost::~LuaHost() {
  if (L_ != nullptr) lua_close(L_);
}

std::string LuaHost::PopError() {
  std::string msg;
  if (lua_isstring(L_, -1)) {
    msg = lua_tostring(L_, -1);
  } else if (lua_istable(L_, -1)) {
    lua_getfield(L_, -1, "sql_errmsg");
    msg = lua_isstring(L_, -1) ? std::string("error object: ") + lua_tostring(L_, -1)
                               : "error object (a table)";
    lua_pop(L_, 1);
  } else {
    msg = std::string("error object (") + luaL_typename(L_, -1) + ")";
  }
  lua_pop(L_, 1);
  return msg;
}

Status LuaHost::Open(const LuaShared& shared, int tid, uint64_t seed, ThreadRecorder* recorder,
                     bool with_options) {
  L_ = luaL_newstate();
  if (L_ == nullptr) return Status::Internal("cannot create a Lua interpreter");
  state_.shared = &shared;
  state_.tid = tid;
  state_.recorder = recorder;
  state_.rng = Random(seed);
  state_.unique_mult = static_cast<uint32_t>(state_.rng.Next()) | 1u;
  state_.unique_add = static_cast<uint32_t>(state_.rng.Next());
  luaL_openlibs(L_);
  lua_pushlightuserdata(L_, const_cast<char*>(&kStateKey));
  lua_pushlightuserdata(L_, &state_);
  lua_rawset(L_, LUA_REGISTRYINDEX);
  lua_pushcfunction(L_, Traceback);  // stack slot 1: the pcall handler

  // package.path: the script's folder, then sysbench's.
  std::string dir = ".";
  if (size_t slash = shared.path.find_last_of('/'); slash != std::string::npos) {
    dir = shared.path.substr(0, slash);
    if (dir.empty()) dir = "/";
  }
  lua_getglobal(L_, "package");
  lua_getfield(L_, -1, "path");
  std::string path = dir + "/?.lua;/usr/share/sysbench/?.lua;" + lua_tostring(L_, -1);
  lua_pop(L_, 1);
  lua_pushstring(L_, path.c_str());
  lua_setfield(L_, -2, "path");
  lua_pop(L_, 1);

  InstallApi(L_);
  lua_getglobal(L_, "sysbench");
  lua_pushinteger(L_, tid);
  lua_setfield(L_, -2, "tid");
  lua_getfield(L_, -1, "cmdline");
  if (shared.command.empty()) {
    lua_pushnil(L_);
  } else {
    lua_pushstring(L_, shared.command.c_str());
  }
  lua_setfield(L_, -2, "command");
  lua_pushstring(L_, shared.path.c_str());
  lua_setfield(L_, -2, "script_path");
  lua_newtable(L_);
  lua_pushstring(L_, "loadcell");
  lua_rawseti(L_, -2, 0);
  for (size_t i = 0; i < shared.argv.size(); ++i) {
    lua_pushstring(L_, shared.argv[i].c_str());
    lua_rawseti(L_, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L_, -2, "argv");
  lua_pop(L_, 1);  // cmdline
  // sysbench.opt: general options, then the script's.
  lua_getfield(L_, -1, "opt");
  for (const auto& [name, tv] : shared.general) {
    const auto& [type, text] = tv;
    if (type == static_cast<int>(OptionType::kBool)) {
      lua_pushboolean(L_, text == "on");
    } else if (type == static_cast<int>(OptionType::kInt) ||
               type == static_cast<int>(OptionType::kDouble) ||
               type == static_cast<int>(OptionType::kSeconds)) {
      lua_pushnumber(L_, std::strtod(text.c_str(), nullptr));
    } else {
      lua_pushstring(L_, text.c_str());
    }
    lua_setfield(L_, -2, name.c_str());
  }
  lua_pushinteger(L_, shared.threads);
  lua_setfield(L_, -2, "threads");
  if (with_options && shared.options != nullptr) {
    for (const ScriptOption& o : *shared.options) {
      switch (o.type) {
        case ScriptOption::Type::kBool:
          lua_pushboolean(L_, o.b);
          break;
        case ScriptOption::Type::kInt:
          lua_pushnumber(L_, static_cast<double>(o.i));
          break;
        case ScriptOption::Type::kDouble:
          lua_pushnumber(L_, o.d);
          break;
        case ScriptOption::Type::kString:
          lua_pushstring(L_, o.s.c_str());
          break;
        case ScriptOption::Type::kList:
          lua_createtable(L_, static_cast<int>(o.list.size()), 0);
          for (size_t i = 0; i < o.list.size(); ++i) {
            lua_pushstring(L_, o.list[i].c_str());
            lua_rawseti(L_, -2, static_cast<int>(i + 1));
          }
          break;
      }
      lua_setfield(L_, -2, o.name.c_str());
    }
  }
  lua_pop(L_, 2);  // opt, sysbench

  if (luaL_loadbuffer(L_, kLuaPrelude, std::strlen(kLuaPrelude), "=sysbench-api") != 0 ||
      lua_pcall(L_, 0, 0, 1) != 0) {
    return Status::Internal("Lua API prelude failed: " + PopError());
  }
  lua_pushinteger(L_, tid);
  lua_setglobal(L_, "thread_id");  // sysbench 0.5 scripts read it

  LC_RETURN_IF_ERROR(LoadFileChunk(L_, shared.path));
  if (lua_pcall(L_, 0, 0, 1) != 0) {
    return Status::Internal("error in script: " + PopError());
  }
  // Options set at load time reach sysbench.opt too (in case the script
  // replaced the table).
  lua_getglobal(L_, "event");
  if (lua_isfunction(L_, -1)) {
    event_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  } else {
    lua_pop(L_, 1);
  }
  return Status::Ok();
}

bool LuaHost::HasFunction(const char* name) {
  lua_getglobal(L_, name);
  bool f = lua_isfunction(L_, -1);
  lua_pop(L_, 1);
  return f;
}

Status LuaHost::CallIfPresent(const char* name, bool with_tid) {
  lua_getglobal(L_, name);
  if (!lua_isfunction(L_, -1)) {
    lua_pop(L_, 1);
    return Status::Ok();
  }
  int nargs = 0;
  if (with_tid) {
    lua_pushinteger(L_, state_.tid);
    nargs = 1;
  }
  if (lua_pcall(L_, nargs, 0, 1) != 0) {
    return Status::Internal(std::string("script error in ") + name + "(): " + PopError());
  }
  return Status::Ok();
}

Status LuaHost::CallTop(const std::string& what) {
  lua_pushinteger(L_, state_.tid);
  if (lua_pcall(L_, 1, 0, 1) != 0) {
    return Status::Internal("script error in " + what + ": " + PopError());
  }
  return Status::Ok();
}

Status LuaHost::RunEvent(uint64_t* restarts) {
  *restarts = 0;
  for (;;) {
    lua_rawgeti(L_, LUA_REGISTRYINDEX, event_ref_);
    lua_pushinteger(L_, state_.tid);
    if (lua_pcall(L_, 1, 0, 1) == 0) return Status::Ok();
    bool restart = false;
    if (lua_istable(L_, -1)) {
      lua_getfield(L_, -1, "errcode");
      restart = lua_isnumber(L_, -1) && lua_tointeger(L_, -1) == kRestartEvent;
      lua_pop(L_, 1);
    }
    if (!restart) return Status::Internal("script error in event(): " + PopError());
    ++*restarts;
    if (*restarts > 100000) {
      lua_pop(L_, 1);
      return Status::Internal("event() restarted 100000 times in a row; giving up");
    }
    // sysbench.hooks.before_restart_event(errdesc)
    lua_getglobal(L_, "sysbench");
    lua_getfield(L_, -1, "hooks");
    lua_getfield(L_, -1, "before_restart_event");
    if (lua_isfunction(L_, -1)) {
      lua_pushvalue(L_, -4);
      if (lua_pcall(L_, 1, 0, 1) != 0) {
        std::string msg = PopError();
        lua_pop(L_, 3);
        return Status::Internal("script error in before_restart_event(): " + msg);
      }
      lua_pop(L_, 2);
    } else {
      lua_pop(L_, 3);
    }
    lua_pop(L_, 1);  // the error object
  }
}

Status LuaHost::ReadOptions(std::vector<ScriptOption>& out) {
  lua_getglobal(L_, "sysbench");
  lua_getfield(L_, -1, "cmdline");
  lua_getfield(L_, -1, "options");
  if (!lua_istable(L_, -1)) {
    lua_pop(L_, 3);
    return Status::Ok();
  }
  lua_pushnil(L_);
  while (lua_next(L_, -2) != 0) {
    // key at -2, value at -1
    if (lua_type(L_, -2) != LUA_TSTRING || !lua_istable(L_, -1)) {
      lua_pop(L_, 4);
      return Status::InvalidArgument(
          "sysbench.cmdline.options: each entry must be name = {\"description\", default}");
    }
    ScriptOption o;
    o.name = lua_tostring(L_, -2);
    lua_rawgeti(L_, -1, 1);
    if (lua_isstring(L_, -1)) o.help = lua_tostring(L_, -1);
    lua_pop(L_, 1);
    lua_rawgeti(L_, -1, 2);
    switch (lua_type(L_, -1)) {
      case LUA_TBOOLEAN:
        o.type = ScriptOption::Type::kBool;
        o.b = lua_toboolean(L_, -1) != 0;
        break;
      case LUA_TNUMBER: {
        double d = lua_tonumber(L_, -1);
        if (std::floor(d) == d && std::fabs(d) < 9e15) {
          o.type = ScriptOption::Type::kInt;
          o.i = static_cast<int64_t>(d);
        } else {
          o.type = ScriptOption::Type::kDouble;
          o.d = d;
        }
        break;
      }
      case LUA_TTABLE: {
        o.type = ScriptOption::Type::kList;
        for (int i = 1;; ++i) {
          lua_rawgeti(L_, -1, i);
          if (lua_isnil(L_, -1)) {
            lua_pop(L_, 1);
            break;
          }
          o.list.push_back(lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "");
          lua_pop(L_, 1);
        }
        break;
      }
      case LUA_TSTRING:
        o.s = lua_tostring(L_, -1);
        break;
      default:
        break;
    }
    lua_pop(L_, 2);
    out.push_back(std::move(o));
  }
  lua_pop(L_, 3);
  std::sort(out.begin(), out.end(),
            [](const ScriptOption& a, const ScriptOption& b) { return a.name < b.name; });
  return Status::Ok();
}

}  // namespace loadcell
