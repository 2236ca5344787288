#pragma once
// Options of the OLTP workloads: sysbench 1.0's names and defaults
// (oltp_common.lua), the 0.4/0.5 names as aliases, and the mapping of the
// legacy `oltp` test's --oltp-test-mode / --oltp-read-only onto a statement
// mix.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/options.h"
#include "core/status.h"

namespace loadcell {

// Which sysbench 1.0 script a workload reproduces; kLegacy is the 0.4/0.5
// `oltp` test, resolved to one of the others by ResolveLegacyMix().
enum class OltpKind {
  kReadOnly,
  kReadWrite,
  kWriteOnly,
  kPointSelect,
  kUpdateIndex,
  kUpdateNonIndex,
  kInsert,
  kDelete,
  kRandomPoints,
  kRandomRanges,
  kBulkInsert,
  kLegacy,
};

// The workload name of each kind ("oltp_read_write", "oltp" for kLegacy).
std::string_view OltpKindName(OltpKind kind);
// Every kind, in the order `loadcell list` shows them.
const std::vector<OltpKind>& AllOltpKinds();

enum class ReconnectMode { kSession, kQuery, kTransaction, kRandom };

struct OltpOptions {
  int64_t tables = 1;
  int64_t table_size = 10000;
  int64_t range_size = 100;
  int64_t point_selects = 10;
  int64_t simple_ranges = 1;
  int64_t sum_ranges = 1;
  int64_t order_ranges = 1;
  int64_t distinct_ranges = 1;
  int64_t index_updates = 1;
  int64_t non_index_updates = 1;
  int64_t delete_inserts = 1;
  bool range_selects = true;
  bool auto_inc = true;
  bool skip_trx = false;
  bool secondary = false;
  bool create_secondary = true;
  std::string mysql_storage_engine = "innodb";
  // select_random_points / select_random_ranges.
  int64_t random_points = 10;
  int64_t number_of_ranges = 10;
  int64_t delta = 5;
  // loadcell's own.
  bool force = false;                // prepare over tables loadcell did not create
  bool use_existing_tables = false;  // run on tables loadcell cannot prove its own
  double reconnect_timeout_s = 10;   // give up reconnecting after this long
  // 0.4/0.5.
  std::string test_mode = "complex";  // simple|complex|nontrx (legacy `oltp` only)
  bool read_only = false;             // --oltp-read-only (legacy `oltp` only)
  std::string reconnect_mode = "session";
  int64_t connect_delay_us = 0;
  int64_t user_delay_min_us = 0;
  int64_t user_delay_max_us = 0;

  ReconnectMode reconnect() const;
  bool has_think_time() const { return user_delay_max_us > 0; }
};

// Registers the options that workload `kind` understands, bound to `o`.
void RegisterOltpOptions(OltpKind kind, OltpOptions& o, OptionSet& opts);

// Cross-option checks; InvalidArgument names the option. `threads` is the
// run's --threads.
Status ValidateOltpOptions(OltpKind kind, const OltpOptions& o, int threads);

// The statement mix the legacy `oltp` test runs: simple -> one point select
// per event without a transaction (oltp_point_select), nontrx -> the same
// with --skip-trx, complex -> oltp_read_write, or oltp_read_only with
// --oltp-read-only. May set o.skip_trx / o.point_selects. Other kinds are
// returned unchanged.
OltpKind ResolveLegacyMix(OltpKind kind, OltpOptions& o);

}  // namespace loadcell
