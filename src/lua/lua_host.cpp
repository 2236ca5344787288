#include "lua/lua_host.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iostream>
#include <iterator>
#include <lua.hpp>
#include <mutex>

#include "core/version.h"
#include "lua/lua_api.h"
#include "lua/lua_prelude.h"
#include "os/file_system.h"
#include "runner/recorder.h"
#include "runner/workload.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {
namespace {

using luaapi::kRestartEvent;

const char kStateKey = 0;  // address used as registry key

// sysbench.version / version_string (SetScriptVersion); set before any
// interpreter exists, read-only afterwards.
std::string& ScriptVersion() {
  static std::string v = kVersion;
  return v;
}
std::string& ScriptVersionString() {
  static std::string v = std::string("loadcell ") + kVersion;
  return v;
}
std::string& ScriptProgram() {
  static std::string v = "loadcell";
  return v;
}

// sysbench.__restarted(): the API's thread_run() counts an event restarted
// after sysbench.error.RESTART_EVENT, as RunEvent's caller does.
int CountRestart(lua_State* L) {
  luaapi::Count(L, kOltpIgnoredErrors);
  LuaThreadState& c = luaapi::Ctx(L);
  if (c.recorder != nullptr) c.recorder->AddError();
  return 0;
}

void InstallApi(lua_State* L) {
  lua_newtable(L);  // sysbench
  lua_pushcfunction(L, CountRestart);
  lua_setfield(L, -2, "__restarted");
  luaapi::InstallRand(L);
  luaapi::InstallSql(L);
  lua_newtable(L);
  lua_setfield(L, -2, "cmdline");
  lua_newtable(L);
  lua_setfield(L, -2, "opt");
  lua_pushstring(L, ScriptVersion().c_str());
  lua_setfield(L, -2, "version");
  lua_pushstring(L, ScriptVersionString().c_str());
  lua_setfield(L, -2, "version_string");
  lua_setglobal(L, "sysbench");
}

// "@path" chunk names make messages read "path:line: message"; the
// script on standard input is "stdin" (as LuaJIT names it).
Status LoadFileChunk(lua_State* L, const std::string& path) {
  Result<std::string> read = ReadScriptText(path);
  if (!read.ok()) return read.status();
  std::string text = *read;
  if (text.rfind("#!", 0) == 0) text.insert(0, "--");  // keep line numbers
  std::string chunk = path == kStdinScript ? std::string("=stdin") : "@" + path;
  if (luaL_loadbuffer(L, text.data(), text.size(), chunk.c_str()) != 0) {
    std::string msg = lua_tostring(L, -1);
    lua_pop(L, 1);
    return Status::Internal("syntax error in script: " + msg);
  }
  return Status::Ok();
}

// The pcall message handler. Tables (RESTART_EVENT) stay as they are. A
// message located in the API prelude ("sysbench-api:N: ...", from a C
// function the prelude called for the script) is located at the script line
// that called the prelude instead.
int Traceback(lua_State* L) {
  static constexpr std::string_view kApi = "sysbench-api:";
  if (lua_type(L, 1) != LUA_TSTRING) return 1;
  std::string_view msg(lua_tostring(L, 1));
  // Windows' system messages end in "\r\n" (LuaJIT's "cannot resolve
  // symbol 'x': Procedure not found.\r\n"): the error is one line.
  while (!msg.empty() && (msg.back() == '\n' || msg.back() == '\r' || msg.back() == ' ')) {
    msg.remove_suffix(1);
  }
  if (msg.substr(0, kApi.size()) != kApi) {
    lua_pushlstring(L, msg.data(), msg.size());
    return 1;
  }
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar) != 0; ++level) {
    if (lua_getinfo(L, "Sl", &ar) == 0 || ar.source == nullptr || ar.source[0] != '@' ||
        ar.currentline <= 0) {
      continue;
    }
    size_t colon = msg.find(':', kApi.size());
    std::string_view rest = colon == std::string_view::npos ? msg : msg.substr(colon + 1);
    if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    const std::string located =
        std::string(ar.short_src) + ":" + std::to_string(ar.currentline) + ": " + std::string(rest);
    lua_pushlstring(L, located.data(), located.size());
    return 1;
  }
  return 1;
}

