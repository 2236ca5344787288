#include "workloads/oltp/oltp_plan.h"

#include "core/plural.h"

namespace loadcell {

OltpPlan MakeOltpPlan(OltpKind kind, const OltpOptions& in) {
  OltpOptions o = in;
  OltpPlan p;
  p.kind = ResolveLegacyMix(kind, o);
  auto add = [&p](OltpStmt s, int64_t n) {
    if (n > 0) p.steps.push_back({s, n});
  };
  const bool trx_kind = p.kind == OltpKind::kReadOnly || p.kind == OltpKind::kReadWrite ||
                        p.kind == OltpKind::kWriteOnly;
  p.transaction = trx_kind && !o.skip_trx;
  switch (p.kind) {
    case OltpKind::kReadOnly:
    case OltpKind::kReadWrite:
      add(OltpStmt::kPointSelect, o.point_selects);
      if (o.range_selects) {
        add(OltpStmt::kSimpleRange, o.simple_ranges);
        add(OltpStmt::kSumRange, o.sum_ranges);
        add(OltpStmt::kOrderRange, o.order_ranges);
        add(OltpStmt::kDistinctRange, o.distinct_ranges);
      }
      if (p.kind == OltpKind::kReadOnly) break;
      [[fallthrough]];
    case OltpKind::kWriteOnly:
      add(OltpStmt::kIndexUpdate, o.index_updates);
      add(OltpStmt::kNonIndexUpdate, o.non_index_updates);
      add(OltpStmt::kDelete, o.delete_inserts);
      break;
    case OltpKind::kPointSelect:
      add(OltpStmt::kPointSelect, 1);
      break;
    case OltpKind::kUpdateIndex:
      add(OltpStmt::kIndexUpdate, o.index_updates);
      break;
    case OltpKind::kUpdateNonIndex:
      add(OltpStmt::kNonIndexUpdate, o.non_index_updates);
      break;
    case OltpKind::kInsert:
      add(o.auto_inc ? OltpStmt::kInsertAutoInc : OltpStmt::kInsert, 1);
      break;
    case OltpKind::kDelete:
      // One DELETE per event (not the delete/insert pair).
      p.steps.push_back({OltpStmt::kDelete, 1});
      break;
    case OltpKind::kRandomPoints:
      add(OltpStmt::kRandomPoints, 1);
      break;
    case OltpKind::kRandomRanges:
      add(OltpStmt::kRandomRanges, 1);
      break;
    case OltpKind::kBulkInsert:
    case OltpKind::kLegacy:
      break;
  }
  return p;
}

QueryMix ExpectedMix(const OltpPlan& plan) {
  QueryMix m;
  if (plan.transaction) m.others += 2;
  for (const OltpStep& s : plan.steps) {
    const uint64_t n = static_cast<uint64_t>(s.repeat);
    if (IsSelect(s.stmt)) {
      m.reads += n;
    } else if (s.stmt == OltpStmt::kDelete && plan.kind != OltpKind::kDelete) {
      m.writes += 2 * n;  // DELETE + INSERT
    } else {
      m.writes += n;
    }
  }
  if (plan.kind == OltpKind::kBulkInsert) m.writes = 0;
  return m;
}

std::string DescribePlan(const OltpPlan& plan) {
  if (plan.kind == OltpKind::kBulkInsert) {
    return "one row appended to a multi-row INSERT per event (sent at 512 KiB)";
  }
  std::vector<std::string> parts;
  if (plan.transaction) parts.push_back("BEGIN");
  for (const OltpStep& s : plan.steps) {
    switch (s.stmt) {
      case OltpStmt::kPointSelect:
        parts.push_back(CountOf(s.repeat, "point select", "point selects"));
        break;
      case OltpStmt::kSimpleRange:
        parts.push_back(CountOf(s.repeat, "simple range", "simple ranges"));
        break;
      case OltpStmt::kSumRange:
        parts.push_back(CountOf(s.repeat, "sum range", "sum ranges"));
        break;
      case OltpStmt::kOrderRange:
        parts.push_back(CountOf(s.repeat, "order range", "order ranges"));
        break;
      case OltpStmt::kDistinctRange:
        parts.push_back(CountOf(s.repeat, "distinct range", "distinct ranges"));
        break;
      case OltpStmt::kIndexUpdate:
        parts.push_back(CountOf(s.repeat, "index update", "index updates"));
        break;
      case OltpStmt::kNonIndexUpdate:
        parts.push_back(CountOf(s.repeat, "non-index update", "non-index updates"));
        break;
      case OltpStmt::kDelete:
        parts.push_back(plan.kind == OltpKind::kDelete
                            ? std::string("1 delete")
                            : CountOf(s.repeat, "delete + insert", "delete + inserts"));
        break;
      case OltpStmt::kInsert:
      case OltpStmt::kInsertAutoInc:
        parts.push_back("1 insert");
        break;
      case OltpStmt::kRandomPoints:
        parts.push_back("1 select of random points (k IN)");
        break;
      case OltpStmt::kRandomRanges:
        parts.push_back("1 select of random ranges (k BETWEEN)");
        break;
    }
  }
  if (plan.transaction) parts.push_back("COMMIT");
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

}  // namespace loadcell
