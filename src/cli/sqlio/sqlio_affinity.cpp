#include "cli/sqlio/sqlio_affinity.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

namespace loadcell {

std::string CpuRanges(const std::vector<int>& cpus) {
  std::string out;
  for (size_t i = 0; i < cpus.size();) {
    size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? std::to_string(cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return out;
}

namespace {

// `where` (-a, -p or a param file line) names `subject`'s CPUs `cpus`: each
// must be one the machine has and the process may use. Refused before
// anything is made, naming the CPUs there are.
Status CheckCpus(const std::string& where, const std::string& subject, const std::vector<int>& cpus,
                 const CpuFacts& facts) {
  std::vector<int> lacking, outside;
  for (int c : cpus) {
    if (facts.machine > 0 && c >= facts.machine) {
      lacking.push_back(c);
    } else if (!facts.allowed.empty() &&
               !std::binary_search(facts.allowed.begin(), facts.allowed.end(), c)) {
      outside.push_back(c);
    }
  }
  const auto named = [](const std::vector<int>& v) {
    return fmt::format("{} {}", v.size() == 1 ? "CPU" : "CPUs", CpuRanges(v));
  };
  if (!lacking.empty()) {
    return Status::InvalidArgument(fmt::format("{}: {} names {}; this machine has CPUs 0-{}", where,
                                               subject, named(lacking), facts.machine - 1));
  }
  if (!outside.empty()) {
    return Status::InvalidArgument(
        fmt::format("{}: {} names {}, outside this process's affinity: it may run on CPUs {}",
                    where, subject, named(outside), CpuRanges(facts.allowed)));
  }
  return Status::Ok();
}

std::vector<int> MaskCpus(uint64_t mask) {
  std::vector<int> cpus;
  for (int c = 0; c < 64; ++c) {
    if ((mask >> c) & 1) cpus.push_back(c);
  }
  return cpus;
}

}  // namespace

Status CheckSqlioAffinity(const SqlioSwitches& sw, const std::vector<SqlioParamLine>& lines,
                          const CpuFacts& facts) {
  if (sw.cpu.has_value()) {
    LC_RETURN_IF_ERROR(CheckCpus("sqlio: '" + sw.cpu_arg + "'", "-p", {*sw.cpu}, facts));
  }
  if (sw.affinity_mask.has_value()) {
    LC_RETURN_IF_ERROR(CheckCpus("sqlio: '" + sw.affinity_arg + "'",
                                 fmt::format("affinity mask 0x{:x}", *sw.affinity_mask),
                                 MaskCpus(*sw.affinity_mask), facts));
  }
  for (const SqlioParamLine& p : lines) {
    LC_RETURN_IF_ERROR(CheckCpus(fmt::format("param file {} line {}", sw.param_file, p.line),
                                 fmt::format("affinity mask 0x{:x}", p.mask), MaskCpus(p.mask),
                                 facts));
  }
  return Status::Ok();
}

}  // namespace loadcell