// An option's text as a Lua value of its type (OptionType as int).
void PushOptionValue(lua_State* L, int type, const std::string& text) {
  if (type == static_cast<int>(OptionType::kBool)) {
    lua_pushboolean(L, text == "on");
  } else if (type == static_cast<int>(OptionType::kInt) ||
             type == static_cast<int>(OptionType::kDouble) ||
             type == static_cast<int>(OptionType::kSeconds)) {
    lua_pushnumber(L, std::strtod(text.c_str(), nullptr));
  } else {
    lua_pushstring(L, text.c_str());
  }
}

// An option the script did not declare: a number when the whole text is
// one, else the text (sysbench 0.5 scripts compare "on"/"off").
void PushUndeclared(lua_State* L, const std::string& text) {
  char* end = nullptr;
  const double d = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size() &&
      !std::isspace(static_cast<unsigned char>(text[0]))) {
    lua_pushnumber(L, d);
  } else {
    lua_pushlstring(L, text.data(), text.size());
  }
}

template <typename Push>
void SetGlobalIfNil(lua_State* L, const char* name, Push push) {
  lua_getglobal(L, name);
  const bool absent = lua_isnil(L, -1);
  lua_pop(L, 1);
  if (!absent) return;  // never hide a library (debug, string, ...)
  push();
  lua_setglobal(L, name);
}

// Globals the API prelude gives a default when no option set them.
bool PreludeDefault(const std::string& name) {
  return name == "mysql_table_engine" || name == "myisam_max_rows";
}

// sysbench 0.5 scripts read options as globals: oltp_table_size,
// db_driver, mysql_table_engine, ... `after_load`: the script and the
// prelude ran already, so an option the prelude gave a default replaces it.
void SetOptionGlobals(lua_State* L, const LuaShared& shared, bool after_load) {
  for (const auto* list : {&shared.general, &shared.test_values}) {
    for (const auto& [name, tv] : *list) {
      auto push = [L, &tv = tv] { PushOptionValue(L, tv.first, tv.second); };
      if (after_load && PreludeDefault(name)) {
        push();
        lua_setglobal(L, name.c_str());
      } else {
        SetGlobalIfNil(L, name.c_str(), push);
      }
    }
  }
  for (const auto& [name, text] : shared.undeclared) {
    auto push = [L, &text = text] { PushUndeclared(L, text); };
    if (after_load && PreludeDefault(name)) {
      push();
      lua_setglobal(L, name.c_str());
    } else {
      SetGlobalIfNil(L, name.c_str(), push);
    }
  }
  SetGlobalIfNil(L, "num_threads", [&] { lua_pushinteger(L, shared.threads); });
  if (shared.driver != nullptr) {
    lua_pushstring(L, shared.driver->Name().c_str());
    lua_setglobal(L, "db_driver");
  }
}

// package.path: the folder of the script at `script_path`, then sysbench's.
void SetPackagePath(lua_State* L, const std::string& script_path) {
  const std::string dir = Dirname(script_path);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "path");
  std::string path = dir + "/?.lua;/usr/share/sysbench/?.lua;" + lua_tostring(L, -1);
  lua_pop(L, 1);
  lua_pushstring(L, path.c_str());
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
}

// sysbench.cmdline of the table `sysbench` on top of the stack: the
// command, the script's path, argv.
void SetCmdline(lua_State* L, const LuaShared& shared) {
  lua_getfield(L, -1, "cmdline");
  if (shared.command.empty()) {
    lua_pushnil(L);
  } else {
    lua_pushstring(L, shared.command.c_str());
  }
  lua_setfield(L, -2, "command");
  lua_pushstring(L, shared.path.c_str());
  lua_setfield(L, -2, "script_path");
  lua_newtable(L);
  lua_pushstring(L, ScriptProgram().c_str());
  lua_rawseti(L, -2, 0);
  for (size_t i = 0; i < shared.argv.size(); ++i) {
    lua_pushstring(L, shared.argv[i].c_str());
    lua_rawseti(L, -2, static_cast<int>(i + 1));
  }
  lua_setfield(L, -2, "argv");
  lua_pop(L, 1);  // cmdline
}

// sysbench.cmdline.ARG_* numbers.
constexpr int kArgBool = 1, kArgInt = 2, kArgSize = 3, kArgDouble = 4, kArgList = 6;

