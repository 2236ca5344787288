#include "lua/lua_workload.h"

#include <algorithm>
#include <lua.hpp>
#include <mutex>
#include <thread>

#include "db/db_driver.h"
#include "lua/lua_host.h"
#include "os/file_system.h"
#include "os/thread.h"
#include "runner/recorder.h"
#include "workloads/oltp/oltp_data_set.h"
#include "workloads/oltp/oltp_report.h"
#include "workloads/oltp/oltp_txn.h"

namespace loadcell {

struct LuaScriptWorkload::Impl {
  LuaShared shared;
  std::vector<ScriptOption> options;
  DbDrivers db;
  bool db_resolved = false;
  // The driver of the main chunk's SQL, set up from the command line's
  // database options before the script loads (kept: its connections may
  // outlive the load).
  DbDrivers early_db;
  std::unique_ptr<OptionSet> early_options;
  const OptionSet* test_options = nullptr;
  std::unique_ptr<LuaHost> main =
      std::make_unique<LuaHost>();  // main-thread interpreter; also used by the report hooks
  mutable std::mutex main_mu;
  bool has_event = false;
  bool has_thread_run = false;
  bool declares_options = false;
  // The script's text names a database API (sysbench.sql, a sysbench 0.5
  // db_ function) or requires a module that may: the header names the
  // database only then.
  bool may_use_database = true;
  bool initialized = false;       // init() ran, so done() is due
  ProcessGroup* group = nullptr;  // under MPI: the ranks (JoinProcesses)

  // Calls sysbench.hooks.<name>(stat) capturing what it prints; nullopt when
  // the hook is not defined.
  std::optional<std::string> CallReportHook(const char* name, const IntervalSnapshot* s,
                                            const RunResult* r, double percentile) const;
  // CallReportHook's parts, main_mu held: the hook's call, and what
  // sysbench.__close_report(stream) prints (report_json's closing bracket).
  std::optional<std::string> RunReportHook(const char* name, const IntervalSnapshot* s,
                                           const RunResult* r, double percentile) const;
  std::string CloseReportStream(const char* stream) const;
  // Whether any interpreter opened a database connection.
  bool Connected() const;
  // The data set, read by the first Facts() of a run that used a database.
  mutable std::mutex data_set_mu;
  mutable std::optional<DatabaseFacts> data_set;  // guarded by data_set_mu
  // The server's settings, read with the data set: the script connects only
  // when its threads start, after the run's manifest is written.
  mutable DatabaseSettings settings;  // guarded by data_set_mu
};

namespace {

bool EndsWithLua(const std::string& s) {
  return s.size() > 4 && s.compare(s.size() - 4, 4, ".lua") == 0;
}

bool IsRegularFile(const std::string& path) {
  const Result<FileInfo> info = DefaultFileSystem().Stat(path);
  return info.ok() && info->is_regular;
}

std::string BaseName(const std::string& p) {
  std::string s = Basename(p);
  if (EndsWithLua(s)) s.resize(s.size() - 4);
  return s;
}

std::string Dashed(std::string s) {
  for (char& c : s) {
    if (c == '_') c = '-';
  }
  return s;
}

std::string Underscored(std::string s) {
  for (char& c : s) {
    if (c == '-') c = '_';
  }
  return s;
}

class LuaWorker final : public Worker {
 public:
  LuaWorker(std::unique_ptr<LuaHost> host, ThreadRecorder* rec, bool thread_run)
      : host_(std::move(host)), rec_(rec), thread_run_(thread_run), cpu_base_(ThreadCpuNs()) {}

  Status RunEvent() override {
    if (thread_run_) {
      // The script's own loop (WorkloadInfo::own_loop): called once; its
      // events go through ffi.C.sb_more_events and the like.
      lua_getglobal(host_->L(), "thread_run");
      return host_->CallTop("thread_run()");
    }
    uint64_t restarts = 0;
    Status s = host_->RunEvent(&restarts);
    if (restarts > 0) {
      rec_->Add(kOltpIgnoredErrors, restarts);
      for (uint64_t i = 0; i < restarts; ++i) rec_->AddError();
    }
    if (s.ok()) rec_->Add(kOltpTransactions, 1);
    return s;
  }

