// The DiskSpd switches that take lists and flags: -rd (distributions),
// -S (cache modes), -Z (write buffers), -a (affinity).

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "diskspd/diskspd_parser.h"

namespace loadcell::diskspd::switch_parser {

Status Parser::Distribution(const Arg& a) {
  std::string spec = a.rest.substr(1);
  if (spec.rfind("pct", 0) == 0) {
    sw_.distribution = DiskspdDistribution::kPercent;
  } else if (spec.rfind("abs", 0) == 0) {
    sw_.distribution = DiskspdDistribution::kAbsolute;
  } else {
    return Bad(a,
               "the random distribution is -rdpct<IO%>/<target%>[:...] or "
               "-rdabs<IO%>/<size>[:...]");
  }
  const bool pct = sw_.distribution == DiskspdDistribution::kPercent;
  sw_.ranges.clear();
  uint32_t io_total = 0;
  uint64_t target_total = 0;
  size_t at = 3;
  for (;;) {
    uint64_t io = 0;
    if (!TakeNumber(spec, at, io) || io > 100) {
      return Bad(a, fmt::format("each range's IO% must be from 0 to {}", 100 - io_total));
    }
    if (at >= spec.size() || spec[at] != '/') {
      return Bad(a, fmt::format("expected '/' after the IO% {}", io));
    }
    ++at;
    uint64_t span = 0;
    if (pct) {
      if (!TakeNumber(spec, at, span) || span == 0 || span > 100) {
        return Bad(a, fmt::format("each range's target% must be from 1 to {}", 100 - target_total));
      }
    } else {
      const size_t end = SizeEnd(spec, at);
      if (!ParseDiskspdSize(spec.substr(at, end - at), sw_.block_size, span)) {
        return Bad(a, fmt::format("each range's size must be {}", kSizeWords));
      }
      if (span == 0) return Bad(a, "a range of size 0");
      at = end;
    }
    if (io_total + io > 100) {
      return Bad(a, fmt::format("IO% {} is too much: at most {} is left (the total must be at "
                                "most 100%)",
                                io, 100 - io_total));
    }
    if (pct && target_total + span > 100) {
      return Bad(a, fmt::format("target% {} is too much: at most {} is left (the total must be "
                                "100%)",
                                span, 100 - target_total));
    }
    if (pct && target_total + span == 100 && io_total + io < 100) {
      return Bad(a, fmt::format("the target is covered with {}% of the IO left to place",
                                100 - io_total - io));
    }
    if (!pct && span < sw_.block_size) {
      // DiskSpd checks this against the block size in force at the end.
    }
    sw_.ranges.push_back({static_cast<uint32_t>(io), span});
    io_total += static_cast<uint32_t>(io);
    target_total += span;
    if (at == spec.size()) break;
    if (spec[at] != ':') {
      return Bad(a, fmt::format("unexpected '{}' in the distribution", spec.substr(at)));
    }
    ++at;
  }
  if (pct && target_total != 100) {
    return Bad(
        a, fmt::format("the target percentages add up to {}%; they must total 100%", target_total));
  }
  return Status::Ok();
}

Status Parser::Cache(const Arg& a) {
  if (a.rest.empty()) {
    if (sw_.cache_given) return Bad(a, "-S conflicts with an earlier cache mode");
    sw_.cache = DiskspdCache::kUnbuffered;
    sw_.cache_given = true;
    return Status::Ok();
  }
  for (char c : a.rest) {
    switch (c) {
      case 'b':
        if (sw_.cache_given) return Bad(a, "-Sb conflicts with an earlier cache mode");
        sw_.cache = DiskspdCache::kCached;
        sw_.cache_given = true;
        break;
      case 'u':
        if (sw_.cache_given) return Bad(a, "-Su conflicts with an earlier cache mode");
        sw_.cache = DiskspdCache::kUnbuffered;
        sw_.cache_given = true;
        break;
      case 'w':
        if (write_through_given_) return Bad(a, "-Sw conflicts with an earlier write-through");
        sw_.write_through = true;
        write_through_given_ = true;
        break;
      case 'h':
        if (sw_.cache_given || write_through_given_) {
          return Bad(a, "-Sh conflicts with an earlier cache mode or write-through");
        }
        sw_.cache = DiskspdCache::kUnbuffered;
        sw_.write_through = true;
        sw_.cache_given = write_through_given_ = true;
        break;
      case 'm':
        sw_.memory_mapped = true;
        break;
      case 'r':
        if (sw_.cache_given) return Bad(a, "-Sr conflicts with an earlier cache mode");
        sw_.remote_cache_only = true;
        sw_.cache_given = true;
        break;
      default:
        return Bad(a, fmt::format("'{}' is not a cache flag: -S takes b, h, m, r, u and w", c));
    }
  }
  return Status::Ok();
}

Status Parser::WriteData(const Arg& a) {
  if (a.rest.empty()) {
    sw_.write_data = DiskspdWriteData::kZero;
    return Status::Ok();
  }
  if (a.rest == "r") {
    sw_.write_data = DiskspdWriteData::kRandomPerIo;
    return Status::Ok();
  }
  const size_t comma = a.rest.find(',');
  uint64_t size = 0;
  if (!ParseDiskspdSize(a.rest.substr(0, comma), sw_.block_size, size) || size == 0) {
    return Bad(a, fmt::format("-Z<size>[,file] takes a size above 0: {}", kSizeWords));
  }
  if (comma != std::string::npos) {
    sw_.write_buffer_file = a.rest.substr(comma + 1);
    if (sw_.write_buffer_file.empty()) return Bad(a, "-Z<size>,<file> needs the file");
  }
  sw_.write_data = DiskspdWriteData::kRandomBuffer;
  sw_.write_buffer_size = size;
  return Status::Ok();
}

// -a, -ag (DiskSpd's default round robin), -a<cpu>[,<cpu>...],
// -ag<group>,<cpu>[,...][,g<group>,<cpu>...]: the CPUs in order, each in the
// group named last (0 when none is).
Status Parser::Affinity(const Arg& a) {
  sw_.affinity_given = true;
  std::string rest = a.rest;
  if (rest.empty() || rest == "g") return Status::Ok();
  const std::string valid =
      "affinity is -a, -ag, -a<cpu>[,<cpu>...] or -ag<group>,<cpu>[,...][,g<group>,<cpu>...]";
  uint32_t group = 0;
  size_t at = 0;
  bool any = false;
  while (at <= rest.size()) {
    const size_t comma = std::min(rest.find(',', at), rest.size());
    std::string item = rest.substr(at, comma - at);
    const bool is_group = item.starts_with("g");
    if (is_group) item = item.substr(1);
    uint64_t v = 0;
    if (!ParseCount(item, is_group ? 65535 : 255, v)) {
      return Bad(a, item.empty()
                        ? valid
                        : fmt::format("'{}' is not a {} number (0 to {}): {}", item,
                                      is_group ? "group" : "CPU", is_group ? 65535 : 255, valid));
    }
    if (is_group) {
      group = static_cast<uint32_t>(v);
      if (comma == rest.size()) return Bad(a, "a group needs its CPUs after it: " + valid);
    } else {
      sw_.affinity.push_back({group, static_cast<uint32_t>(v)});
      any = true;
    }
    at = comma + 1;
  }
  if (!any) return Bad(a, valid);
  return Status::Ok();
}

}  // namespace loadcell::diskspd::switch_parser

namespace loadcell::diskspd {

Result<std::string> DiskspdDriveTarget(const std::string& target) {
  if (target.size() == 2 && target[1] == ':' &&
      std::isalpha(static_cast<unsigned char>(target[0])) != 0) {
    return std::string("\\\\.\\") + target;
  }
  if (target.size() < 2 || target[0] != '#') return std::string();  // "#" alone: a file
  const std::string number = target.substr(1);
  const bool digits =
      number.size() <= 10 && number.find_first_not_of("0123456789") == std::string::npos;
  if (!digits || std::stoull(number) > 0xFFFFFFFFull) {
    return Status::InvalidArgument(fmt::format(
        "diskspd: target '{}': a physical drive is # and its number (#0, #1, ...)", target));
  }
  return fmt::format("\\\\.\\PhysicalDrive{}", std::stoull(number));
}

}  // namespace loadcell::diskspd