// Gives option `o` the type an explicit sysbench.cmdline.ARG_* number
// declares, converting the default already read; without a default as
// sysbench gives it: a number 0, a boolean true, a string "", a list {}.
void ApplyDeclaredType(ScriptOption& o, int arg_type) {
  using T = ScriptOption::Type;
  const T was = o.type;
  const bool no_default = was == T::kString && o.s.empty();
  if (arg_type == kArgBool) {
    o.type = T::kBool;
    if (no_default) o.b = true;
  } else if (arg_type == kArgInt || arg_type == kArgSize) {
    o.type = T::kInt;
    if (was == T::kDouble) o.i = static_cast<int64_t>(o.d);
    if (was == T::kString) o.i = std::strtoll(o.s.c_str(), nullptr, 10);
  } else if (arg_type == kArgDouble) {
    o.type = T::kDouble;
    if (was == T::kInt) o.d = static_cast<double>(o.i);
    if (was == T::kString) o.d = std::strtod(o.s.c_str(), nullptr);
  } else if (arg_type == kArgList) {
    o.type = T::kList;
    if (was == T::kString && !o.s.empty()) o.list = {o.s};
  } else if (was != T::kList) {
    // ARG_STRING, ARG_FILE: the default as text.
    if (was == T::kInt) o.s = std::to_string(o.i);
    if (was == T::kDouble) o.s = fmt::format("{}", o.d);
    if (was == T::kBool) o.s = o.b ? "on" : "off";
    o.type = T::kString;
  }
}

// Pushes the value of script option `o`.
void PushScriptOption(lua_State* L, const ScriptOption& o) {
  switch (o.type) {
    case ScriptOption::Type::kBool:
      lua_pushboolean(L, o.b);
      break;
    case ScriptOption::Type::kInt:
      lua_pushnumber(L, static_cast<double>(o.i));
      break;
    case ScriptOption::Type::kDouble:
      lua_pushnumber(L, o.d);
      break;
    case ScriptOption::Type::kString:
      lua_pushstring(L, o.s.c_str());
      break;
    case ScriptOption::Type::kList:
      lua_createtable(L, static_cast<int>(o.list.size()), 0);
      for (size_t i = 0; i < o.list.size(); ++i) {
        lua_pushstring(L, o.list[i].c_str());
        lua_rawseti(L, -2, static_cast<int>(i + 1));
      }
      break;
  }
}

// sysbench.opt of the table `sysbench` on top of the stack: the general
// options, then (`with_options`) the script's.
void SetOpt(lua_State* L, const LuaShared& shared, bool with_options) {
  lua_getfield(L, -1, "opt");
  if (!lua_istable(L, -1)) {  // the script replaced it
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, "opt");
  }
  for (const auto& [name, tv] : shared.general) {
    PushOptionValue(L, tv.first, tv.second);
    lua_setfield(L, -2, name.c_str());
  }
  for (const auto& [name, text] : shared.undeclared) {
    PushUndeclared(L, text);
    lua_setfield(L, -2, name.c_str());
  }
  lua_pushinteger(L, shared.threads);
  lua_setfield(L, -2, "threads");
  if (with_options && shared.options != nullptr) {
    for (const ScriptOption& o : *shared.options) {
      PushScriptOption(L, o);
      lua_setfield(L, -2, o.name.c_str());
      // "dash-opt" is sysbench.opt.dash_opt, as sysbench names it.
      if (o.name.find('-') != std::string::npos) {
        std::string underscored = o.name;
        std::replace(underscored.begin(), underscored.end(), '-', '_');
        PushScriptOption(L, o);
        lua_setfield(L, -2, underscored.c_str());
      }
    }
  }
  lua_pop(L, 1);  // opt
}

}  // namespace

void SetScriptVersion(const std::string& version, const std::string& version_string,
                      const std::string& program) {
  ScriptVersion() = version;
  ScriptVersionString() = version_string;
  ScriptProgram() = program;
}

Result<std::string> ReadScriptText(const std::string& path) {
  if (path == kStdinScript) {
    // Read once: every interpreter loads the same text.
    static std::once_flag once;
    static std::string text;
    std::call_once(once, [] {
      text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    });
    return text;
  }
  Result<std::string> read = ReadFileToString(DefaultFileSystem(), path);
  if (!read.ok()) return Status::NotFound("cannot open script '" + path + "'");
  return read;
}