  Status Finish() override {
    const uint64_t now = ThreadCpuNs();
    if (now > cpu_base_) rec_->Add(kOltpClientCpuNs, now - cpu_base_);
    return host_->CallIfPresent("thread_done", true);
  }

 private:
  std::unique_ptr<LuaHost> host_;
  ThreadRecorder* rec_;
  bool thread_run_;
  uint64_t cpu_base_;
};

}  // namespace

namespace {

// The driver that the command line's database options choose, or null when
// they are wrong (the options' own parse reports that later).
DbDriver* EarlyDriver(LuaScriptWorkload::Impl& impl, const RawOptions& raw) {
  impl.early_options = std::make_unique<OptionSet>("db");
  impl.early_db.RegisterOptions(*impl.early_options);
  RawOptions copy = raw;
  if (!impl.early_options->Apply(copy).ok()) return nullptr;
  if (!impl.early_db.Resolve(*impl.early_options).ok()) return nullptr;
  return &impl.early_db.driver();
}

}  // namespace

Result<std::unique_ptr<LuaScriptWorkload>> LoadLuaScript(const std::string& path,
                                                         const std::string& command,
                                                         const std::vector<std::string>& argv,
                                                         const RawOptions* raw) {
  auto impl = std::make_unique<LuaScriptWorkload::Impl>();
  impl->shared.path = path;
  impl->shared.command = command;
  impl->shared.argv = argv;
  impl->shared.options = &impl->options;
  if (path != kStdinScript && !IsRegularFile(path)) {
    return Status::NotFound("cannot open script '" + path + "'");
  }
  if (raw != nullptr) impl->shared.driver = EarlyDriver(*impl, *raw);
  LC_RETURN_IF_ERROR(impl->main->Open(impl->shared, 0, 1, nullptr, /*with_options=*/false));
  LC_RETURN_IF_ERROR(impl->main->ReadOptions(impl->options));
  // As sysbench, the commands table matters only when a command is given.
  if (!command.empty()) LC_RETURN_IF_ERROR(impl->main->CheckCommands());
  {
    lua_State* L = impl->main->L();
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "options");
    impl->declares_options = lua_istable(L, -1);
    lua_pop(L, 3);
  }
  impl->shared.option_globals = !impl->declares_options;
  {
    Result<std::string> read = ReadScriptText(path);
    const std::string text = read.ok() ? *read : std::string();
    impl->may_use_database = text.find("sql") != std::string::npos ||
                             text.find("db_") != std::string::npos ||
                             text.find("require") != std::string::npos;
  }
  impl->has_event = impl->main->has_event();
  impl->has_thread_run = impl->main->OwnsThreadRun();
  return std::unique_ptr<LuaScriptWorkload>(new LuaScriptWorkload(std::move(impl)));
}

