#include "diskspd/diskspd_switches.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "diskspd/diskspd_parser.h"

namespace loadcell::diskspd {
namespace switch_parser {

Status Bad(const Arg& a, const std::string& why) {
  return Status::InvalidArgument(fmt::format("diskspd switch '{}': {}", a.text, why));
}

Status NotYet(const Arg& a, const std::string& what) {
  return Status::InvalidArgument(fmt::format(
      "diskspd switch '{}' ({}) is not supported by loadcell yet (docs/diskspd.md)", a.text, what));
}

bool ParseCount(const std::string& s, uint64_t max, uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (std::numeric_limits<uint64_t>::max() - digit) / 10) return false;
    v = v * 10 + digit;
  }
  if (v > max) return false;
  out = v;
  return true;
}

bool TakeNumber(const std::string& s, size_t& at, uint64_t& out) {
  const size_t start = at;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])) != 0) ++at;
  return at > start &&
         ParseCount(s.substr(start, at - start), std::numeric_limits<uint64_t>::max(), out);
}

size_t SizeEnd(const std::string& s, size_t at) {
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])) != 0) ++at;
  if (at < s.size() && std::string("KkMmGgTtBb").find(s[at]) != std::string::npos) ++at;
  return at;
}

Status Parser::BaseOffset(const Arg& a) {
  if (base_given_) return Bad(a, "the base offset (-B<base>[:length]) may be given once");
  if (a.rest.empty()) return Bad(a, fmt::format("give -B<base>[:length], each {}", kSizeWords));
  const size_t colon = a.rest.find(':');
  LC_RETURN_IF_ERROR(Size(a, a.rest.substr(0, colon), "the base offset", sw_.base_offset));
  base_given_ = true;
  if (colon == std::string::npos) return Status::Ok();
  if (colon + 1 == a.rest.size()) return Bad(a, "-B<base>:<length> needs the length");
  if (max_given_)
    return Bad(a, "the largest offset (-B<base>:<length> or -f<size>) may be given once");
  uint64_t length = 0;
  LC_RETURN_IF_ERROR(Size(a, a.rest.substr(colon + 1), "the length", length));
  if (sw_.base_offset + length < sw_.base_offset) return Bad(a, "base + length overflows");
  sw_.max_offset = sw_.base_offset + length;
  max_given_ = true;
  return Status::Ok();
}

Status Parser::MaxOffset(const Arg& a) {
  if (a.rest.empty()) return Bad(a, "give -f<size> (the largest offset) or -f<rst> (hints)");
  if (std::isdigit(static_cast<unsigned char>(a.rest[0])) == 0) {
    for (char c : a.rest) {
      if (c != 'r' && c != 's' && c != 't') return Bad(a, "the hints of -f are r, s and t");
    }
    sw_.hint_temporary = sw_.hint_temporary || a.rest.find('t') != std::string::npos;
    sw_.hint_random = sw_.hint_random || a.rest.find('r') != std::string::npos;
    sw_.hint_sequential = sw_.hint_sequential || a.rest.find('s') != std::string::npos;
    if (sw_.hint_random && sw_.hint_sequential) {
      return Bad(a, "give one access hint, -fr or -fs: posix_fadvise takes one of them");
    }
    return Status::Ok();
  }
  if (max_given_)
    return Bad(a, "the largest offset (-B<base>:<length> or -f<size>) may be given once");
  LC_RETURN_IF_ERROR(Size(a, a.rest, "the largest offset", sw_.max_offset));
  max_given_ = true;
  return Status::Ok();
}

Status Parser::RandomRatio(const Arg& a) {
  const std::string pct = a.rest.substr(1);
  uint64_t v = 0;
  if (pct.empty()) return Bad(a, "-rs needs the random percentage, 1 to 100");
  if (!ParseCount(pct, 100, v) || v == 0) {
    return Bad(a, "the random percentage of -rs must be from 1 to 100");
  }
  if (sw_.random_ratio == 0 && sequential_given_) {
    return Bad(a, "use -r to give the alignment with -rs, not -s");
  }
  if (sw_.random_ratio != 0 && sw_.random_ratio != 100) {
    return Bad(a, "mixed random/sequential I/O (-rs) may be given once");
  }
  sw_.random_ratio = static_cast<uint32_t>(v);
  return Status::Ok();
}

Status Parser::Random(const Arg& a) {
  if (a.rest.starts_with("s")) return RandomRatio(a);
  if (a.rest.starts_with("d")) return Distribution(a);
  uint64_t align = 0;
  if (!a.rest.empty()) {
    if (!ParseDiskspdSize(a.rest, sw_.block_size, align) || align == 0) {
      return Bad(a, fmt::format("the alignment of -r must be above 0: {}", kSizeWords));
    }
  }
  if (random_given_) return Bad(a, "random I/O (-r) may be given once");
  if (sequential_given_) return Bad(a, "sequential I/O (-s) conflicts with random I/O (-r/-rs)");
  random_given_ = true;
  if (sw_.random_ratio == 0) sw_.random_ratio = 100;
  sw_.alignment = align;
  return Status::Ok();
}

