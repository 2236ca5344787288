#include "dbsim/dbsim_config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

namespace loadcell {

namespace {

constexpr int64_t kAnyValue = std::numeric_limits<int64_t>::min();
constexpr int kMaxFiles = 64;

template <typename Config>
using ConfigField =
    std::variant<int64_t Config::*, uint64_t Config::*, bool Config::*, std::string Config::*>;

// One key of a section: SQLIOSim's range, and what loadcell runs of it.
template <typename Config>
struct ConfigKeySpec {
  std::string_view key;
  ConfigField<Config> field;
  int64_t min = 0;
  int64_t max = 0;
  int64_t only = kAnyValue;  // loadcell runs this value alone (kAnyValue: any)
  std::string_view why_only = {};
  bool simulated = true;  // false: accepted, named in not_simulated
};

using Key = ConfigKeySpec<DbsimConfig>;
using FileKey = ConfigKeySpec<DbsimFileConfig>;
using C = DbsimConfig;
using F = DbsimFileConfig;
constexpr int64_t kBool = 1;
constexpr int64_t kMaxInt = std::numeric_limits<int32_t>::max();

const std::vector<Key> kConfigKeys = {
    {"ErrorFile", &C::error_file},
    {"CPUCount", &C::cpu_count, 1, 1024},
    {"Affinity", &C::affinity, 0, kMaxInt},
    {"IOAffinity", &C::io_affinity, 0, kMaxInt},
    {"MaxMemoryMB", &C::max_memory_mb, 1, 16777216},
    {"StopOnError", &C::stop_on_error, 0, kBool},
    {"TestCycles", &C::test_cycles, 1, 1000000},
    {"TestCycleDuration", &C::test_cycle_duration_s, 1, 86400},
    {"CacheHitRatio", &C::cache_hit_ratio, 0, 10000},
    {"NoBuffering", &C::no_buffering, 0, kBool},
    {"WriteThrough", &C::write_through, 0, kBool},
    {"MaxOutstandingIO", &C::max_outstanding_io, 0, 140000},
    {"TargetIODuration", &C::target_io_duration_ms, 1, 100000000},
    {"AllowIOBursts", &C::allow_io_bursts, 0, kBool},
    {"UseScatterGather", &C::use_scatter_gather, 0, kBool},
    {"ForceReadAhead", &C::force_read_ahead, 0, kBool},
    {"DeleteFilesAtStartup", &C::delete_files_at_startup, 0, kBool},
    {"DeleteFilesAtShutdown", &C::delete_files_at_shutdown, 0, kBool},
    {"StampFiles", &C::stamp_files, 0, kBool},
};

const std::vector<Key> kRandomUserKeys = {
    {"UserCount", &C::random_users, -1, 1024},
    {"JumpToNewRegionPercentage", &C::jump_to_new_region, 0, 10000},
    {"MinIOChainLength", &C::min_io_chain, 1, 100000},
    {"MaxIOChainLength", &C::max_io_chain, 1, 100000},
    {"RandomUserReadWriteRatio", &C::read_write_ratio, 0, 10000},
    {"MinLogPerBuffer", &C::min_log_per_buffer, 64, 65536},
    {"MaxLogPerBuffer", &C::max_log_per_buffer, 64, 65536},
    {"RollbackChance", &C::rollback_chance, 0, 10000},
    {"SleepAfter", &C::sleep_after_ms, 0, 60000},
    {"YieldPercentage", &C::yield_percentage, 0, 10000},
    {"CPUSimulation", &C::cpu_simulation, 0, kBool},
    {"CPUCyclesMin", &C::cpu_cycles_min, 0, kMaxInt},
    {"CPUCyclesMax", &C::cpu_cycles_max, 0, kMaxInt},
};

const std::vector<Key> kAuditUserKeys = {
    {"UserCount", &C::audit_users, 0, 1024},
    {"BuffersValidated", &C::buffers_validated, 1, 10000},
    {"DelayAfterCycles", &C::audit_delay_after_cycles, 0, 1000000},
    {"AuditDelay", &C::audit_delay_ms, 0, 60000},
};

const std::vector<Key> kReadAheadUserKeys = {
    {"UserCount", &C::read_ahead_users, 0, 1024},
    // One scatter read: at most loadcell's longest run (DbPageFile::kMaxRun).
    {"BuffersRAMin", &C::buffers_ra_min, 1, 64},
    {"BuffersRAMax", &C::buffers_ra_max, 1, 64},
    {"DelayAfterCycles", &C::ra_delay_after_cycles, 0, 1000000},
    {"RADelay", &C::ra_delay_ms, 0, 60000},
};

const std::vector<Key> kBulkUpdateUserKeys = {
    {"UserCount", &C::bulk_update_users, -1, 1024},
    {"BuffersBUMin", &C::buffers_bu_min, 1, 10000},
    {"BuffersBUMax", &C::buffers_bu_max, 1, 10000},
    {"DelayAfterCycles", &C::bu_delay_after_cycles, 0, 1000000},
    {"BUDelay", &C::bu_delay_ms, 0, 60000},
};

const std::vector<Key> kShrinkUserKeys = {
    {"MinShrinkInterval", &C::min_shrink_interval_s, 0, 86400},
    {"MaxShrinkInterval", &C::max_shrink_interval_s, 0, 86400},
    {"MinExtends", &C::min_extends, 0, 1000},
    {"MaxExtends", &C::max_extends, 0, 1000},
};

const std::vector<FileKey> kFileKeys = {
    {"FileName", &F::name},
    {"InitialSize", &F::initial_mb, 1, 1048576},
    {"MaxSize", &F::max_mb, 1, 1048576},
    {"Increment", &F::increment_mb, 0, 1048576},
    {"Shrinkable", &F::shrinkable, 0, kBool},
    {"LogFile", &F::log_file, 0, kBool},
    {"Sparse", &F::sparse, 0, kBool},
};

struct SectionSpec {
  std::string_view name;
  const std::vector<Key>* keys;
};

const std::vector<SectionSpec> kSections = {
    {"CONFIG", &kConfigKeys},
    {"RandomUser", &kRandomUserKeys},
    {"AuditUser", &kAuditUserKeys},
    {"ReadAheadUser", &kReadAheadUserKeys},
    {"BulkUpdateUser", &kBulkUpdateUserKeys},
    {"ShrinkUser", &kShrinkUserKeys},
};

bool SameWord(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

std::string_view Trim(std::string_view s) {
  const auto not_space = s.find_first_not_of(" \t\r");
  if (not_space == std::string_view::npos) return {};
  return s.substr(not_space, s.find_last_not_of(" \t\r") - not_space + 1);
}

template <typename Config>
std::string KeyList(const std::vector<ConfigKeySpec<Config>>& keys) {
  std::string list;
  for (const auto& k : keys) list += (list.empty() ? "" : ", ") + std::string(k.key);
  return list;
}

std::optional<int64_t> ParseWhole(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<int64_t> ParseBool(std::string_view text) {
  if (SameWord(text, "TRUE")) return 1;
  if (SameWord(text, "FALSE")) return 0;
  return std::nullopt;
}

// Reads the file line by line into the config.
class ConfigReader {
 public:
  ConfigReader(const std::string& path, DbsimConfig& config) : path_(path), config_(config) {}

  Status Line(int number, std::string_view line);
  Status Finish();

 private:
  Status Section(std::string_view name);
  Status Assign(std::string_view key, std::string_view value);
  template <typename Config>
  Status Apply(const ConfigKeySpec<Config>& spec, std::string_view value, Config& into);
  Status Error(int line, const std::string& what) const {
    // Bytes of the file are quoted in the message: no control byte passes.
    return Status::InvalidArgument(EscapeControlBytes(fmt::format("{}:{}: {}", path_, line, what)));
  }
  Status Error(const std::string& what) const { return Error(line_, what); }
  Status CheckOrder(std::string_view section, std::string_view low_key, int64_t low,
                    std::string_view high_key, int64_t high) const;
  Status CheckFiles() const;
  Status CheckFile(const DbsimFileConfig& file) const;
  Status CheckStreamName(const std::string& section, const std::string& name) const;
  int LineOf(std::string_view section, std::string_view key) const;

  const std::string& path_;
  DbsimConfig& config_;
  int line_ = 0;
  std::string section_;  // as spelled in kSections, or "FileN"
  const std::vector<Key>* keys_ = nullptr;
  DbsimFileConfig* file_ = nullptr;
  std::map<std::string, int> section_lines_;
  std::map<std::string, int> key_lines_;  // "Section.Key" -> line
};

int ConfigReader::LineOf(std::string_view section, std::string_view key) const {
  auto it = key_lines_.find(std::string(section) + "." + std::string(key));
  return it == key_lines_.end() ? 0 : it->second;
}

Status ConfigReader::Line(int number, std::string_view raw) {
  line_ = number;
  const std::string_view line = Trim(raw);
  if (line.empty() || line.front() == ';' || line.front() == '#') return Status::Ok();
  if (line.front() == '[') {
    if (line.back() != ']') return Error("a section line must end with ']'");
    return Section(Trim(line.substr(1, line.size() - 2)));
  }
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) {
    return Error(fmt::format("'{}' is neither a [section] nor a Key=Value line", line));
  }
  return Assign(Trim(line.substr(0, eq)), Trim(line.substr(eq + 1)));
}

Status ConfigReader::Section(std::string_view name) {
  keys_ = nullptr;
  file_ = nullptr;
  for (const auto& s : kSections) {
    if (SameWord(s.name, name)) {
      section_ = s.name;
      keys_ = s.keys;
    }
  }
  if (keys_ == nullptr) {
    const auto number = name.size() > 4 && SameWord(name.substr(0, 4), "File")
                            ? ParseWhole(name.substr(4))
                            : std::nullopt;
    if (!number || *number < 1 || *number > kMaxFiles || name[4] == '0' || name[4] == '+') {
      return Error("unknown section [" + std::string(name) +
                   "]: the sections are CONFIG, RandomUser, AuditUser, ReadAheadUser, "
                   "BulkUpdateUser, ShrinkUser and File1 to File64");
    }
    section_ = "File" + std::to_string(*number);
    DbsimFileConfig file;
    file.number = static_cast<int>(*number);
    config_.files.push_back(file);
  }
  auto [it, fresh] = section_lines_.emplace(section_, line_);
  if (!fresh) {
    return Error(
        fmt::format("section [{}] is given twice (first on line {})", section_, it->second));
  }
  if (keys_ == nullptr) file_ = &config_.files.back();
  return Status::Ok();
}

template <typename Config>
const ConfigKeySpec<Config>* FindKey(const std::vector<ConfigKeySpec<Config>>& keys,
                                     std::string_view key) {
  for (const auto& k : keys) {
    if (SameWord(k.key, key)) return &k;
  }
  return nullptr;
}

Status ConfigReader::Assign(std::string_view key, std::string_view value) {
  if (section_.empty()) return Error("key '" + std::string(key) + "' comes before any [section]");
  const Key* spec = keys_ != nullptr ? FindKey(*keys_, key) : nullptr;
  const FileKey* file_spec = file_ != nullptr ? FindKey(kFileKeys, key) : nullptr;
  if (spec == nullptr && file_spec == nullptr) {
    return Error(fmt::format("unknown key '{}' in [{}]: its keys are {}", key, section_,
                             keys_ != nullptr ? KeyList(*keys_) : KeyList(kFileKeys)));
  }
  const std::string_view name = spec != nullptr ? spec->key : file_spec->key;
  auto [it, fresh] = key_lines_.emplace(section_ + "." + std::string(name), line_);
  if (!fresh) {
    return Error(fmt::format("key {} in [{}] is given twice (first on line {})", name, section_,
                             it->second));
  }
  return spec != nullptr ? Apply(*spec, value, config_) : Apply(*file_spec, value, *file_);
}

template <typename Config>
Status ConfigReader::Apply(const ConfigKeySpec<Config>& spec, std::string_view value,
                           Config& into) {
  const std::string where = fmt::format("[{}] {}={}", section_, spec.key, value);
  if (const auto* text = std::get_if<std::string Config::*>(&spec.field)) {
    if (value.empty()) return Error(where + ": the value is empty");
    into.*(*text) = std::string(value);
  } else {
    const bool is_bool = std::holds_alternative<bool Config::*>(spec.field);
    const auto number = is_bool ? ParseBool(value) : ParseWhole(value);
    if (!number) return Error(where + (is_bool ? ": not TRUE or FALSE" : ": not a whole number"));
    if (!is_bool && (*number < spec.min || *number > spec.max)) {
      return Error(fmt::format("{}: out of range, {} to {}", where, spec.min, spec.max));
    }
    if (spec.only != kAnyValue && *number != spec.only) {
      return Error(fmt::format(
          "{}: loadcell dbsim runs only {}={} ({}; docs/dbsim.md)", where, spec.key,
          is_bool ? (spec.only ? "TRUE" : "FALSE") : std::to_string(spec.only), spec.why_only));
    }
    std::visit(
        [&](auto field) {
          using T = std::remove_reference_t<decltype(into.*field)>;
          if constexpr (!std::is_same_v<T, std::string>) into.*field = static_cast<T>(*number);
        },
        spec.field);
  }
  if (!spec.simulated) {
    config_.not_simulated.push_back(fmt::format("{} (line {})", spec.key, line_));
  }
  return Status::Ok();
}

Status ConfigReader::CheckOrder(std::string_view section, std::string_view low_key, int64_t low,
                                std::string_view high_key, int64_t high) const {
  if (low <= high) return Status::Ok();
  const int line = std::max(LineOf(section, low_key), LineOf(section, high_key));
  return Error(line,
               fmt::format("[{}] {}={} is above {}={}", section, low_key, low, high_key, high));
}

// SQLIOSim names a second stream of a data file as FILE:STREAM (its sparse
// sample: sqliosim.mdx:replica). The name is kept as given: on NTFS it is
// the file's named stream, elsewhere (POSIX, Wine) a file of that name
// beside it. One colon between two non-empty parts; a one-letter first part
// would be a Windows drive, a second colon a stream type.
Status ConfigReader::CheckStreamName(const std::string& section, const std::string& name) const {
  const size_t colon = name.find(':');
  if (colon == std::string::npos) return Status::Ok();
  const std::string_view file = std::string_view(name).substr(0, colon);
  const std::string_view stream = std::string_view(name).substr(colon + 1);
  if (file.size() < 2 || stream.empty() || stream.find(':') != std::string_view::npos) {
    return Error(LineOf(section, "FileName"),
                 "[" + section + "] FileName=" + name +
                     ": a name, or FILE:STREAM for a second stream of a file (one colon, both "
                     "parts named; the files go in the folder given by -dir)");
  }
  return Status::Ok();
}

Status ConfigReader::CheckFile(const DbsimFileConfig& file) const {
  const std::string section = "File" + std::to_string(file.number);
  const int at = section_lines_.at(section);
  if (file.name.empty()) return Error(at, "[" + section + "] has no FileName");
  if (file.name.find_first_of("/\\") != std::string::npos) {
    return Error(LineOf(section, "FileName"),
                 "[" + section + "] FileName=" + file.name +
                     ": a name without a folder (the files go in the folder given by -dir)");
  }
  LC_RETURN_IF_ERROR(CheckStreamName(section, file.name));
  if (file.initial_mb == 0) return Error(at, "[" + section + "] has no InitialSize");
  const uint64_t max_mb = file.max_mb == 0 ? file.initial_mb : file.max_mb;
  if (max_mb < file.initial_mb) {
    return Error(LineOf(section, "MaxSize"), fmt::format("[{}] MaxSize={} is below InitialSize={}",
                                                         section, max_mb, file.initial_mb));
  }
  if (const std::string small = DbsimFileTooSmall(config_, file); !small.empty()) {
    return Error(LineOf(section, "InitialSize"), small);
  }
  if (file.shrinkable && file.increment_mb == 0) {
    return Error(LineOf(section, "Shrinkable"),
                 fmt::format("[{}] Shrinkable=TRUE with Increment=0: a file with no increment "
                             "cannot shrink or grow (give Increment above 0 or Shrinkable=FALSE)",
                             section));
  }
  if (file.log_file && (file.shrinkable || file.sparse)) {
    return Error(LineOf(section, file.shrinkable ? "Shrinkable" : "Sparse"),
                 fmt::format("[{}] LogFile=TRUE with {}=TRUE: loadcell dbsim shrinks and makes "
                             "sparse only data files (give {}=FALSE)",
                             section, file.shrinkable ? "Shrinkable" : "Sparse",
                             file.shrinkable ? "Shrinkable" : "Sparse"));
  }
  return Status::Ok();
}

Status ConfigReader::CheckFiles() const {
  int logs = 0;
  for (size_t i = 0; i < config_.files.size(); ++i) {
    const auto& file = config_.files[i];
    LC_RETURN_IF_ERROR(CheckFile(file));
    logs += file.log_file ? 1 : 0;
    for (size_t j = 0; j < i; ++j) {
      if (config_.files[j].name == file.name) {
        return Error(LineOf("File" + std::to_string(file.number), "FileName"),
                     fmt::format("[File{}] FileName={} is also [File{}]'s", file.number, file.name,
                                 config_.files[j].number));
      }
    }
  }
  if (!config_.files.empty() && (logs != 1 || logs == static_cast<int>(config_.files.size()))) {
    return Error(line_, fmt::format("the [FileN] sections need exactly one LogFile=TRUE and at "
                                    "least one data file ({} log files of {})",
                                    logs, config_.files.size()));
  }
  return Status::Ok();
}

Status ConfigReader::Finish() {
  if (LineOf("CONFIG", "ErrorFile") > 0) config_.error_file_given = true;
  const DbsimConfig& c = config_;
  LC_RETURN_IF_ERROR(CheckOrder("RandomUser", "MinIOChainLength", c.min_io_chain,
                                "MaxIOChainLength", c.max_io_chain));
  LC_RETURN_IF_ERROR(CheckOrder("RandomUser", "MinLogPerBuffer", c.min_log_per_buffer,
                                "MaxLogPerBuffer", c.max_log_per_buffer));
  LC_RETURN_IF_ERROR(
      CheckOrder("RandomUser", "CPUCyclesMin", c.cpu_cycles_min, "CPUCyclesMax", c.cpu_cycles_max));
  LC_RETURN_IF_ERROR(CheckOrder("ReadAheadUser", "BuffersRAMin", c.buffers_ra_min, "BuffersRAMax",
                                c.buffers_ra_max));
  LC_RETURN_IF_ERROR(CheckOrder("BulkUpdateUser", "BuffersBUMin", c.buffers_bu_min, "BuffersBUMax",
                                c.buffers_bu_max));
  LC_RETURN_IF_ERROR(CheckOrder("ShrinkUser", "MinShrinkInterval", c.min_shrink_interval_s,
                                "MaxShrinkInterval", c.max_shrink_interval_s));
  LC_RETURN_IF_ERROR(
      CheckOrder("ShrinkUser", "MinExtends", c.min_extends, "MaxExtends", c.max_extends));
  return CheckFiles();
}

// The entries of `keys` in `from`, under `section`; a number out of its
// key's range (not set) left out.
template <typename Config>
void AddEntries(const std::string& section, const std::vector<ConfigKeySpec<Config>>& keys,
                const Config& from, std::vector<DbsimConfigEntry>& out) {
  for (const auto& spec : keys) {
    std::string value;
    bool set = true;
    std::visit(
        [&](auto field) {
          const auto& v = from.*field;
          using T = std::remove_cv_t<std::remove_reference_t<decltype(v)>>;
          if constexpr (std::is_same_v<T, std::string>) {
            value = v;
            set = !v.empty();
          } else if constexpr (std::is_same_v<T, bool>) {
            value = v ? "TRUE" : "FALSE";
          } else {
            const auto n = static_cast<int64_t>(v);
            value = std::to_string(n);
            set = n >= spec.min && n <= spec.max;
          }
        },
        spec.field);
    if (set) out.push_back({section, std::string(spec.key), std::move(value)});
  }
}

}  // namespace

DbsimFileMinimum DbsimFileMinimumMb(const DbsimConfig& config, const DbsimFileConfig& file) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  constexpr int64_t kExtentPages = 8;
  constexpr uint64_t kSector = 512;
  DbsimFileMinimum least;
  uint64_t bytes = 0;
  if (file.log_file) {
    // UserCount=-1 is min(CPUCount * 2, 8): 8 at most.
    const int64_t users = config.random_users < 0 ? 8 : config.random_users;
    const uint64_t block = std::max<uint64_t>(kSector, config.log_block_bytes);
    const uint64_t record =
        (static_cast<uint64_t>(config.max_log_per_buffer) + block - 1) / block * block;
    bytes = static_cast<uint64_t>(users) * record;
    least.why = fmt::format(
        "a group commit of RandomUser UserCount={} records of MaxLogPerBuffer={} "
        "bytes ({} padded)",
        users, config.max_log_per_buffer, record);
  } else {
    int64_t pages = kExtentPages;
    least.why = fmt::format("one extent, {} pages", kExtentPages);
    // BuffersRAMax is at most 64 (one scatter read).
    if (config.read_ahead_users != 0 && config.buffers_ra_max > pages) {
      pages = config.buffers_ra_max;
      least.why = fmt::format("ReadAheadUser BuffersRAMax={} pages", config.buffers_ra_max);
    }
    if (config.bulk_update_users != 0 && config.buffers_bu_max > pages) {
      pages = config.buffers_bu_max;
      least.why = fmt::format("BulkUpdateUser BuffersBUMax={} pages", config.buffers_bu_max);
    }
    bytes = static_cast<uint64_t>(pages) * config.page_size;
    least.why += fmt::format(" of {} bytes", config.page_size);
  }
  least.mb = std::max<uint64_t>(1, (bytes + kMiB - 1) / kMiB);
  return least;
}

std::string DbsimFileTooSmall(const DbsimConfig& config, const DbsimFileConfig& file) {
  const DbsimFileMinimum least = DbsimFileMinimumMb(config, file);
  if (file.doublewrite_area || file.initial_mb >= least.mb) return "";
  return fmt::format("[File{}] InitialSize={} is too small: {} need {} MB; give at least {}",
                     file.number, file.initial_mb, least.why, least.mb, least.mb);
}

std::vector<DbsimConfigEntry> DbsimConfigEntries(const DbsimConfig& config) {
  std::vector<DbsimConfigEntry> out;
  for (const auto& section : kSections) {
    AddEntries(std::string(section.name), *section.keys, config, out);
  }
  for (const auto& file : config.files) {
    if (file.doublewrite_area) continue;
    AddEntries("File" + std::to_string(file.number), kFileKeys, file, out);
  }
  return out;
}

std::string FormatDbsimConfig(const DbsimConfig& config, const std::vector<std::string>& comments) {
  std::string text;
  for (const auto& line : comments) text += "; " + line + "\n";
  std::string section;
  for (const auto& e : DbsimConfigEntries(config)) {
    if (e.section != section) {
      text += (section.empty() ? "[" : "\n[") + e.section + "]\n";
      section = e.section;
    }
    text += e.key + "=" + e.value + "\n";
  }
  return text;
}

Result<DbsimConfig> ParseDbsimConfig(std::string_view text, const std::string& path,
                                     DbsimConfig base) {
  DbsimConfig config = std::move(base);
  ConfigReader reader(path, config);
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    LC_RETURN_IF_ERROR(reader.Line(++number, text.substr(start, end - start)));
    start = end + 1;
  }
  LC_RETURN_IF_ERROR(reader.Finish());
  std::sort(config.files.begin(), config.files.end(),
            [](const auto& a, const auto& b) { return a.number < b.number; });
  return config;
}

}  // namespace loadcell
