#pragma once
// sysbench options that loadcell accepts for compatibility but that have no
// option of their own here: sysbench 1.0's --debug, --db-debug, --mysql-debug,
// --pgsql-variant, --validate on tests without validation,
// and the 0.4/0.5 names 1.0 dropped (--init-rng, --rand-init,
// --oltp-nontrx-mode, --oltp-table-name, --oltp-avoid-deadlocks,
// --oltp-use-in-statement, --oltp-sp-name, --myisam-max-rows,
// --mysql-engine-trx). Each one is honoured, said to be without effect (a
// note on stderr saying why), or refused with one line naming what to use
// instead. docs/cli.md lists them.

#include <string>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell {

struct TestSetup;

// Before the options are applied: rewrites the options that stand for other
// options (--pgsql-variant=redshift, --mysql-engine-trx=no) into those, unless
// the user gave them.
Status ExpandSysbenchCompatOptions(RawOptions& raw);

// After the general and test options took theirs: consumes the remaining
// compatibility options, adjusts `setup` where one is honoured, and adds
// a note per option without effect to `notes`. InvalidArgument (exit 2) for
// a value loadcell cannot honour.
Status TakeSysbenchCompatOptions(RawOptions& raw, TestSetup& setup,
                                 std::vector<std::string>& notes);

// `--db-driver=help`: the drivers in this build, one per line, as sysbench
// lists its compiled-in drivers.
std::string DbDriverHelp();

}  // namespace loadcell
