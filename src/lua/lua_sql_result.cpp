// sysbench.sql's result objects: rs.nrows, rs.nfields, rs:fetch_row(),
// rs:free().

#include <string_view>

#include "lua/lua_sql.h"

namespace loadcell::luaapi::sql {
namespace {

LuaResult* CheckResult(lua_State* L) {
  LuaResult* r = Check<LuaResult>(L, 1, kResultMeta);
  if (r == nullptr || r->freed) luaL_error(L, "result was freed");
  return r;
}

}  // namespace

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
// Freeing a freed result is an error, as under sysbench.
int ResultFree(lua_State* L) {
  auto** p = static_cast<LuaResult**>(luaL_checkudata(L, 1, kResultMeta));
  if (*p == nullptr || (*p)->freed) return luaL_error(L, "db_free_results() failed");
  if (!(*p)->reused) return ResultGc(L);
  (*p)->rows.Clear();
  (*p)->freed = true;
  return 0;
}

}  // namespace loadcell::luaapi::sql