namespace luaapi {

LuaThreadState& Ctx(lua_State* L) {
  lua_pushlightuserdata(L, const_cast<char*>(&kStateKey));
  lua_rawget(L, LUA_REGISTRYINDEX);
  auto* s = static_cast<LuaThreadState*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  return *s;
}

void Count(lua_State* L, int counter, uint64_t n) {
  LuaThreadState& c = Ctx(L);
  if (c.recorder != nullptr) c.recorder->Add(counter, n);
}

}  // namespace luaapi

namespace {

// The interpreter last opened on this thread: the one whose script calls
// the exported functions below (a worker's interpreter lives on its thread).
// Set once per interpreter, never per event.
thread_local LuaThreadState* tls_lua_state = nullptr;

// sysbench's counter numbers (sb_counter_type) as recorder counters; -1 for
// a number outside them.
int RecorderCounter(int sb_counter) {
  static constexpr int kByType[] = {kOltpOthers,       kOltpReads,         kOltpWrites,
                                    kOltpTransactions, kOltpIgnoredErrors, kOltpReconnects};
  if (sb_counter < 0 || sb_counter >= static_cast<int>(std::size(kByType))) return -1;
  return kByType[sb_counter];
}

}  // namespace

LuaHost::~LuaHost() {
  if (tls_lua_state == &state_) tls_lua_state = nullptr;
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
  // A message without "path:line:" (an error object, error("x", 0)) still
  // names the script.
  const std::string& path = state_.shared != nullptr ? state_.shared->path : std::string();
  if (!path.empty() && msg.find(path) == std::string::npos)
    msg += fmt::format(" (script '{}')", path);
  return msg;
}

