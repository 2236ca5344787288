#include "cli/commands/sweep_args.h"

#include "cli/command_line.h"
#include "core/option_values.h"

namespace loadcell {
namespace {

// "a,b,c" -> {"a", "b", "c"} (empty items kept, for the caller to refuse).
std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

Result<SweepArgs> ParseSweepArgs(const std::vector<std::string>& given) {
  SweepArgs s;
  // Sweep's own arguments get the main command line's dash repair (the
  // test's, after "--", get it from the test's own parse).
  std::vector<std::string> args = given;
  for (std::string& a : args) {
    if (auto repaired = RepairTypographicDashes(a)) {
      s.warnings.push_back(TypographicDashWarning(a, *repaired));
      a = *repaired;
    }
    if (a == "--") break;
  }
  size_t i = 0;
  RawOptions own;
  for (; i < args.size() && args[i] != "--"; ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0) {
      return Status::InvalidArgument(
          "sweep: unexpected '" + a +
          "' before '--'; usage: loadcell sweep --OPTION=V1,V2 ... -- TEST [options] run");
    }
    size_t eq = a.find('=');
    own.Add(a.substr(0, eq), eq == std::string::npos ? "" : a.substr(eq + 1),
            eq != std::string::npos, "sweep");
  }
  if (i == args.size()) {
    return Status::InvalidArgument(
        "sweep: no test given; usage: loadcell sweep --threads=1,2,4 -- TEST [options] run");
  }
  s.test_args.assign(args.begin() + static_cast<long>(i) + 1, args.end());
  LC_ASSIGN_OR_RETURN(s.extras, TakeRunExtras(own));
  for (RawOption& o : own.entries()) {
    if (o.consumed) continue;
    if (o.name == "repeat") {
      auto v = ParseInt(o.value);
      if (!v.ok() || *v < 1 || *v > 1000) {
        return Status::InvalidArgument(o.spelled + "=" + o.value +
                                       ": use a whole number from 1 to 1000");
      }
      s.repeat = static_cast<int>(*v);
    } else if (o.name == "output-dir") {
      if (o.value.empty())
        return Status::InvalidArgument("--output-dir: needs a directory (--output-dir=DIR)");
      s.output_dir = o.value;
    } else if (o.name == "format") {
      if (o.value != "text" && o.value != "csv") {
        return Status::InvalidArgument(o.spelled + "=" + o.value +
                                       ": use --format=text or --format=csv");
      }
      s.format = o.value;
    } else {
      if (!o.has_value || o.value.empty()) {
        return Status::InvalidArgument("sweep: " + o.spelled + " needs values to sweep (" +
                                       o.spelled + "=V1,V2,...)");
      }
      std::vector<std::string> values = SplitList(o.value);
      for (const std::string& v : values) {
        if (v.empty()) {
          return Status::InvalidArgument("sweep: " + o.spelled + "=" + o.value +
                                         ": an empty value in the list");
        }
      }
      s.options.push_back(o.name);
      s.lists.push_back(std::move(values));
    }
  }
  if (s.options.empty()) {
    return Status::InvalidArgument(
        "sweep: nothing to sweep; give lists before '--', e.g. --threads=1,2,4,8");
  }
  return s;
}

}  // namespace loadcell