LuaScriptWorkload::LuaScriptWorkload(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LuaScriptWorkload::~LuaScriptWorkload() = default;

WorkloadInfo LuaScriptWorkload::Info() const {
  WorkloadInfo info;
  info.name = BaseName(impl_->shared.path);
  info.summary = "Lua script " + impl_->shared.path + " (sysbench 1.0 API)";
  info.event_definition =
      "one call of the script's event() function (restarted after "
      "sysbench.error.RESTART_EVENT)";
  info.supports_prepare = true;
  info.counter_names = OltpCounterNames();
  info.runs_across_processes = true;
  info.own_loop = impl_->has_thread_run;
  return info;
}

void LuaScriptWorkload::RegisterOptions(OptionSet& opts) {
  impl_->test_options = &opts;
  // The script's options first (help lists them first), then the database
  // options; a script option named like a driver option yields to it.
  DbDrivers probe;
  OptionSet driver_names("db");
  probe.RegisterOptions(driver_names);
  for (ScriptOption& o : impl_->options) {
    const std::string name = Dashed(o.name);
    if (opts.Find(name) != nullptr || driver_names.Find(name) != nullptr) continue;
    switch (o.type) {
      case ScriptOption::Type::kBool:
        opts.Bool(name, &o.b, o.b, o.help);
        break;
      case ScriptOption::Type::kInt:
        opts.Int(name, &o.i, o.i, o.help);
        break;
      case ScriptOption::Type::kDouble:
        opts.Double(name, &o.d, o.d, o.help);
        break;
      case ScriptOption::Type::kString:
        opts.String(name, &o.s, o.s, o.help);
        break;
      case ScriptOption::Type::kList: {
        std::string def;
        for (const std::string& item : o.list) def += (def.empty() ? "" : ",") + item;
        opts.List(name, &o.list, def, o.help);
        break;
      }
    }
  }
  impl_->db.RegisterOptions(opts);
}

void LuaScriptWorkload::SetGeneralOptions(const OptionSet& general) {
  auto& g = impl_->shared.general;
  g.clear();
  for (const OptionSpec& s : general.specs()) {
    // --events alone runs without a time limit, but a script sees the 10 s
    // default there, as under sysbench.
    const bool default_time = s.name() == "time" && s.is_default();
    g.push_back({Underscored(s.name()),
                 {static_cast<int>(s.type()), default_time ? s.default_text() : s.ValueText()}});
    const std::string& n = s.name();
    const std::string v = s.ValueText();
    DistributionConfig& r = impl_->shared.rand;
    if (n == "rand-type") r.type = v;
    if (n == "rand-spec-iter") r.spec_iter = std::strtoll(v.c_str(), nullptr, 10);
    if (n == "rand-spec-pct") r.spec_pct = std::strtod(v.c_str(), nullptr);
    if (n == "rand-spec-res") r.spec_res = std::strtod(v.c_str(), nullptr);
    if (n == "rand-pareto-h") r.pareto_h = std::strtod(v.c_str(), nullptr);
    if (n == "rand-zipfian-exp") r.zipfian_exp = std::strtod(v.c_str(), nullptr);
  }
}

bool LuaScriptWorkload::DeclaresOptions() const { return impl_->declares_options; }

void LuaScriptWorkload::SetUndeclaredOptions(
    const std::vector<std::pair<std::string, std::string>>& options) {
  impl_->shared.undeclared.clear();
  for (const auto& [name, value] : options) {
    impl_->shared.undeclared.emplace_back(Underscored(name), value);
  }
}

void LuaScriptWorkload::UseSysbenchMessages() { impl_->shared.sysbench_messages = true; }

bool LuaScriptWorkload::DeferredDriverError() {
  const std::string& name = impl_->db.options().driver;
  const std::vector<std::string> known = DbDriverNames();
  if (!impl_->shared.sysbench_messages || name.empty() ||
      std::find(known.begin(), known.end(), name) != known.end()) {
    return false;
  }
  impl_->shared.driver = nullptr;
  impl_->shared.driver_error = "FATAL: invalid database driver name: '" + name + "'";
  return true;
}

Status LuaScriptWorkload::Validate(int threads) {
  impl_->shared.threads = threads;
  if (impl_->test_options != nullptr) {
    impl_->shared.test_values.clear();
    for (const OptionSpec& o : impl_->test_options->specs()) {
      impl_->shared.test_values.push_back(
          {Underscored(o.name()), {static_cast<int>(o.type()), o.ValueText()}});
    }
    if (DeferredDriverError()) {
      // Told when the script asks for the driver (UseSysbenchMessages).
      std::lock_guard<std::mutex> lock(impl_->main_mu);
      impl_->main->RefreshOptions();
      return Status::Ok();
    }
    LC_RETURN_IF_ERROR(impl_->db.Resolve(*impl_->test_options));
    impl_->shared.driver = &impl_->db.driver();
    impl_->db_resolved = true;
    const OptionSpec* ign =
        impl_->test_options->Find(impl_->shared.driver->Name() + "-ignore-errors");
    if (ign != nullptr) {
      std::vector<std::string> items;
      std::string text = ign->ValueText();
      for (size_t at = 0; at <= text.size();) {
        size_t comma = text.find(',', at);
        if (comma == std::string::npos) comma = text.size();
        if (comma > at) items.push_back(text.substr(at, comma - at));
        at = comma + 1;
      }
      Result<DbIgnoreList> list =
          DbIgnoreList::Parse(items, impl_->shared.driver->Name() == "mysql");
      if (list.ok()) impl_->shared.ignore = std::move(list).value();
    }
  }
  // The options reach the main interpreter's sysbench.opt; its main chunk
  // ran once, when the script was loaded, as under sysbench.
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  impl_->main->RefreshOptions();
  return Status::Ok();
}

namespace {

// Runs `fn_name` (a global function, or sysbench.cmdline.commands[name]) on
// `threads` interpreters in parallel, sysbench.tid = first..first+threads-1.
Status RunParallel(const LuaShared& shared, const std::string& name, int threads, int first,
                   uint64_t seed) {
  std::vector<Status> results(threads);
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      LuaHost host;
      Status s = host.Open(shared, first + t, ThreadSeed(seed, first + t), nullptr, true);
      if (s.ok()) {
        lua_State* L = host.L();
        lua_getglobal(L, "sysbench");
        lua_getfield(L, -1, "cmdline");
        lua_getfield(L, -1, "commands");
        lua_getfield(L, -1, name.c_str());
        lua_rawgeti(L, -1, 1);
        lua_replace(L, -5);
        lua_pop(L, 3);
        s = host.CallTop(name + " command");
      }
      results[t] = s;
    });
  }
  for (auto& th : pool) th.join();
  for (const Status& s : results) {
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

namespace {

// `test(L)` on sysbench.cmdline.<field>.<name> pushed on `L`; false when
// sysbench.cmdline.<field> is no table. The stack is left as it was.
template <typename Test>
bool TestCmdlineEntry(lua_State* L, const char* field, const std::string& name, Test test) {
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "cmdline");
  lua_getfield(L, -1, field);
  bool result = false;
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, name.c_str());
    result = test(L);
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
  return result;
}

}  // namespace

