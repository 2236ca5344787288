// Kills a PostgreSQL server in the middle of an OLTP run: loadcell must try
// to reconnect, give up after --reconnect-timeout, print the report of what
// it measured and exit 1; never hang or crash. Freezes one (SIGSTOP): the
// read timeout ends the run the same way.
//
// The test starts a PostgreSQL server of its own (initdb in a temporary
// folder, a free port of 127.0.0.1; testing/private_servers.h), so that
// killing it cannot disturb tests that run in parallel against the shared
// throwaway servers.

#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <functional>
#include <string>

#include "testing/oltp_test_env.h"
#include "testing/private_servers.h"
#include "testing/run_binary.h"
#include "testing/server_env.h"
#include "testing/status.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::Args;
using testing::ChildWatch;
using testing::Concat;
using testing::PrivateMariadb;
using testing::PrivatePostgres;
using testing::ProcessResult;
using testing::ReportNumber;
using testing::RunLoadcell;
using testing::Show;

// The options of the runs on `server`: two small tables, two threads.
template <typename Server>
Args RunArgs(const Server& server) {
  return Concat({"oltp_read_write"}, Concat(server.args(), {"--tables=2", "--table-size=1000",
                                                            "--range-size=50", "--threads=2"}));
}

// Fails the test unless `server` started and prepare with `base` succeeded.
template <typename Server>
void StartAndPrepare(const Server& server, const Args& base) {
  // The server's folder is removed with the server, so its logs are shown
  // here rather than named.
  ASSERT_OK(server) << "could not start a private server; its logs:\n" << server.Logs();
  auto prep = RunLoadcell(Concat(base, {"prepare"}));
  ASSERT_EQ(prep.exit_code, 0) << Show(prep);
}

// A 60 s run of `base` with `option`; `disturb` (which must return true)
// runs after 1 s of it.
ProcessResult RunDisturbed(const Args& base, const std::string& option,
                           const std::function<bool()>& disturb) {
  ChildWatch watch;
  watch.during = [&](int) { EXPECT_TRUE(disturb()); };
  watch.delay_ms = 1000;
  watch.timeout_s = 50;
  return RunLoadcell(Concat(base, {"--time=60", "--report-interval=1", option, "run"}), watch);
}

// Freezes the server (`freeze`) 1 s into a run; expects the run to end
// within the 2 s read timeout and a few seconds, as a failed run with its
// report and a line naming `where` and the timeout.
void ExpectFrozenRunEnds(const Args& base, const std::function<bool()>& freeze,
                         const std::string& where) {
  const ProcessResult r = RunDisturbed(base, "--db-read-timeout=2s", freeze);
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_GE(r.seconds_after_action, 0);
  EXPECT_LT(r.seconds_after_action, 2 + 5) << Show(r);
  EXPECT_NE(r.out.find("SQL statistics:"), std::string::npos) << Show(r);
  EXPECT_GT(ReportNumber(r.out, "    transactions:"), 0) << Show(r);
  EXPECT_NE(r.err.find("the server at " + where), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("within 2s (--db-read-timeout)"), std::string::npos) << Show(r);
}

// A run whose server died 1 s in, with --reconnect-timeout=2: a failed run
// that gave up after about the reconnect timeout (no hang), with the report
// of what was measured, then the reason on stderr.
void ExpectKilledRunEnds(const ProcessResult& r) {
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_GE(r.seconds_after_action, 0);
  EXPECT_LT(r.seconds_after_action, 20) << Show(r);
  EXPECT_NE(r.out.find("SQL statistics:"), std::string::npos) << Show(r);
  EXPECT_GT(ReportNumber(r.out, "    transactions:"), 0) << Show(r);
  EXPECT_NE(r.out.find("Run failed:"), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("could not reconnect within 2s"), std::string::npos) << Show(r);
}

// The server killed 1 s into a run on connections opened with `connector`
// (--db-connector): the run reports what it measured and fails within the
// reconnect timeout; the server back, a run and cleanup work.
void ExpectPostgresKilledRunEnds(const std::string& connector) {
  PrivatePostgres pg;
  const Args base = Concat(RunArgs(pg), {"--db-connector=" + connector});
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(pg, base));

  // A 60 s run; the server dies after 1 s of it.
  const ProcessResult r = RunDisturbed(base, "--reconnect-timeout=2", [&] { return pg.Kill(); });
  ExpectKilledRunEnds(r);

  // The server comes back: a new run works and cleanup drops the tables.
  ASSERT_TRUE(pg.Start());
  auto again = RunLoadcell(Concat(base, {"--events=20", "run"}));
  EXPECT_EQ(again.exit_code, 0) << Show(again);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

