#pragma once
// The DiskSpd command line's parser, shared by diskspd_switches.cpp (the
// switches, the rules between them) and diskspd_switch_values.cpp (the
// switches that take lists and flags: -rd, -S, -Z, -a). Internal to the
// diskspd module; diskspd_switches.h is its interface.

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "core/status.h"
#include "diskspd/diskspd_switches.h"

namespace loadcell::diskspd::switch_parser {

inline constexpr const char* kSizeWords = "bytes, or a number with K, M, G, T or b (blocks of -b)";

// One switch's text ("-b8K") and what follows its letter(s).
struct Arg {
  std::string text;  // as written
  std::string rest;  // after the switch's letter
};

Status Bad(const Arg& a, const std::string& why);
Status NotYet(const Arg& a, const std::string& what);
// A whole decimal number, nothing else; false past `max`.
bool ParseCount(const std::string& s, uint64_t max, uint64_t& out);
// Digits at the front of `s` from `at`; moves `at` past them.
bool TakeNumber(const std::string& s, size_t& at, uint64_t& out);
// The end of a size's text starting at `at` in `s`: digits and one unit.
size_t SizeEnd(const std::string& s, size_t at);

// The parse state: the switches so far and what DiskSpd tracks to find its
// conflicts.
class Parser {
 public:
  explicit Parser(DiskspdSwitches& sw) : sw_(sw) {}

  Status One(const Arg& a);
  Status Finish();

 private:
  Status Size(const Arg& a, const std::string& text, const std::string& what, uint64_t& out) {
    if (!ParseDiskspdSize(text, sw_.block_size, out)) {
      return Bad(a, fmt::format("{} must be {}", what, kSizeWords));
    }
    return Status::Ok();
  }
  Status Seconds(const Arg& a, const std::string& what, int& out) {
    uint64_t v = 0;
    if (!ParseCount(a.rest, 1'000'000'000, v)) {
      return Bad(a, fmt::format("the {} must be whole seconds, 0 or more", what));
    }
    out = static_cast<int>(v);
    return Status::Ok();
  }
  Status Positive(const Arg& a, const std::string& what, uint64_t max, uint64_t& out) {
    if (!ParseCount(a.rest, max, out) || out == 0) {
      return Bad(a, fmt::format("{} must be a whole number from 1 to {}", what, max));
    }
    return Status::Ok();
  }
  Status BaseOffset(const Arg& a);
  Status MaxOffset(const Arg& a);
  Status Random(const Arg& a);
  Status RandomRatio(const Arg& a);
  Status Distribution(const Arg& a);
  Status Sequential(const Arg& a);
  Status Cache(const Arg& a);
  Status Throughput(const Arg& a);
  Status Results(const Arg& a);
  Status WriteData(const Arg& a);
  Status Seed(const Arg& a);
  Status Affinity(const Arg& a);

  DiskspdSwitches& sw_;
  bool base_given_ = false;
  bool max_given_ = false;
  bool random_given_ = false;      // -r[align]
  bool sequential_given_ = false;  // -s
  bool results_given_ = false;
  bool write_through_given_ = false;
};

}  // namespace loadcell::diskspd::switch_parser