bool LuaScriptWorkload::HasCommand(const std::string& name) const {
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  if ((name == "prepare" || name == "cleanup" || name == "help") &&
      impl_->main->HasFunction(name.c_str())) {
    return true;
  }
  return TestCmdlineEntry(impl_->main->L(), "commands", name,
                          [](lua_State* L) { return lua_istable(L, -1) || lua_isfunction(L, -1); });
}

bool LuaScriptWorkload::RunsInParallel(const std::string& name) const {
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  return TestCmdlineEntry(impl_->main->L(), "commands", name, [](lua_State* L) {
    if (!lua_istable(L, -1)) return false;
    lua_rawgeti(L, -1, 2);
    const bool parallel = lua_toboolean(L, -1) != 0;
    lua_pop(L, 1);
    return parallel;
  });
}

Status LuaScriptWorkload::JoinProcesses(ProcessGroup& group) {
  impl_->group = &group;
  LuaShared& shared = impl_->shared;
  shared.rank = group.Rank();
  shared.ranks = group.Size();
  shared.first_thread = group.FirstThread();
  // The main interpreter was loaded before the rank was known.
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  impl_->main->RefreshOptions();
  return Status::Ok();
}

bool LuaScriptWorkload::RunsOnEveryRank(const std::string& name) const {
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  return TestCmdlineEntry(impl_->main->L(), "every_rank", name,
                          [](lua_State* L) { return lua_toboolean(L, -1) != 0; });
}