Status Parser::Sequential(const Arg& a) {
  std::string rest = a.rest;
  if (rest.starts_with("i")) {
    sw_.interlocked = true;
    rest = rest.substr(1);
  }
  if (sw_.random_ratio == 100) {
    return Bad(a, "sequential I/O (-s) conflicts with random I/O (-r/-rs)");
  }
  if (sw_.random_ratio != 0) return Bad(a, "use -r to give the alignment with -rs, not -s");
  if (sequential_given_) return Bad(a, "sequential I/O (-s) may be given once");
  sequential_given_ = true;
  if (!rest.empty()) {
    uint64_t stride = 0;
    if (!ParseDiskspdSize(rest, sw_.block_size, stride)) {
      return Bad(a, fmt::format("the stride of -s must be {}", kSizeWords));
    }
    sw_.alignment = stride;
  }
  return Status::Ok();
}

Status Parser::Throughput(const Arg& a) {
  std::string v = a.rest;
  const bool iops = !v.empty() && v.back() == 'i';
  if (iops) v.pop_back();
  uint64_t n = 0;
  if (!ParseCount(v, std::numeric_limits<uint32_t>::max(), n) || n == 0) {
    return Bad(a, "-g takes bytes per millisecond (-g<n>) or I/Os per second (-g<n>i), above 0");
  }
  sw_.throughput_bytes_per_ms = iops ? 0 : n;
  sw_.throughput_iops = iops ? n : 0;
  return Status::Ok();
}

Status Parser::Results(const Arg& a) {
  std::string v = a.rest;
  if (v.starts_with("p")) {
    sw_.profile_only = true;
    v = v.substr(1);
    if (v.empty()) return Status::Ok();  // -Rp: the profile as XML
    if (v != "text" && v != "xml") return Bad(a, "-Rp takes text or xml (-Rp, -Rptext, -Rpxml)");
  }
  sw_.format_given = true;
  if (v == "text") {
    results_given_ = true;
    return Status::Ok();
  }
  if (v == "xml") {
    sw_.xml = true;
    results_given_ = true;
    return Status::Ok();
  }
  if (v.starts_with("xml:") && v.size() > 4) {
    sw_.xml_file = v.substr(4);
    results_given_ = true;
    return Status::Ok();
  }
  if (v.empty()) return Bad(a, "give the format: -Rtext, -Rxml or -Rxml:FILE");
  return Bad(a,
             "the report format is text, xml or xml:FILE (loadcell's: text on stdout and "
             "XML to FILE)");
}

Status Parser::Seed(const Arg& a) {
  sw_.seed_given = true;
  if (a.rest.empty()) {
    sw_.seed_from_clock = true;
    return Status::Ok();
  }
  uint64_t v = 0;
  if (!ParseCount(a.rest, std::numeric_limits<uint32_t>::max(), v)) {
    return Bad(a, "the random seed must be a whole number from 0 to 4294967295");
  }
  sw_.seed = static_cast<uint32_t>(v);
  sw_.seed_from_clock = false;
  return Status::Ok();
}

