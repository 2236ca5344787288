#pragma once
// Lua scripts with the sysbench 1.0 API as a loadcell test.
//
// The script is loaded once in the main thread's interpreter when the test
// is created (its sysbench.cmdline.options become the test's options), and
// once more in one interpreter per worker thread. See docs/lua.md.

#include <memory>
#include <string>
#include <vector>

#include "core/options.h"
#include "core/status.h"
#include "runner/workload.h"

namespace loadcell {

class LuaScriptWorkload;

// Loads `path` in a main-thread interpreter with sysbench.cmdline.command =
// `command` and argv = `argv`. A syntax or load-time error names the script,
// line and message (InvalidArgument). `raw`, when given, are the command
// line's options: the database options among them set up the driver that
// SQL in the script's main chunk uses (as sysbench, whose database options
// are parsed before the script loads); they are not consumed.
Result<std::unique_ptr<LuaScriptWorkload>> LoadLuaScript(const std::string& path,
                                                         const std::string& command,
                                                         const std::vector<std::string>& argv,
                                                         const RawOptions* raw = nullptr);

class LuaScriptWorkload final : public Workload, public TextReportSections {
 public:
  ~LuaScriptWorkload() override;

  WorkloadInfo Info() const override;
  void RegisterOptions(OptionSet& opts) override;
  Status Validate(int threads) override;
  // Under MPI: sysbench.rank and sysbench.ranks, global thread ids, and
  // prepare, cleanup and custom commands on rank 0 alone unless the script
  // lists the command in sysbench.cmdline.every_rank.
  Status JoinProcesses(ProcessGroup& group) override;
  Status Prepare(const PrepareContext& ctx) override;
  Status Cleanup(const PrepareContext& ctx) override;
  Status Init(int threads) override;
  Result<std::unique_ptr<Worker>> NewWorker(const ThreadContext& ctx) override;
  Status Done() override;
  std::vector<std::pair<std::string, std::string>> Describe() const override;
  std::vector<Metric> Metrics(const RunResult& r) const override;
  // A script that used a database: its errors, deadlocks and reconnects,
  // and, once after a run that did not fail, the sbtestN tables' size
  // against the buffer pool (the verdict's database check, as for OLTP).
  WorkloadFacts Facts(const RunResult& r) const override;
  std::string TextSection(const RunResult& r) const override;
  std::string SysbenchSection(const RunResult& r) const override;
  std::string IntervalLine(const IntervalSnapshot& s, double percentile) const override;
  // What sysbench.hooks.report_cumulative printed, when the script sets it.
  std::optional<std::string> OwnEndOutput(const RunResult& r) const override;
  // What sysbench.hooks.report_intermediate printed, when the script sets it.
  std::optional<std::string> IntervalOutput(const IntervalSnapshot& s,
                                            double percentile) const override;
  // The script's done(), which sysbench runs after the end report: once,
  // and only when Init() ran. Done() does not call it.
  Status RunDoneHook();

  // sysbench mode: sysbench's messages for a hook's error, and a
  // --db-driver that names no driver is told only when the script asks for
  // the driver (as sysbench.sql.driver() does), not refused by Validate.
  void UseSysbenchMessages();

  // The general options in force (threads, time, rand-type...), exposed to
  // the script as sysbench.opt.*. Call after they were parsed.
  void SetGeneralOptions(const OptionSet& general);
  // Whether the script declares sysbench.cmdline.options. One that does not
  // (a sysbench 0.5 script) accepts any option: see SetUndeclaredOptions.
  bool DeclaresOptions() const;
  // The names of sysbench.cmdline.options as the script spells them, in
  // its order (the option sets know them dashed).
  std::vector<std::string> DeclaredOptionNames() const;
  // Options given that no option set knows, as name ('-' or '_') -> value
  // text: they reach the script as sysbench.opt.* and globals.
  void SetUndeclaredOptions(const std::vector<std::pair<std::string, std::string>>& options);
  // The script's help(): its text, or "" when it defines none.
  std::string ScriptHelp();
  // Whether the script defines command `name` in sysbench.cmdline.commands
  // (or, for prepare/cleanup/help, a function of that name).
  bool HasCommand(const std::string& name) const;
  // Whether sysbench.cmdline.commands declares `name` parallel
  // ({function, sysbench.cmdline.PARALLEL_COMMAND}).
  bool RunsInParallel(const std::string& name) const;
  // Runs custom command `name` (parallel ones on `threads` interpreters).
  Status RunCommand(const std::string& name, const PrepareContext& ctx);

  struct Impl;

 private:
  // Under UseSysbenchMessages, a --db-driver that names no driver of this
  // build: notes sysbench's line for it (LuaShared::driver_error), leaves
  // no driver, and returns true.
  bool DeferredDriverError();
  // Whether the script lists `name` in sysbench.cmdline.every_rank.
  bool RunsOnEveryRank(const std::string& name) const;
  // RunCommand on this process, whatever the rank.
  Status RunCommandHere(const std::string& name, const PrepareContext& ctx);
  explicit LuaScriptWorkload(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend Result<std::unique_ptr<LuaScriptWorkload>> LoadLuaScript(const std::string&,
                                                                  const std::string&,
                                                                  const std::vector<std::string>&,
                                                                  const RawOptions*);
};

}  // namespace loadcell