Status LuaScriptWorkload::RunCommand(const std::string& name, const PrepareContext& ctx) {
  ProcessGroup* group = impl_->group;
  if (group == nullptr || group->Size() == 1) return RunCommandHere(name, ctx);
  // Every rank takes the vote, so that each ends as the others do.
  const bool here = group->Rank() == 0 || RunsOnEveryRank(name);
  return group->Agree([&] { return here ? RunCommandHere(name, ctx) : Status::Ok(); },
                      "run the script's " + name + " command");
}

Status LuaScriptWorkload::RunCommandHere(const std::string& name, const PrepareContext& ctx) {
  bool parallel = false;
  {
    std::lock_guard<std::mutex> lock(impl_->main_mu);
    lua_State* L = impl_->main->L();
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "commands");
    if (!lua_istable(L, -1)) {
      lua_pop(L, 3);
    } else {
      lua_getfield(L, -1, name.c_str());
      if (lua_istable(L, -1)) {
        lua_rawgeti(L, -1, 2);
        parallel = lua_toboolean(L, -1) != 0;
        lua_pop(L, 1);
        if (!parallel) {
          lua_rawgeti(L, -1, 1);
          lua_replace(L, -5);
          lua_pop(L, 3);
          return impl_->main->CallTop(name + " command");
        }
        lua_pop(L, 4);
      } else if (lua_isfunction(L, -1)) {
        lua_replace(L, -4);
        lua_pop(L, 2);
        return impl_->main->CallTop(name + " command");
      } else {
        lua_pop(L, 4);
      }
    }
  }
  if (parallel) {
    // On every rank: global tids; on rank 0 alone: 0..threads-1.
    const bool every = impl_->group != nullptr && impl_->group->Size() > 1 && RunsOnEveryRank(name);
    return RunParallel(impl_->shared, name, ctx.threads, every ? impl_->shared.first_thread : 0,
                       ctx.seed);
  }
  // A global function of that name (prepare, cleanup, help).
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  if (!impl_->main->HasFunction(name.c_str())) {
    return Status::FailedPrecondition("script '" + impl_->shared.path +
                                      "' does not implement the '" + name + "' command");
  }
  return impl_->main->CallIfPresent(name.c_str(), false);
}

Status LuaScriptWorkload::Prepare(const PrepareContext& ctx) { return RunCommand("prepare", ctx); }

Status LuaScriptWorkload::Cleanup(const PrepareContext& ctx) { return RunCommand("cleanup", ctx); }

std::vector<std::string> LuaScriptWorkload::DeclaredOptionNames() const {
  std::vector<std::string> names;
  for (const ScriptOption& o : impl_->options) names.push_back(o.name);
  return names;
}

std::string LuaScriptWorkload::ScriptHelp() {
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  // help() sees the options' values (their defaults), as under sysbench.
  impl_->main->RefreshOptions();
  lua_State* L = impl_->main->L();
  lua_getglobal(L, "help");
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 1);
    return "";
  }
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "__capture");
  lua_replace(L, -2);
  lua_insert(L, -2);
  if (lua_pcall(L, 1, 2, 1) != 0) return "help() failed: " + impl_->main->PopError() + "\n";
  std::string text = lua_isstring(L, -2) ? lua_tostring(L, -2) : "";
  if (lua_isstring(L, -1)) text += std::string("help() failed: ") + lua_tostring(L, -1) + "\n";
  lua_pop(L, 2);
  return text;
}

Status LuaScriptWorkload::Init(int threads) {
  if (!impl_->has_event && !impl_->has_thread_run) {
    // sysbench's words (scripts grep for them), then what to do.
    return Status::NotReady("cannot find the event() function in " + impl_->shared.path);
  }
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  impl_->initialized = true;
  return impl_->main->CallIfPresent("init", false);
}