TEST(OltpFault, PostgresKilledMidRun) { ExpectPostgresKilledRunEnds("library"); }
TEST(OltpFault, PostgresKilledMidRunNative) { ExpectPostgresKilledRunEnds("native"); }

// The same on the native connection: the read timeout ends a run on a
// frozen server.
TEST(OltpFault, PostgresFrozenMidRunNative) {
  PrivatePostgres pg;
  const Args base = Concat(RunArgs(pg), {"--db-connector=native"});
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(pg, base));
  ExpectFrozenRunEnds(
      base, [&] { return pg.SignalAll(SIGSTOP); }, "127.0.0.1:");
  EXPECT_TRUE(pg.SignalAll(SIGCONT));
}

// The server frozen (SIGSTOP) in the middle of a run: every connection's
// --db-read-timeout ends the run as a failed run with its report and a line
// naming the server and the timeout, instead of a hang.
TEST(OltpFault, PostgresFrozenMidRun) {
  PrivatePostgres pg;
  const Args base = RunArgs(pg);
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(pg, base));

  ExpectFrozenRunEnds(
      base, [&] { return pg.SignalAll(SIGSTOP); }, "127.0.0.1:");
  // Still frozen: a connect attempt waits for the server's reply, and Ctrl-C
  // ends it at once, long before --db-connect-timeout.
  ChildWatch interrupt;
  interrupt.marker = "";  // at once: nothing is printed before the connect
  interrupt.delay_ms = 500;
  interrupt.during = [](int pid) { kill(pid, SIGINT); };
  interrupt.timeout_s = 30;
  const ProcessResult stopped =
      RunLoadcell(Concat(base, {"--db-connect-timeout=20s", "--time=5", "run"}), interrupt);
  EXPECT_TRUE(pg.SignalAll(SIGCONT));
  EXPECT_EQ(stopped.exit_code, 128 + SIGINT) << Show(stopped);
  EXPECT_GE(stopped.seconds_after_action, 0);
  EXPECT_LT(stopped.seconds_after_action, 3) << Show(stopped);

  // Thawed, the server serves again.
  auto again = RunLoadcell(Concat(base, {"--events=20", "run"}));
  EXPECT_EQ(again.exit_code, 0) << Show(again);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

// The server frozen while prepare loads a table through libpq's COPY: the
// write (or read) timeout ends prepare with one line naming the server and
// the timeout, exit 1. Frozen again, a stop signal ends prepare within the
// grace (--forced-shutdown), exit 130, whatever the timeouts.
TEST(OltpFault, PostgresFrozenDuringPrepareCopy) {
  PrivatePostgres pg;
  ASSERT_OK(pg) << "could not start a private server; its logs:\n" << pg.Logs();
  const Args base =
      Concat({"oltp_read_write"}, Concat(pg.args(), {"--tables=1", "--table-size=3000000"}));
  ChildWatch freeze;
  freeze.marker = "Inserting";
  freeze.delay_ms = 300;
  freeze.during = [&](int) { EXPECT_TRUE(pg.SignalAll(SIGSTOP)); };
  freeze.timeout_s = 60;
  const ProcessResult r = RunLoadcell(
      Concat(base, {"--db-read-timeout=2s", "--db-write-timeout=2s", "prepare"}), freeze);
  EXPECT_TRUE(pg.SignalAll(SIGCONT));
  EXPECT_EQ(r.exit_code, 1) << Show(r);
  EXPECT_GE(r.seconds_after_action, 0);
  // The 2 s timeout, and room for a loaded machine (a hang runs to 60 s).
  EXPECT_LT(r.seconds_after_action, 2 + 10) << Show(r);
  EXPECT_NE(r.err.find("the server at 127.0.0.1:"), std::string::npos) << Show(r);
  EXPECT_NE(r.err.find("within 2s (--db-"), std::string::npos) << Show(r);

  ChildWatch interrupt = freeze;
  interrupt.during = [&](int pid) {
    EXPECT_TRUE(pg.SignalAll(SIGSTOP));
    kill(pid, SIGINT);
  };
  const ProcessResult stopped =
      RunLoadcell(Concat(base, {"--db-read-timeout=50s", "--db-write-timeout=50s",
                                "--forced-shutdown=1", "--force", "prepare"}),
                  interrupt);
  EXPECT_TRUE(pg.SignalAll(SIGCONT));
  EXPECT_EQ(stopped.exit_code, 130) << Show(stopped);
  EXPECT_LT(stopped.seconds_after_action, 1 + 4) << Show(stopped);
  EXPECT_NE(stopped.err.find("interrupted; prepare did not stop within the grace of 1 s"),
            std::string::npos)
      << Show(stopped);
}

