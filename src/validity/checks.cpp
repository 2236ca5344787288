#include <utility>

#include "validity/check.h"

namespace loadcell::validity {

// The one list, in the order of docs/validity.md.
const std::vector<CheckEntry>& AllChecks() {
  static const std::vector<CheckEntry> kAll = {
      {"cache", &CheckCache},
      {"device-reads", &CheckDeviceReads},
      {"device-writes", &CheckDeviceWrites},
      {"unwritten-data", &CheckUnwrittenData},
      {"write-data", &CheckWriteData},
      {"samples", &CheckSamples},
      {"steady-state", &CheckSteadyState},
      {"warm-up", &CheckWarmUp},
      {"client-cpu", &CheckClientCpu},
      {"queue-depth", &CheckQueueDepth},
      {"rate", &CheckRate},
      {"durability", &CheckDurability},
      {"alignment", &CheckAlignment},
      {"errors", &CheckErrors},
      {"fairness", &CheckFairness},
      {"ranks", &CheckRanks},
      {"database", &CheckDatabase},
      {"noisy-host", &CheckNoisyHost},
      {"other-io", &CheckOtherIo},
      {"memory-cache", &CheckMemoryCache},
      {"cpu-frequency", &CheckCpuFrequency},
  };
  return kAll;
}

CheckOutcome Passed(const char* id, std::vector<CheckFigure> figures) {
  CheckOutcome c;
  c.id = id;
  c.level = CheckLevel::kPass;
  c.figures = std::move(figures);
  return c;
}

CheckOutcome Found(const char* id, CheckLevel level, std::string seen, std::string advice,
                   std::vector<CheckFigure> figures) {
  CheckOutcome c;
  c.id = id;
  c.level = level;
  c.seen = std::move(seen);
  c.advice = std::move(advice);
  c.figures = std::move(figures);
  return c;
}

CheckOutcome NotChecked(const char* id, std::string why) {
  CheckOutcome c;
  c.id = id;
  c.level = CheckLevel::kNotChecked;
  c.seen = std::move(why);
  return c;
}

bool AnyBufferedTarget(const CheckInput& in, bool writes) {
  for (const IoTargetFacts& t : in.workload.io) {
    if (!t.null_engine && !t.direct && (writes ? t.writes : t.reads)) return true;
  }
  return false;
}

CheckOutcome NoDeviceCounters(const char* id, const CheckInput& in) {
  return NotChecked(id, in.host.devices_unknown.empty() ? "no device counters were read"
                                                        : in.host.devices_unknown);
}

Validity RunChecks(const CheckInput& in) {
  Validity v;
  v.judged = true;
  for (const CheckEntry& e : AllChecks()) {
    if (std::optional<CheckOutcome> c = e.fn(in)) v.checks.push_back(std::move(*c));
  }
  return v;
}

}  // namespace loadcell::validity