Status Parser::One(const Arg& a) {
  const char letter = a.text.size() > 1 ? a.text[1] : '\0';
  uint64_t v = 0;
  switch (letter) {
    case '?':
      sw_.help = true;
      return Status::Ok();
    case 'a':
      return Affinity(a);
    case 'b':
      return Status::Ok();  // the first pass took it
    case 'B':
      return BaseOffset(a);
    case 'c':
      if (a.rest.empty()) return Bad(a, fmt::format("-c needs the size: {}", kSizeWords));
      LC_RETURN_IF_ERROR(Size(a, a.rest, "the size of -c", sw_.create_size));
      if (sw_.create_size == 0) return Bad(a, "the size of -c must be above 0");
      sw_.create = true;
      return Status::Ok();
    case 'C':
      sw_.cooldown_given = true;
      return Seconds(a, "cool-down (-C)", sw_.cooldown_s);
    case 'd':
      sw_.duration_given = true;
      LC_RETURN_IF_ERROR(Seconds(a, "duration (-d)", sw_.duration_s));
      if (sw_.duration_s == 0) return Bad(a, "the duration (-d) must be at least 1 second");
      return Status::Ok();
    case 'W':
      sw_.warmup_given = true;
      return Seconds(a, "warm-up (-W)", sw_.warmup_s);
    case 'D':
      sw_.iops_stddev = true;
      if (!a.rest.empty()) {
        LC_RETURN_IF_ERROR(Positive(a, "the interval of -D (milliseconds)", 3'600'000, v));
        sw_.bucket_ms = static_cast<uint32_t>(v);
      }
      return Status::Ok();
    case 'e':
      return NotYet(a, "ETW tracing, a Windows facility");
    case 'f':
      return MaxOffset(a);
    case 'F':
      LC_RETURN_IF_ERROR(Positive(a, "the thread count of -F", 4096, v));
      sw_.total_threads = static_cast<int>(v);
      return Status::Ok();
    case 'g':
      return Throughput(a);
    case 'h':
      if (!a.rest.empty()) break;
      if (sw_.cache_given || write_through_given_) {
        return Bad(a, "-h conflicts with an earlier cache mode or write-through");
      }
      sw_.cache = DiskspdCache::kUnbuffered;
      sw_.write_through = true;
      sw_.cache_given = write_through_given_ = true;
      return Status::Ok();
    case 'i':
      LC_RETURN_IF_ERROR(Positive(a, "the burst size of -i (I/Os)", 1'000'000'000, v));
      sw_.burst = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'j':
      LC_RETURN_IF_ERROR(Positive(a, "the time between bursts of -j (milliseconds)", 3'600'000, v));
      sw_.think_ms = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'I':
      if (!ParseCount(a.rest, 3, v) || v == 0) return Bad(a, "the I/O priority is 1, 2 or 3");
      sw_.io_priority = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'l':
      if (!a.rest.empty()) break;
      sw_.large_pages = true;
      return Status::Ok();
    case 'L':
      if (!a.rest.empty()) break;
      sw_.latency = true;
      return Status::Ok();
    case 'n':
      if (!a.rest.empty()) break;
      sw_.disable_affinity = true;
      return Status::Ok();
    case 'N':
      if (a.rest != "v" && a.rest != "n" && a.rest != "i") {
        return Bad(a, "the flush mode of memory-mapped I/O is -Nv, -Nn or -Ni");
      }
      sw_.mapped_flush = a.rest[0];
      return Status::Ok();
    case 'o':
      LC_RETURN_IF_ERROR(Positive(a, "the outstanding I/Os of -o", 65536, v));
      sw_.requests = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'O':
      LC_RETURN_IF_ERROR(Positive(a, "the outstanding I/Os per thread of -O", 65536, v));
      sw_.requests_per_thread = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'p':
      if (!a.rest.empty()) break;
      sw_.parallel_async = true;
      return Status::Ok();
    case 'P':
      sw_.progress_every = 65536;  // DiskSpd's default
      if (!a.rest.empty()) {
        LC_RETURN_IF_ERROR(Positive(a, "the I/Os per progress dot of -P", 1'000'000'000, v));
        sw_.progress_every = v;
      }
      return Status::Ok();
    case 'r':
      return Random(a);
    case 'R':
      return Results(a);
    case 's':
      return Sequential(a);
    case 'S':
      return Cache(a);
    case 't':
      LC_RETURN_IF_ERROR(Positive(a, "the threads per target of -t", 4096, v));
      sw_.threads_per_target = static_cast<int>(v);
      sw_.threads_per_target_given = true;
      return Status::Ok();
    case 'T':
      LC_RETURN_IF_ERROR(Size(a, a.rest, "the thread stride of -T", sw_.thread_stride));
      if (sw_.thread_stride == 0) return Bad(a, "the thread stride of -T must be above 0");
      return Status::Ok();
    case 'v':
      if (a.rest.empty()) {
        sw_.verbose = true;
        return Status::Ok();
      }
      if (a.rest == "s") {
        sw_.verbose_stats = true;
        return Status::Ok();
      }
      return Bad(a, "verbose mode is -v or -vs");
    case 'w':
      if (a.rest.empty()) return Bad(a, "-w needs the write percentage, 0 to 100");
      if (!ParseCount(a.rest, 100, v)) return Bad(a, "the write percentage of -w must be 0 to 100");
      sw_.write_ratio = static_cast<uint32_t>(v);
      return Status::Ok();
    case 'x':
      if (!a.rest.empty()) break;
      sw_.completion_routines = true;
      return Status::Ok();
    case 'X':
      if (a.rest.empty()) return Bad(a, "-X needs the profile's file: -X<file.xml>");
      if (!sw_.profile_path.empty()) return Bad(a, "one XML profile (-X) may be given");
      sw_.profile_path = a.rest;
      return Status::Ok();
    case 'y':
      return NotYet(a, "Windows named events");
    case 'z':
      return Seed(a);
    case 'Z':
      return WriteData(a);
    case ':':
      return NotYet(a, "experiment flags");
    default:
      break;
  }
  return Status::InvalidArgument(fmt::format(
      "diskspd: unknown switch '{}' (DiskSpd 2.2's switches: docs/diskspd.md)", a.text));
}

// DiskSpd's checks of the whole profile (Profile::Validate), in its order.
Status Parser::Finish() {
  auto bad = [](const std::string& what) { return Status::InvalidArgument("diskspd: " + what); };
  if (!sw_.profile_path.empty()) {
    // Only the timespans' times, the seed and the output compose with -X.
    for (const std::string& g : sw_.given) {
      if (std::string("dWCRvzX").find(g[1]) == std::string::npos) {
        return Status::InvalidArgument(fmt::format(
            "diskspd switch '{}' cannot be used with -X (the profile gives it; only -d -W -C -z "
            "-R and -v compose with a profile)",
            g));
      }
    }
    return Status::Ok();
  }
  LC_RETURN_IF_ERROR(CheckDiskspdRules(sw_));
  if (sw_.disable_affinity && sw_.affinity_given) {
    return bad("-n (no affinity) conflicts with -a (affinity)");
  }
  if (sw_.mapped_flush == 'n' || sw_.mapped_flush == 'i') {
    return Status::InvalidArgument(fmt::format(
        "diskspd switch '-N{}' (RtlFlushNonVolatileMemory, Windows' flush of persistent memory) "
        "is not supported by loadcell; -Nv flushes the mapping",
        sw_.mapped_flush));
  }
  if (sw_.completion_routines && sw_.memory_mapped) {
    return bad("completion routines (-x) can't be used with memory mapped IO (-Sm)");
  }
  if (sw_.targets.empty() && !sw_.help) {
    return bad("give at least one target (a file, or a block device) after the switches");
  }
  return Status::Ok();
}

}  // namespace switch_parser

bool ParseDiskspdSize(const std::string& text, uint64_t block, uint64_t& out) {
  size_t at = 0;
  uint64_t v = 0;
  if (!switch_parser::TakeNumber(text, at, v)) return false;
  uint64_t mult = 1;
  if (at < text.size()) {
    switch (std::toupper(static_cast<unsigned char>(text[at]))) {
      case 'K':
        mult = uint64_t{1} << 10;
        break;
      case 'M':
        mult = uint64_t{1} << 20;
        break;
      case 'G':
        mult = uint64_t{1} << 30;
        break;
      case 'T':
        mult = uint64_t{1} << 40;
        break;
      case 'B':
        mult = block;
        break;
      default:
        return false;
    }
    ++at;
  }
  if (at != text.size()) return false;
  if (mult != 0 && v > std::numeric_limits<uint64_t>::max() / mult) return false;
  out = v * mult;
  return true;
}

Result<DiskspdSwitches> ParseDiskspdCommandLine(const std::vector<std::string>& args,
                                                const std::string& program) {
  DiskspdSwitches sw;
  sw.command_line = program;
  for (const std::string& a : args) sw.command_line += " " + a;
  // Targets follow the switches.
  size_t first_target = args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const bool is_switch = args[i].size() > 1 && args[i][0] == '-';
    if (!is_switch && first_target == args.size()) first_target = i;
    if (is_switch && first_target < i) {
      return Status::InvalidArgument(fmt::format(
          "diskspd switch '{}' comes after a target ({}): give every switch before the targets",
          args[i], args[first_target]));
    }
  }
  for (size_t i = first_target; i < args.size(); ++i) sw.targets.push_back(args[i]);
  // -b first: it is the unit `b` of every other size, wherever it stands.
  for (size_t i = 0; i < first_target; ++i) {
    const std::string& s = args[i];
    if (s.size() < 2 || s[1] != 'b') continue;
    uint64_t bs = 0;
    if (!ParseDiskspdSize(s.substr(2), 1, bs) || s.size() == 2 || bs == 0 ||
        bs >= std::numeric_limits<uint32_t>::max() ||
        std::toupper(static_cast<unsigned char>(s.back())) == 'B') {
      return switch_parser::Bad(
          switch_parser::Arg{s, s.substr(2)},
          "the block size must be above 0 and below 4 GiB: bytes, or a number with K, M, "
          "G or T");
    }
    sw.block_size = bs;
  }
  switch_parser::Parser parser(sw);
  for (size_t i = 0; i < first_target; ++i) {
    switch_parser::Arg a{args[i], args[i].substr(2)};
    if (args[i] == "-") {
      return Status::InvalidArgument("diskspd: a lone '-' is not a switch or a target");
    }
    LC_RETURN_IF_ERROR(parser.One(a));
    sw.given.push_back(args[i]);
  }
  LC_RETURN_IF_ERROR(parser.Finish());
  return sw;
}

}  // namespace loadcell::diskspd
