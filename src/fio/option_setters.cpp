#include "fio/option_setters.h"

namespace loadcell::fio::setters {

Status Invalid(std::string message) { return Status::InvalidArgument(std::move(message)); }

// The value of `option`, or the refusal of a bare one.
Result<std::string_view> ValueOf(const FioRawOption& option, std::string_view form) {
  if (!option.has_value) return Invalid("needs a value: " + std::string(form));
  return std::string_view(option.value);
}

Result<int64_t> InRange(uint64_t value, int64_t min, int64_t max) {
  if (value > static_cast<uint64_t>(max) || static_cast<int64_t>(value) < min) {
    return Invalid(std::to_string(value) + " is outside " + std::to_string(min) + " to " +
                   std::to_string(max));
  }
  return static_cast<int64_t>(value);
}

// ---- Setters of one field, by kind

// A flag: bare means 1; a value is fio's integer boolean.
Apply Flag(bool FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
    if (!o.has_value) {
      spec.*field = true;
      return Status::Ok();
    }
    LC_ASSIGN_OR_RETURN(spec.*field, ParseFioFlag(o.value));
    return Status::Ok();
  };
}

// A boolean that needs its value (fio: "Option direct requires an argument").
Apply Bool(bool FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=0|1"));
    LC_ASSIGN_OR_RETURN(spec.*field, ParseFioBool(value));
    return Status::Ok();
  };
}

Apply Int(int FioJobSpec::*field, int64_t min, int64_t max) {
  return [field, min, max](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=N"));
    LC_ASSIGN_OR_RETURN(uint64_t n, ParseFioInt(value, c.kb_base));
    LC_ASSIGN_OR_RETURN(int64_t checked, InRange(n, min, max));
    spec.*field = static_cast<int>(checked);
    return Status::Ok();
  };
}

Apply Count(uint64_t FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=N"));
    LC_ASSIGN_OR_RETURN(spec.*field, ParseFioInt(value, c.kb_base));
    return Status::Ok();
  };
}

// A percentage 0 to 100 stored as a fraction.
Apply Percent(double FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=PERCENT"));
    LC_ASSIGN_OR_RETURN(uint64_t n, ParseFioInt(value, c.kb_base));
    LC_ASSIGN_OR_RETURN(int64_t checked, InRange(n, 0, 100));
    spec.*field = static_cast<double>(checked) / 100.0;
    return Status::Ok();
  };
}

Apply Bytes(uint64_t FioJobSpec::*field, uint64_t min) {
  return [field, min](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=SIZE"));
    LC_ASSIGN_OR_RETURN(uint64_t bytes, ParseFioBytes(value, c.kb_base));
    if (bytes < min) return Invalid("must be at least " + std::to_string(min));
    spec.*field = bytes;
    return Status::Ok();
  };
}

// A size or a percentage of the file; `given` (when not null) notes it was
// given; `positive`: 0 (and 0%) refused.
Apply SizeOrPercent(FioSize FioJobSpec::*field, bool FioJobSpec::*given, bool positive) {
  return [=](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=SIZE or PERCENT%"));
    LC_ASSIGN_OR_RETURN(FioSize size, ParseFioSizeOrPercent(value, c.kb_base));
    if (positive && size.bytes == 0 && size.fraction == 0) return Invalid("must be above 0");
    spec.*field = size;
    if (given != nullptr) spec.*given = true;
    return Status::Ok();
  };
}

Apply Time(int64_t FioJobSpec::*field, FioTimeUnit unit) {
  return [field, unit](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=TIME"));
    LC_ASSIGN_OR_RETURN(spec.*field, ParseFioTime(value, unit));
    return Status::Ok();
  };
}

Apply Text(std::string FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=TEXT"));
    spec.*field = std::string(value);
    return Status::Ok();
  };
}

Apply Pattern(std::string FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=0xHEX or 'text'"));
    LC_ASSIGN_OR_RETURN(spec.*field, ParseFioPattern(value));
    return Status::Ok();
  };
}

Apply PerDirectionBytes(FioPerDirection<uint64_t> FioJobSpec::*field, uint64_t min) {
  return [field, min](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    return ApplyPerDirection(o, "SIZE[,SIZE][,SIZE]", spec.*field,
                             [&](std::string_view v) -> Result<uint64_t> {
                               LC_ASSIGN_OR_RETURN(uint64_t bytes, ParseFioBytes(v, c.kb_base));
                               if (bytes < min)
                                 return Invalid("must be at least " + std::to_string(min));
                               return bytes;
                             });
  };
}

Apply PerDirectionCount(FioPerDirection<uint64_t> FioJobSpec::*field) {
  return [field](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    return ApplyPerDirection(o, "N[,N][,N]", spec.*field,
                             [&](std::string_view v) { return ParseFioInt(v, c.kb_base); });
  };
}

}  // namespace loadcell::fio::setters
