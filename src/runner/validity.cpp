#include "runner/validity.h"

#include <algorithm>
#include <utility>

namespace loadcell {
namespace {

// How grave a level is, for the merge: INVALID, WARN, not checked, pass.
int Gravity(CheckLevel level) {
  switch (level) {
    case CheckLevel::kInvalid:
      return 3;
    case CheckLevel::kWarn:
      return 2;
    case CheckLevel::kNotChecked:
      return 1;
    case CheckLevel::kPass:
      return 0;
  }
  return 0;
}

// Check `id` of every part that made it, with the part's name.
std::vector<std::pair<const std::string*, const CheckOutcome*>> ChecksNamed(
    const std::vector<NamedValidity>& parts, const std::string& id) {
  std::vector<std::pair<const std::string*, const CheckOutcome*>> out;
  for (const NamedValidity& p : parts) {
    for (const CheckOutcome& c : p.validity->checks) {
      if (c.id == id) out.emplace_back(&p.name, &c);
    }
  }
  return out;
}

// The merge of check `id` over the parts (MergeVerdicts).
CheckOutcome MergeCheck(const std::vector<NamedValidity>& parts, const std::string& id) {
  const auto made = ChecksNamed(parts, id);
  CheckLevel level = CheckLevel::kPass;
  for (const auto& [name, c] : made) {
    if (Gravity(c->level) > Gravity(level)) level = c->level;
  }
  // The findings at that level, each with the parts that made it.
  std::vector<std::pair<std::string, std::string>> findings;  // seen, names
  const CheckOutcome* first = nullptr;
  for (const auto& [name, c] : made) {
    if (c->level != level) continue;
    if (first == nullptr) first = c;
    const std::string& seen = c->seen;
    auto at = std::find_if(findings.begin(), findings.end(),
                           [&seen](const auto& f) { return f.first == seen; });
    if (at == findings.end()) {
      findings.emplace_back(c->seen, *name);
    } else {
      at->second.append("; ").append(*name);
    }
  }
  CheckOutcome out = *first;
  out.level = level;
  // Found alike by every part: the words alone.
  const bool alike =
      findings.size() == 1 && made.size() == parts.size() &&
      std::all_of(made.begin(), made.end(), [&](auto& m) { return m.second->level == level; });
  if (!alike) {
    out.seen.clear();
    for (const auto& [seen, names] : findings) {
      out.seen.append(out.seen.empty() ? "" : " | ").append(names).append(": ").append(seen);
    }
  }
  return out;
}

}  // namespace

std::optional<VerdictMode> VerdictModeNamed(std::string_view word) {
  if (word == "off") return VerdictMode::kOff;
  if (word == "on") return VerdictMode::kOn;
  if (word == "strict") return VerdictMode::kStrict;
  return std::nullopt;
}

const char* CheckLevelName(CheckLevel level) {
  switch (level) {
    case CheckLevel::kPass:
      return "pass";
    case CheckLevel::kWarn:
      return "warn";
    case CheckLevel::kInvalid:
      return "invalid";
    case CheckLevel::kNotChecked:
      return "not_checked";
  }
  return "pass";
}

const char* CheckLevelWord(CheckLevel level) {
  switch (level) {
    case CheckLevel::kPass:
      return "pass";
    case CheckLevel::kWarn:
      return "WARN";
    case CheckLevel::kInvalid:
      return "INVALID";
    case CheckLevel::kNotChecked:
      return "not checked";
  }
  return "pass";
}

int Validity::Count(CheckLevel level) const {
  int n = 0;
  for (const CheckOutcome& c : checks) n += c.level == level ? 1 : 0;
  return n;
}

std::vector<const CheckOutcome*> Validity::NotPassed() const {
  std::vector<const CheckOutcome*> out;
  for (CheckLevel level : {CheckLevel::kInvalid, CheckLevel::kWarn, CheckLevel::kNotChecked}) {
    for (const CheckOutcome& c : checks) {
      if (c.level == level) out.push_back(&c);
    }
  }
  return out;
}

Overall Validity::overall() const {
  if (Count(CheckLevel::kInvalid) > 0) return Overall::kInvalid;
  if (Count(CheckLevel::kWarn) > 0) return Overall::kValidWithWarnings;
  return Overall::kValid;
}

const char* OverallName(Overall o) {
  switch (o) {
    case Overall::kValid:
      return "valid";
    case Overall::kValidWithWarnings:
      return "valid_with_warnings";
    case Overall::kInvalid:
      return "invalid";
  }
  return "valid";
}

std::string VerdictLine(const Validity& v) {
  switch (v.overall()) {
    case Overall::kValid:
      return "valid";
    case Overall::kValidWithWarnings:
      return "valid with warnings (" + std::to_string(v.Count(CheckLevel::kWarn)) + ")";
    case Overall::kInvalid:
      return "INVALID (" + std::to_string(v.Count(CheckLevel::kInvalid)) + ")";
  }
  return "valid";
}

Validity MergeVerdicts(const std::vector<NamedValidity>& parts) {
  std::vector<NamedValidity> judged;
  for (const NamedValidity& p : parts) {
    if (p.validity != nullptr && p.validity->judged) judged.push_back(p);
  }
  Validity out;
  if (judged.empty()) return out;
  out.judged = true;
  out.mode = judged.front().validity->mode;
  std::vector<std::string> ids;
  for (const NamedValidity& p : judged) {
    out.cost_ms += p.validity->cost_ms;
    for (const CheckOutcome& c : p.validity->checks) {
      if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) ids.push_back(c.id);
    }
  }
  for (const std::string& id : ids) out.checks.push_back(MergeCheck(judged, id));
  return out;
}

}  // namespace loadcell
