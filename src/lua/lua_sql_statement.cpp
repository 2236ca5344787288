// sysbench.sql's prepared statements and binds: con:prepare(), a
// statement's binds and execute() (through the driver's prepared statement,
// or as text with the binds quoted in), bind:set().

#include <cctype>
#include <string>

#include "lua/lua_sql.h"

namespace loadcell::luaapi::sql {
namespace {

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

bool IsIntType(int t) { return t >= 1 && t <= 4; }
bool IsFloatType(int t) { return t == 5 || t == 6; }
bool IsTextType(int t) { return t == 11 || t == 12; }

DbValue BindValue(const LuaBind* b) {
  if (b == nullptr || b->is_null) return DbValue::Null();
  if (IsIntType(b->type)) return DbValue::Int(b->i);
  if (IsFloatType(b->type)) return DbValue::Double(b->d);
  return DbValue::String(b->s);
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

}  // namespace

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

int StmtBindCreate(lua_State* L) {
  LuaStmt* s = Check<LuaStmt>(L, 1, kStmtMeta);
  if (s == nullptr) return luaL_error(L, "statement is closed");
  const int type = static_cast<int>(luaL_checkinteger(L, 2));
  // sysbench binds integers, reals and strings only (TIME, DATE... refused).
  if (!IsIntType(type) && !IsFloatType(type) && !IsTextType(type)) {
    return luaL_error(L, "Unsupported argument type: %d", type);
  }
  auto* b = new LuaBind;
  b->type = type;
  if (IsTextType(type)) {
    const lua_Integer len = luaL_optinteger(L, 3, 0);
    b->max_len = len > 0 ? static_cast<size_t>(len) : 0;
  }
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
  // As sysbench: nil without binds, else the driver's 0.
  if (n == 0) {
    lua_pushnil(L);
  } else {
    lua_pushinteger(L, 0);
  }
  return 1;
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
      b->s.assign(v, b->max_len > 0 && n > b->max_len ? b->max_len : n);
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
  if (b->max_len > 0 && b->s.size() > b->max_len) b->s.resize(b->max_len);
  b->is_null = false;
  return 0;
}

int BindGc(lua_State* L) {
  auto** p = static_cast<LuaBind**>(luaL_checkudata(L, 1, kBindMeta));
  delete *p;
  *p = nullptr;
  return 0;
}

}  // namespace loadcell::luaapi::sql
