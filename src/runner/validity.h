#pragma once
// The validity verdict of a result: what each check over the run's facts
// found (src/validity/ makes them; reporters print them; docs/validity.md
// lists every check). Plain data, carried in RunResult.

#include <string>
#include <vector>

namespace loadcell {

// --verdict: off (no check is made, nothing printed), on (the default),
// strict (as on, and an INVALID result exits 3).
enum class VerdictMode { kOff, kOn, kStrict };

enum class CheckLevel { kPass, kWarn, kInvalid, kNotChecked };

// "pass", "warn", "invalid", "not_checked" (the JSON words).
const char* CheckLevelName(CheckLevel level);
// "pass", "WARN", "INVALID", "not checked" (the words of the text and HTML).
const char* CheckLevelWord(CheckLevel level);

// One figure a check's finding rests on, e.g. {"file_set_bytes", 1048576}.
struct CheckFigure {
  std::string name;  // snake_case with its unit when it has one
  double value = 0;
};

struct CheckOutcome {
  std::string id;  // stable: "cache", "queue-depth", ...
  CheckLevel level = CheckLevel::kPass;
  // What was seen, with its numbers (for not_checked: why it could not be
  // made).
  std::string seen;
  // What to change, naming the option ("" when it passed).
  std::string advice;
  std::vector<CheckFigure> figures;
};

enum class Overall { kValid, kValidWithWarnings, kInvalid };

struct Validity {
  bool judged = false;  // false: --verdict=off, or no verdict step ran
  VerdictMode mode = VerdictMode::kOn;
  // Every check that concerns the run, in the order of validity/checks.cpp
  // (a check that does not concern the test, e.g. the queue depth of a cpu
  // run, is left out).
  std::vector<CheckOutcome> checks;
  double cost_ms = 0;  // the whole verdict step: facts at the end and checks

  int Count(CheckLevel level) const;
  Overall overall() const;
  // The checks that did not pass, gravest first (INVALID, WARN, not
  // checked), each level in the list's order.
  std::vector<const CheckOutcome*> NotPassed() const;
};

// "valid", "valid_with_warnings", "invalid" (the JSON and CSV words).
const char* OverallName(Overall o);
// "valid", "valid with warnings (2)", "INVALID (1)": the text's last line.
std::string VerdictLine(const Validity& v);

}  // namespace loadcell