Result<std::unique_ptr<Worker>> LuaScriptWorkload::NewWorker(const ThreadContext& ctx) {
  auto host = std::make_unique<LuaHost>();
  LC_RETURN_IF_ERROR(host->Open(impl_->shared, ctx.GlobalThreadId(), ctx.seed, ctx.recorder, true));
  host->state().loop = ctx.loop;
  LC_RETURN_IF_ERROR(host->CallIfPresent("thread_init", true));
  const bool thread_run = ctx.loop != nullptr;
  return std::unique_ptr<Worker>(new LuaWorker(std::move(host), ctx.recorder, thread_run));
}

// done() waits for RunDoneHook(), after the end report.
Status LuaScriptWorkload::Done() { return Status::Ok(); }

Status LuaScriptWorkload::RunDoneHook() {
  std::lock_guard<std::mutex> lock(impl_->main_mu);
  if (!impl_->initialized) return Status::Ok();
  impl_->initialized = false;
  return impl_->main->CallIfPresent("done", false);
}

std::vector<std::pair<std::string, std::string>> LuaScriptWorkload::Describe() const {
  std::vector<std::pair<std::string, std::string>> d = {{"Script", impl_->shared.path}};
  if (impl_->db_resolved && impl_->may_use_database) {
    d.push_back({"Database", impl_->db.driver().Describe()});
  }
  return d;
}

bool LuaScriptWorkload::Impl::Connected() const {
  return shared.connected->load(std::memory_order_relaxed);
}

std::vector<Metric> LuaScriptWorkload::Metrics(const RunResult& r) const {
  return impl_->Connected() ? OltpMetrics(r) : std::vector<Metric>{};
}

WorkloadFacts LuaScriptWorkload::Facts(const RunResult& r) const {
  DbDriver* driver = impl_->shared.driver;
  if (!impl_->Connected() || driver == nullptr) return {};
  WorkloadFacts f = OltpFacts(r, driver->Name(), /*reconnects_asked=*/false);
  if (r.events == 0 || !r.failure.ok()) return f;
  std::lock_guard<std::mutex> lock(impl_->data_set_mu);
  if (!impl_->data_set.has_value()) {
    impl_->data_set = ReadOltpDataSetAfterRun(*driver, &impl_->settings);
    if (impl_->data_set->unknown.empty() && impl_->data_set->data_bytes == 0) {
      impl_->data_set->unknown =
          "the script's tables are not sysbench's sbtestN tables, whose size alone is read";
    }
  }
  AddDataSetFacts(f, *impl_->data_set, r);
  f.database_settings = impl_->settings;
  return f;
}

std::optional<std::string> LuaScriptWorkload::Impl::CallReportHook(const char* name,
                                                                   const IntervalSnapshot* s,
                                                                   const RunResult* r,
                                                                   double percentile) const {
  std::lock_guard<std::mutex> lock(main_mu);
  lua_State* L = main->L();
  // report_json's stream is the hook's (sysbench runs the two hooks in two
  // interpreters).
  lua_getglobal(L, "sysbench");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__report_stream");
  lua_pop(L, 1);
  std::optional<std::string> text = RunReportHook(name, s, r, percentile);
  if (r == nullptr) return text;
  // The run's end: the intermediate reports' stream ends before the
  // cumulative report, which then ends its own.
  const std::string before = CloseReportStream("report_intermediate");
  const std::string after = CloseReportStream("report_cumulative");
  if (!text && before.empty() && after.empty()) return std::nullopt;
  return before + text.value_or("") + after;
}

std::string LuaScriptWorkload::Impl::CloseReportStream(const char* stream) const {
  lua_State* L = main->L();
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "__capture");
  lua_getfield(L, -2, "__close_report");
  lua_pushstring(L, stream);
  std::string text;
  if (lua_pcall(L, 2, 2, 1) == 0) {
    if (lua_isstring(L, -2)) text = lua_tostring(L, -2);
    lua_pop(L, 2);
  } else {
    lua_pop(L, 1);
  }
  lua_pop(L, 1);  // sysbench
  return text;
}