// The same on MariaDB: loadcell's own COM_STMT_EXECUTE path and libmariadb
// (MYSQL_OPT_READ_TIMEOUT) both give up.
TEST(OltpFault, MariadbFrozenMidRun) {
  PrivateMariadb my;
  const Args base = RunArgs(my);
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(my, base));
  ExpectFrozenRunEnds(
      base, [&] { return my.Signal(SIGSTOP); }, "socket " + my.socket());
  EXPECT_TRUE(my.Signal(SIGCONT));
  auto again = RunLoadcell(Concat(base, {"--events=20", "run"}));
  EXPECT_EQ(again.exit_code, 0) << Show(again);
  auto clean = RunLoadcell(Concat(base, {"cleanup"}));
  EXPECT_EQ(clean.exit_code, 0) << Show(clean);
}

// The native connector (--db-connector=native, what loadcell.exe uses): the
// server killed in the middle of a run ends it as a failed run with its
// report once the reconnect timeout passed; frozen, at the read timeout.
TEST(OltpFault, MariadbKilledMidRunNative) {
  PrivateMariadb my(true);
  const Args base = RunArgs(my);
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(my, base));
  const ProcessResult r =
      RunDisturbed(base, "--reconnect-timeout=2", [&] { return my.Signal(SIGKILL); });
  ExpectKilledRunEnds(r);
}

TEST(OltpFault, MariadbFrozenMidRunNative) {
  PrivateMariadb my(true);
  const Args base = RunArgs(my);
  ASSERT_NO_FATAL_FAILURE(StartAndPrepare(my, base));
  ExpectFrozenRunEnds(
      base, [&] { return my.Signal(SIGSTOP); }, "127.0.0.1:" + std::to_string(my.port()));
  EXPECT_TRUE(my.Signal(SIGCONT));
  auto again = RunLoadcell(Concat(base, {"--events=20", "run"}));
  EXPECT_EQ(again.exit_code, 0) << Show(again);
}

// SIGINT while prepare loads a SQLite database: a database file that this
// prepare created goes, with its -wal and -shm (the folder is empty again);
// one that existed before stays, and run refuses its incomplete table.
TEST(OltpFault, SqlitePrepareInterrupted) {
  testing::TempDir tmp;
  const std::string db = tmp.File("x.db");
  const Args base = {"oltp_read_only", "--db-driver=sqlite", "--sqlite-db=" + db, "--tables=1"};
  ChildWatch interrupt;
  interrupt.marker = "Inserting";
  interrupt.delay_ms = 200;
  interrupt.during = [](int pid) { kill(pid, SIGINT); };
  const ProcessResult fresh =
      RunLoadcell(Concat(base, {"--table-size=50000000", "prepare"}), interrupt);
  EXPECT_EQ(fresh.exit_code, 130) << Show(fresh);
  // SQLite's own close removes a -wal and -shm it could checkpoint: the
  // message names those loadcell removed.
  EXPECT_NE(fresh.err.find("prepare interrupted; removed the database file " + db),
            std::string::npos)
      << Show(fresh);
  EXPECT_NE(fresh.err.find("which this prepare had created"), std::string::npos) << Show(fresh);
  EXPECT_TRUE(std::filesystem::is_empty(tmp.path())) << Show(fresh);

  const ProcessResult small = RunLoadcell(Concat(base, {"--table-size=100", "prepare"}));
  ASSERT_EQ(small.exit_code, 0) << Show(small);
  const ProcessResult again =
      RunLoadcell(Concat(base, {"--table-size=50000000", "--force", "prepare"}), interrupt);
  EXPECT_EQ(again.exit_code, 130) << Show(again);
  EXPECT_NE(again.err.find("prepare interrupted; the database file " + db +
                           " existed before this prepare, so it was left in place"),
            std::string::npos)
      << Show(again);
  EXPECT_TRUE(std::filesystem::exists(db));
  const ProcessResult run = RunLoadcell(Concat(base, {"--time=1", "run"}));
  EXPECT_EQ(run.exit_code, 2) << Show(run);
  EXPECT_NE(run.err.find("table sbtest1 was not completely prepared"), std::string::npos)
      << Show(run);
}

}  // namespace
}  // namespace loadcell
