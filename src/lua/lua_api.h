#pragma once
// The C side of the sysbench Lua API, shared by the files of src/lua that
// install it: lua_rand.cpp (sysbench.rand), lua_sql.cpp (sysbench.sql) and
// lua_host.cpp (the interpreter). Not for use outside src/lua.

#include <cstdint>
#include <lua.hpp>
#include <string>

#include "core/random.h"
#include "lua/lua_host.h"

namespace loadcell::luaapi {

constexpr int kRestartEvent = 1;  // sysbench.error.RESTART_EVENT

// The state of the interpreter `L` (set by LuaHost::Open).
LuaThreadState& Ctx(lua_State* L);
// Adds `n` to recorder counter `counter` (no-op outside runs).
void Count(lua_State* L, int counter, uint64_t n = 1);

// '#' -> a digit, '@' -> a lowercase letter, anything else verbatim.
void RandString(Random& rng, const char* p, size_t n, std::string& out);

// Set field "rand" / "sql" of the table on top of the stack (sysbench); the
// SQL part also registers the metatables of its objects.
void InstallRand(lua_State* L);
void InstallSql(lua_State* L);

}  // namespace loadcell::luaapi