std::optional<std::string> LuaScriptWorkload::Impl::RunReportHook(const char* name,
                                                                  const IntervalSnapshot* s,
                                                                  const RunResult* r,
                                                                  double percentile) const {
  lua_State* L = main->L();
  lua_getglobal(L, "sysbench");
  lua_getfield(L, -1, "hooks");
  lua_getfield(L, -1, name);
  if (!lua_isfunction(L, -1)) {
    lua_pop(L, 3);
    return std::nullopt;
  }
  lua_getfield(L, -3, "__capture");
  lua_insert(L, -2);  // capture, hook
  const std::vector<uint64_t>& c = s != nullptr ? s->counters : r->counters;
  auto counter = [&](int i) { return i < static_cast<int>(c.size()) ? c[i] : 0; };
  const LatencyHistogram* h = nullptr;
  if (s != nullptr && !s->latency.empty()) h = &s->latency[0].histogram;
  if (r != nullptr && !r->latency.empty()) h = &r->latency[0].histogram;
  lua_newtable(L);
  auto set = [&](const char* k, double v) {
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
  };
  set("time_interval", s != nullptr ? s->duration_s : r->total_time_s);
  set("time_total", s != nullptr ? s->t_end_s : r->total_time_s);
  // The final report comes once every thread stopped: 0 running, as sysbench says.
  set("threads_running", s != nullptr ? s->threads : 0);
  set("events", static_cast<double>(s != nullptr ? s->events : r->events));
  set("reads", static_cast<double>(counter(kOltpReads)));
  set("writes", static_cast<double>(counter(kOltpWrites)));
  set("other", static_cast<double>(counter(kOltpOthers)));
  set("errors", static_cast<double>(counter(kOltpIgnoredErrors)));
  set("reconnects", static_cast<double>(counter(kOltpReconnects)));
  set("latency_pct",
      // In seconds, as sysbench gives it (its report functions print it * 1000).
      h != nullptr && percentile > 0 ? static_cast<double>(h->Percentile(percentile)) / 1e9 : 0);
  set("queue_length", s != nullptr ? static_cast<double>(s->queue) : 0);
  set("concurrency", s != nullptr ? static_cast<double>(s->concurrency) : 0);
  if (lua_pcall(L, 2, 2, 1) != 0) {
    std::string m = main->PopError();
    lua_pop(L, 2);
    return "sysbench.hooks." + std::string(name) + " failed: " + m + "\n";
  }
  std::string text = lua_isstring(L, -2) ? lua_tostring(L, -2) : "";
  if (lua_isstring(L, -1)) {
    text += "sysbench.hooks." + std::string(name) + " failed: " + lua_tostring(L, -1) + "\n";
  }
  lua_pop(L, 4);
  return text;
}

// The SQL statistics only when the script used a database, as sysbench.
std::string LuaScriptWorkload::TextSection(const RunResult& r) const {
  std::optional<std::string> hook = impl_->CallReportHook("report_cumulative", nullptr, &r, 95);
  const std::string sql = impl_->Connected() ? OltpTextSection(r) : "";
  return hook.value_or("") + sql;
}

std::optional<std::string> LuaScriptWorkload::OwnEndOutput(const RunResult& r) const {
  return impl_->CallReportHook("report_cumulative", nullptr, &r, 95);
}

std::string LuaScriptWorkload::SysbenchSection(const RunResult& r) const {
  std::optional<std::string> hook = impl_->CallReportHook("report_cumulative", nullptr, &r, 95);
  const std::string sql = impl_->Connected() ? OltpSysbenchSection(r) : "";
  return hook.value_or("") + sql;
}

std::string LuaScriptWorkload::IntervalLine(const IntervalSnapshot& s, double percentile) const {
  return OltpIntervalLine(s, percentile);
}

std::optional<std::string> LuaScriptWorkload::IntervalOutput(const IntervalSnapshot& s,
                                                             double percentile) const {
  return impl_->CallReportHook("report_intermediate", &s, nullptr, percentile);
}

}  // namespace loadcell
