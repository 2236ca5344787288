#include "cluster/run_plan.h"

#include <fmt/format.h>

#include <cstdint>
#include <cstring>
#include <map>

namespace loadcell {
namespace {

constexpr char kPlanMagic[4] = {'L', 'C', 'R', 'P'};
constexpr uint32_t kPlanVersion = 1;

bool Unlimited(const RunPlan& p) {
  return PlanLimit(p, "--time") == "none" && PlanLimit(p, "--events") == "none";
}

// "--time=10" or "--events=100": the limit a plan has.
std::string LimitText(const RunPlan& p) {
  if (PlanLimit(p, "--time") != "none") return fmt::format("--time={}", PlanLimit(p, "--time"));
  return fmt::format("--events={}", PlanLimit(p, "--events"));
}

// The first item of `mine` or `root` whose value differs between them (an
// item only one of them has counts as "none" for the other).
std::string FirstDifference(const std::vector<PlanItem>& root, const std::vector<PlanItem>& mine,
                            int rank) {
  std::map<std::string, std::string> theirs;
  for (const PlanItem& i : mine) theirs.emplace(i.name, i.value);
  auto differs = [rank](const std::string& name, const std::string& a, const std::string& b) {
    return fmt::format("{} differs: rank 0 has {}, rank {} has {}", name, a, rank, b);
  };
  for (const PlanItem& i : root) {
    auto it = theirs.find(i.name);
    const std::string other = it == theirs.end() ? "none" : it->second;
    if (other != i.value) return differs(i.name, i.value, other);
    if (it != theirs.end()) theirs.erase(it);
  }
  for (const PlanItem& i : mine) {
    if (theirs.count(i.name) > 0) return differs(i.name, "none", i.value);
  }
  return "";
}

// How rank `r`'s plan differs from rank 0's, or "".
std::string Difference(const RunPlan& root, const RunPlan& mine, int r) {
  if (mine.test != root.test) {
    return fmt::format("rank {} runs {} where rank 0 runs {}", r, mine.test, root.test);
  }
  if (mine.command != root.command) {
    return fmt::format("rank {} runs {} {} where rank 0 runs {} {}", r, mine.test, mine.command,
                       root.test, root.command);
  }
  if (Unlimited(mine) != Unlimited(root)) {
    const int bare = Unlimited(mine) ? r : 0;
    const int other = bare == 0 ? r : 0;
    return fmt::format(
        "rank {} has no time or event limit (--time=0, no --events) where rank {} has {}: the "
        "run would never end; give every rank the same limit",
        bare, other, LimitText(bare == 0 ? mine : root));
  }
  std::string d = FirstDifference(root.limits, mine.limits, r);
  if (d.empty() && !root.mixed) d = FirstDifference(root.options, mine.options, r);
  return d;
}

void PutString(std::string& out, std::string_view s) {
  const auto n = static_cast<uint32_t>(s.size());
  out.append(reinterpret_cast<const char*>(&n), sizeof(n));
  out.append(s);
}

void PutItems(std::string& out, const std::vector<PlanItem>& items) {
  const auto n = static_cast<uint32_t>(items.size());
  out.append(reinterpret_cast<const char*>(&n), sizeof(n));
  for (const PlanItem& i : items) {
    PutString(out, i.name);
    PutString(out, i.value);
  }
}

// Reads what the Put functions wrote; a short read makes ok false.
struct PlanReader {
  std::string_view in;
  bool ok = true;

  uint32_t Count() {
    uint32_t n = 0;
    if (in.size() < sizeof(n)) {
      ok = false;
      return 0;
    }
    std::memcpy(&n, in.data(), sizeof(n));
    in.remove_prefix(sizeof(n));
    return n;
  }
  std::string String() {
    const uint32_t n = Count();
    if (!ok || n > in.size()) {
      ok = false;
      return {};
    }
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
  std::vector<PlanItem> Items() {
    const uint32_t n = Count();
    std::vector<PlanItem> out;
    for (uint32_t k = 0; ok && k < n; ++k) {
      PlanItem i;
      i.name = String();
      i.value = String();
      if (ok) out.push_back(std::move(i));
    }
    return out;
  }
};

}  // namespace

std::string_view PlanLimit(const RunPlan& plan, std::string_view name) {
  for (const PlanItem& i : plan.limits) {
    if (i.name == name) return i.value;
  }
  return "";
}

std::string ComparePlans(const std::vector<RunPlan>& plans) {
  for (size_t r = 1; r < plans.size(); ++r) {
    std::string d = Difference(plans[0], plans[r], static_cast<int>(r));
    if (!d.empty()) return d;
  }
  return "";
}

std::string EncodeRunPlan(const RunPlan& plan) {
  std::string out(kPlanMagic, sizeof(kPlanMagic));
  out.append(reinterpret_cast<const char*>(&kPlanVersion), sizeof(kPlanVersion));
  PutString(out, plan.test);
  PutString(out, plan.command);
  out.push_back(plan.mixed ? '\1' : '\0');
  PutItems(out, plan.limits);
  PutItems(out, plan.options);
  return out;
}

Result<RunPlan> DecodeRunPlan(std::string_view bytes) {
  PlanReader r{bytes};
  if (bytes.substr(0, sizeof(kPlanMagic)) != std::string_view(kPlanMagic, sizeof(kPlanMagic))) {
    return Status::InvalidArgument("a rank's run plan: not a plan");
  }
  r.in.remove_prefix(sizeof(kPlanMagic));
  if (r.Count() != kPlanVersion || !r.ok) {
    return Status::InvalidArgument("a rank's run plan: another format version");
  }
  RunPlan plan;
  plan.test = r.String();
  plan.command = r.String();
  if (r.in.empty()) r.ok = false;
  if (r.ok) {
    plan.mixed = r.in[0] != '\0';
    r.in.remove_prefix(1);
  }
  plan.limits = r.Items();
  plan.options = r.Items();
  if (!r.ok || !r.in.empty()) {
    return Status::InvalidArgument("a rank's run plan: truncated or with trailing bytes");
  }
  return plan;
}

}  // namespace loadcell
