#include "runner/validity.h"

namespace loadcell {

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

}  // namespace loadcell
