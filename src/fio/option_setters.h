#pragma once
// The setters the option table (fio/fio_options.cpp) is built from: one per
// kind of value, each returning the Apply of a field of FioJobSpec. Used by
// fio_options.cpp only; the error messages leave out the origin and the
// option's name, which the caller puts before them.

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "fio/fio_options.h"
#include "fio/fio_values.h"

namespace loadcell::fio::setters {

using Apply = FioOptionInfo::Apply;
inline constexpr int64_t kIntMax = std::numeric_limits<int>::max();

// InvalidArgument with `message`.
Status Invalid(std::string message);

// The value of `option`, or the refusal of a bare one.
Result<std::string_view> ValueOf(const FioRawOption& option, std::string_view form);

// `value` when it is within [min, max], else the refusal naming the range.
Result<int64_t> InRange(uint64_t value, int64_t min, int64_t max);

// A flag: bare means 1; a value is fio's integer boolean.
Apply Flag(bool FioJobSpec::*field);

// A boolean that needs its value (fio: "Option direct requires an argument").
Apply Bool(bool FioJobSpec::*field);

// An int option (fio reads it with its size parser: 1k is 1024) in [min, max].
Apply Int(int FioJobSpec::*field, int64_t min, int64_t max);

// A 64-bit count, 0 or more.
Apply Count(uint64_t FioJobSpec::*field);

// A percentage 0 to 100 stored as a fraction.
Apply Percent(double FioJobSpec::*field);

// A size in bytes, at least `min`.
Apply Bytes(uint64_t FioJobSpec::*field, uint64_t min);

// A size or a percentage of the file; `given` (when not null) notes it was
// given; `positive`: 0 (and 0%) refused.
Apply SizeOrPercent(FioSize FioJobSpec::*field, bool FioJobSpec::*given, bool positive);

// A time in nanoseconds; `unit` is that of a bare number.
Apply Time(int64_t FioJobSpec::*field, FioTimeUnit unit);

// Any text, as given.
Apply Text(std::string FioJobSpec::*field);

// A byte pattern (fio/fio_values.h ParseFioPattern).
Apply Pattern(std::string FioJobSpec::*field);

// Sizes per direction (read,write,trim), each at least `min`.
Apply PerDirectionBytes(FioPerDirection<uint64_t> FioJobSpec::*field, uint64_t min);

// Counts per direction.
Apply PerDirectionCount(FioPerDirection<uint64_t> FioJobSpec::*field);

// A choice's names and values, in the order messages list them.
template <typename E>
using Choices = std::vector<std::pair<std::string_view, E>>;

template <typename E>
std::string ChoiceNames(const Choices<E>& choices) {
  std::string names;
  for (const auto& [name, value] : choices)
    names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

template <typename E>
Result<E> Choose(const FioRawOption& o, const Choices<E>& choices) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=" + ChoiceNames(choices)));
  for (const auto& [name, choice] : choices) {
    if (name == value) return choice;
  }
  return Invalid(QuoteFioText(value) + " is not one of " + ChoiceNames(choices));
}

template <typename E>
Apply Choice(E FioJobSpec::*field, Choices<E> choices) {
  return [field, choices = std::move(choices)](const FioRawOption& o, FioOptionContext&,
                                               FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(spec.*field, Choose(o, choices));
    return Status::Ok();
  };
}

// A per-direction value: each given field parsed by `parse`, the others
// left as they were.
template <typename T, typename Parse>
Status ApplyPerDirection(const FioRawOption& o, std::string_view form, FioPerDirection<T>& out,
                         Parse parse) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=" + std::string(form)));
  LC_ASSIGN_OR_RETURN(auto fields, SplitFioPerDirection(value));
  for (size_t d = 0; d < kFioDirections; ++d) {
    if (!fields[d].has_value()) continue;
    LC_ASSIGN_OR_RETURN(out[d], parse(*fields[d]));
  }
  return Status::Ok();
}

}  // namespace loadcell::fio::setters
