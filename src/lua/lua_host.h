#pragma once
// One LuaJIT interpreter with the sysbench API installed and a script
// loaded. Used by one thread at a time.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/random.h"
#include "core/status.h"
#include "db/db_driver.h"

struct lua_State;

namespace loadcell {

class EventLoopControl;
class ThreadRecorder;

// The path that names the script on standard input, as for sysbench.
inline constexpr const char* kStdinScript = "-";

// The text of the script at `path` (standard input for kStdinScript, read
// once per process and kept); NotFound naming a file that cannot be read.
Result<std::string> ReadScriptText(const std::string& path);

// What scripts read as sysbench.version, sysbench.version_string and
// sysbench.cmdline.argv[0]: loadcell's own by default; sysbench mode sets
// sysbench's ("1.0.20", "sysbench 1.0.20", "sysbench") before any script is
// loaded.
void SetScriptVersion(const std::string& version, const std::string& version_string,
                      const std::string& program);

// A script option as declared in sysbench.cmdline.options, with its value.
struct ScriptOption {
  enum class Type { kBool, kInt, kDouble, kString, kList };
  std::string name;  // as the script spells it (with '_')
  Type type = Type::kString;
  std::string help;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<std::string> list;
};

// What every interpreter of one script shares (read-only during a run).
struct LuaShared {
  std::string path;
  std::string command;            // "": none (sysbench.cmdline.command is nil)
  std::vector<std::string> argv;  // sysbench.cmdline.argv[1..]
  std::vector<ScriptOption>* options = nullptr;
  // General options as name -> (type, text), '-' already '_'.
  std::vector<std::pair<std::string, std::pair<int, std::string>>> general;
  // Options given that the script does not declare, '-' already '_', as
  // given (a script without sysbench.cmdline.options accepts any option).
  std::vector<std::pair<std::string, std::string>> undeclared;
  // sysbench 0.5 scripts (no sysbench.cmdline.options): every option is a
  // global variable too, set before the script loads: `general`,
  // `test_values` (the test's own and database options, like `general`),
  // `undeclared`, and db_driver.
  bool option_globals = false;
  std::vector<std::pair<std::string, std::pair<int, std::string>>> test_values;
  DbDriver* driver = nullptr;  // null until resolved
  // sysbench's messages (sysbench mode): a named hook's error is "`NAME'
  // function failed: MESSAGE", and a --db-driver that names no driver is
  // told when the script asks for it: sysbench.sql.driver() prints
  // `driver_error` and raises "failed to initialize the DB driver".
  bool sysbench_messages = false;
  std::string driver_error;
  // --<driver>-ignore-errors: a lost connection whose code is listed is
  // reopened and the event restarted (sysbench's reconnect on ignored errors).
  DbIgnoreList ignore;
  int threads = 1;
  // Under MPI: this process' rank, the number of ranks and its first
  // thread's global id (sysbench.rank, sysbench.ranks; tids are global).
  int rank = 0;
  int ranks = 1;
  int first_thread = 0;
  DistributionConfig rand;
  // Set once any interpreter opens a database connection.
  std::shared_ptr<std::atomic<bool>> connected = std::make_shared<std::atomic<bool>>(false);
};

// Per-interpreter state reachable from the C functions.
struct LuaThreadState {
  const LuaShared* shared = nullptr;
  int tid = 0;
  ThreadRecorder* recorder = nullptr;  // null outside runs
  // The run's limits and timing for a script's own thread_run() (the
  // exported sb_more_events, sb_event_start, sb_event_stop); null otherwise.
  EventLoopControl* loop = nullptr;
  Random rng{1};
  uint32_t unique_next = 0;
  uint32_t unique_mult = 1;
  uint32_t unique_add = 0;
  struct CachedDist {
    int type = -1;
    uint64_t lo = 0, hi = 0;
    std::optional<Distribution> dist;
  };
  CachedDist cache[8];
  int cache_next = 0;
};

class LuaHost {
 public:
  LuaHost() = default;
  ~LuaHost();
  LuaHost(const LuaHost&) = delete;
  LuaHost& operator=(const LuaHost&) = delete;

  // Creates the interpreter, installs the API and runs the script's main
  // chunk. `with_options`: sysbench.opt is filled from shared.options.
  Status Open(const LuaShared& shared, int tid, uint64_t seed, ThreadRecorder* recorder,
              bool with_options);
  lua_State* L() const { return L_; }
  LuaThreadState& state() { return state_; }

  // Fills sysbench.opt (general and script options) again from the shared
  // state, and for a sysbench 0.5 script the option globals, without
  // running the main chunk again (sysbench runs it once per interpreter).
  void RefreshOptions();

  bool HasFunction(const char* name);
  // Whether the script replaced the API's thread_run() (sysbench's event
  // loop) with its own.
  bool OwnsThreadRun();
  // Calls global function `name` with (tid) when `with_tid`; absent is OK.
  Status CallIfPresent(const char* name, bool with_tid);
  // Calls the function at the top of the stack (popped) with sysbench.tid.
  Status CallTop(const std::string& what);
  // Reads sysbench.cmdline.options into `out` (main interpreter).
  // InvalidArgument "script 'PATH': sysbench.cmdline.options...: PROBLEM"
  // for a malformed table or entry.
  Status ReadOptions(std::vector<ScriptOption>& out);
  // sysbench.cmdline.commands is absent, or a table of name = function or
  // {function, parallel}; else InvalidArgument naming the script and entry.
  Status CheckCommands();

  // Runs event(tid) once, restarting after sysbench.error.RESTART_EVENT.
  // Sets *restarts to the number of restarts. EndOfWork() when event()
  // returned a value other than nil or false (sysbench stops the thread).
  Status RunEvent(uint64_t* restarts);
  bool has_event() const { return event_ref_ >= 0; }

  // Error text of the value on top of the stack (popped).
  std::string PopError();

 private:
  Status Malformed(const std::string& where, const std::string& problem) const;
  // Pushes sysbench, sysbench.cmdline and sysbench.cmdline.<field> (pop 3
  // when done) and returns true; false (nothing left pushed) when the field
  // is nil; Malformed, naming `shape`, when it is not a table.
  Result<bool> PushCmdlineTable(const char* field, const std::string& shape);

  lua_State* L_ = nullptr;
  LuaThreadState state_;
  int event_ref_ = -1;
  int api_thread_run_ref_ = -1;  // the API's thread_run(), before the script
};

}  // namespace loadcell
