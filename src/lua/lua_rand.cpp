// sysbench.rand: numbers and strings from the interpreter's seeded generator.

#include "lua/lua_api.h"

namespace loadcell::luaapi {
namespace {

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

// sysbench.rand.uniform_uint64() returns a uint64_t cdata, as sysbench does
// through the FFI: a Lua number (a double) would lose the low bits. The
// prelude calls this through an FFI function pointer with the thread state.
uint64_t RandUint64(void* state) { return static_cast<LuaThreadState*>(state)->rng.Next(); }

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

}  // namespace

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

namespace {

int RandStringFn(lua_State* L) {
  size_t n = 0;
  const char* p = luaL_checklstring(L, 1, &n);
  thread_local std::string buf;
  RandString(Ctx(L).rng, p, n, buf);
  lua_pushlstring(L, buf.data(), buf.size());
  return 1;
}
}  // namespace

void InstallRand(lua_State* L) {
  static const luaL_Reg kRand[] = {{"default", RandDefault},
                                   {"uniform", RandUniform},
                                   {"gaussian", RandGaussian},
                                   {"special", RandSpecial},
                                   {"pareto", RandPareto},
                                   {"zipfian", RandZipfian},
                                   {"uniform_double", RandUniformDouble},
                                   {"unique", RandUnique},
                                   {"string", RandStringFn},
                                   {nullptr, nullptr}};
  lua_newtable(L);
  luaL_register(L, nullptr, kRand);
  // For the prelude, which removes them: the function and its argument.
  lua_pushlightuserdata(L, reinterpret_cast<void*>(&RandUint64));
  lua_setfield(L, -2, "__rand_uint64");
  lua_pushlightuserdata(L, &Ctx(L));
  lua_setfield(L, -2, "__state");
  lua_setfield(L, -2, "rand");
}

}  // namespace loadcell::luaapi