Status LuaHost::Open(const LuaShared& shared, int tid, uint64_t seed, ThreadRecorder* recorder,
                     bool with_options) {
  L_ = luaL_newstate();
  if (L_ == nullptr) return Status::Internal("cannot create a Lua interpreter");
  state_.shared = &shared;
  state_.tid = tid;
  state_.recorder = recorder;
  tls_lua_state = &state_;
  state_.rng = Random(seed);
  state_.unique_mult = static_cast<uint32_t>(state_.rng.Next()) | 1u;
  state_.unique_add = static_cast<uint32_t>(state_.rng.Next());
  luaL_openlibs(L_);
  lua_pushlightuserdata(L_, const_cast<char*>(&kStateKey));
  lua_pushlightuserdata(L_, &state_);
  lua_rawset(L_, LUA_REGISTRYINDEX);
  lua_pushcfunction(L_, Traceback);  // stack slot 1: the pcall handler

  SetPackagePath(L_, shared.path);

  InstallApi(L_);
  lua_getglobal(L_, "sysbench");
  lua_pushinteger(L_, tid);
  lua_setfield(L_, -2, "tid");
  lua_pushinteger(L_, shared.rank);
  lua_setfield(L_, -2, "rank");
  lua_pushinteger(L_, shared.ranks);
  lua_setfield(L_, -2, "ranks");
  SetCmdline(L_, shared);
  SetOpt(L_, shared, with_options);
  lua_pop(L_, 1);  // sysbench
  if (shared.option_globals) SetOptionGlobals(L_, shared, /*after_load=*/false);
  SetGlobalIfNil(L_, "test", [&] { lua_pushstring(L_, shared.path.c_str()); });

  if (luaL_loadbuffer(L_, kLuaPrelude, std::strlen(kLuaPrelude), "=sysbench-api") != 0 ||
      lua_pcall(L_, 0, 0, 1) != 0) {
    return Status::Internal("Lua API prelude failed: " + PopError());
  }
  lua_pushinteger(L_, tid);
  lua_setglobal(L_, "thread_id");  // sysbench 0.5 scripts read it
  lua_getglobal(L_, "thread_run");
  api_thread_run_ref_ = luaL_ref(L_, LUA_REGISTRYINDEX);

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

void LuaHost::RefreshOptions() {
  const LuaShared& shared = *state_.shared;
  lua_getglobal(L_, "sysbench");
  if (lua_istable(L_, -1)) {
    lua_pushinteger(L_, shared.rank);
    lua_setfield(L_, -2, "rank");
    lua_pushinteger(L_, shared.ranks);
    lua_setfield(L_, -2, "ranks");
    SetOpt(L_, shared, /*with_options=*/true);
  }
  lua_pop(L_, 1);
  if (shared.option_globals) SetOptionGlobals(L_, shared, /*after_load=*/true);
}

bool LuaHost::OwnsThreadRun() {
  lua_getglobal(L_, "thread_run");
  lua_rawgeti(L_, LUA_REGISTRYINDEX, api_thread_run_ref_);
  const bool own = lua_isfunction(L_, -2) && lua_rawequal(L_, -1, -2) == 0;
  lua_pop(L_, 2);
  return own;
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
    if (state_.shared != nullptr && state_.shared->sysbench_messages) {
      std::string msg = lua_isstring(L_, -1) ? lua_tostring(L_, -1) : "(not a string)";
      lua_pop(L_, 1);
      return Status::Internal(fmt::format("`{}' function failed: {}", name, msg));
    }
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
    if (lua_pcall(L_, 1, 1, 1) == 0) {
      // As sysbench's event loop: a value other than nil or false ends
      // this thread's events (that event is not counted).
      const bool stop = lua_toboolean(L_, -1) != 0;
      lua_pop(L_, 1);
      return stop ? EndOfWork() : Status::Ok();
    }
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

Status LuaHost::Malformed(const std::string& where, const std::string& problem) const {
  const std::string path = state_.shared != nullptr ? state_.shared->path : std::string("?");
  return Status::InvalidArgument(fmt::format("script '{}': {}: {}", path, where, problem));
}

Result<bool> LuaHost::PushCmdlineTable(const char* field, const std::string& shape) {
  lua_getglobal(L_, "sysbench");
  lua_getfield(L_, -1, "cmdline");
  lua_getfield(L_, -1, field);
  if (lua_isnil(L_, -1)) {
    lua_pop(L_, 3);
    return false;
  }
  if (!lua_istable(L_, -1)) {
    const std::string got = luaL_typename(L_, -1);
    lua_pop(L_, 3);
    return Malformed(std::string("sysbench.cmdline.") + field,
                     "must be a table of " + shape + ", got a " + got);
  }
  return true;
}

Status LuaHost::CheckCommands() {
  LC_ASSIGN_OR_RETURN(const bool present,
                      PushCmdlineTable("commands", "name = function or {function, parallel}"));
  if (!present) return Status::Ok();
  Status bad;
  lua_pushnil(L_);
  while (bad.ok() && lua_next(L_, -2) != 0) {
    const bool named = lua_type(L_, -2) == LUA_TSTRING;
    const std::string key = named ? fmt::format("'{}'", lua_tostring(L_, -2))
                                  : fmt::format("with a {} key", luaL_typename(L_, -2));
    bool ok = named && lua_isfunction(L_, -1);
    if (named && lua_istable(L_, -1)) {
      lua_rawgeti(L_, -1, 1);
      lua_rawgeti(L_, -2, 2);
      ok = lua_isfunction(L_, -2) && (lua_isnil(L_, -1) || lua_isboolean(L_, -1));
      lua_pop(L_, 2);
    }
    if (!ok) {
      bad = Malformed("sysbench.cmdline.commands",
                      "entry " + key + " must be name = function or {function, parallel}");
      lua_pop(L_, 2);
      break;
    }
    lua_pop(L_, 1);
  }
  lua_pop(L_, 3);
  return bad;
}

Status LuaHost::ReadOptions(std::vector<ScriptOption>& out) {
  LC_ASSIGN_OR_RETURN(const bool present,
                      PushCmdlineTable("options", "name = {\"description\", default}"));
  if (!present) return Status::Ok();
  lua_pushnil(L_);
  while (lua_next(L_, -2) != 0) {
    // key at -2, value at -1
    if (lua_type(L_, -2) != LUA_TSTRING || !lua_istable(L_, -1)) {
      const std::string key = lua_type(L_, -2) == LUA_TSTRING
                                  ? fmt::format("'{}'", lua_tostring(L_, -2))
                                  : fmt::format("with a {} key", luaL_typename(L_, -2));
      lua_pop(L_, 4);
      return Malformed("sysbench.cmdline.options",
                       "entry " + key + " must be name = {\"description\", default}");
    }
    ScriptOption o;
    o.name = lua_tostring(L_, -2);
    lua_rawgeti(L_, -1, 1);
    const int help_type = lua_type(L_, -1);
    if (help_type == LUA_TSTRING) o.help = lua_tostring(L_, -1);
    lua_pop(L_, 1);
    if (help_type != LUA_TSTRING && help_type != LUA_TNIL) {
      lua_pop(L_, 5);
      return Malformed("sysbench.cmdline.options." + o.name,
                       "the description (the first item) must be a string");
    }
    lua_rawgeti(L_, -1, 2);
    const int default_type = lua_type(L_, -1);
    if (default_type == LUA_TFUNCTION || default_type == LUA_TUSERDATA ||
        default_type == LUA_TTHREAD || default_type == LUA_TLIGHTUSERDATA) {
      lua_pop(L_, 6);
      return Malformed("sysbench.cmdline.options." + o.name,
                       "the default (the second item) must be a boolean, number, string or "
                       "list, got a " +
                           std::string(lua_typename(L_, default_type)));
    }
    switch (default_type) {
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
    lua_pop(L_, 1);
    // An explicit sysbench.cmdline.ARG_* type (the third item).
    lua_rawgeti(L_, -1, 3);
    if (lua_isnumber(L_, -1)) ApplyDeclaredType(o, static_cast<int>(lua_tointeger(L_, -1)));
    lua_pop(L_, 2);
    out.push_back(std::move(o));
  }
  lua_pop(L_, 3);
  std::sort(out.begin(), out.end(),
            [](const ScriptOption& a, const ScriptOption& b) { return a.name < b.name; });
  return Status::Ok();
}

}  // namespace loadcell

// The C functions sysbench exports to its scripts' FFI (ffi.C.NAME), for
// scripts that count their own statements or errors. They act on the
// calling thread's interpreter: `thread_id` (sysbench.tid) is not needed to
// find it. Outside a run (no recorder) they do nothing and read 0.
extern "C" LOADCELL_LUA_EXPORT void sb_counter_inc(int thread_id, int type) {
  (void)thread_id;
  loadcell::LuaThreadState* state = loadcell::tls_lua_state;
  const int counter = loadcell::RecorderCounter(type);
  if (state == nullptr || state->recorder == nullptr || counter < 0) return;
  state->recorder->Add(counter, 1);
  if (counter == loadcell::kOltpIgnoredErrors) state->recorder->AddError();
}

extern "C" LOADCELL_LUA_EXPORT uint64_t sb_counter_val(int thread_id, int type) {
  (void)thread_id;
  loadcell::LuaThreadState* state = loadcell::tls_lua_state;
  const int counter = loadcell::RecorderCounter(type);
  if (state == nullptr || state->recorder == nullptr || counter < 0) return 0;
  return state->recorder->counter(counter);
}

// sysbench's event loop as its thread_run() drives it (ffi.C.NAME): the
// run's limits and timing for a script that runs its own loop. They act on
// the calling thread's interpreter; outside such a run there are no events
// (sb_more_events is false) and the other two do nothing.
extern "C" LOADCELL_LUA_EXPORT bool sb_more_events(int thread_id) {
  (void)thread_id;
  loadcell::LuaThreadState* state = loadcell::tls_lua_state;
  return state != nullptr && state->loop != nullptr && state->loop->More();
}

extern "C" LOADCELL_LUA_EXPORT void sb_event_start(int thread_id) {
  (void)thread_id;
  loadcell::LuaThreadState* state = loadcell::tls_lua_state;
  if (state != nullptr && state->loop != nullptr) state->loop->EventStart();
}

extern "C" LOADCELL_LUA_EXPORT void sb_event_stop(int thread_id) {
  (void)thread_id;
  loadcell::LuaThreadState* state = loadcell::tls_lua_state;
  if (state == nullptr || state->loop == nullptr) return;
  state->loop->EventStop();
  if (state->recorder != nullptr) state->recorder->Add(loadcell::kOltpTransactions, 1);
}
