#pragma once
// fio's value syntax (fio 3.33's HOWTO, "Parameter types", and its parser's
// behaviour where the HOWTO is silent), parsed into fio/fio_job_spec.h's
// units: bytes, nanoseconds, fractions. Each parser returns InvalidArgument
// with a message that says what is valid, without the option's name or
// origin (fio/fio_options.cpp puts "FILE:LINE: fio option 'NAME': " before
// it).
//
// Where fio reads a value silently as something else, these refuse it:
// "1.5g" (fio: 1 byte), "10x" (fio: 10), "10sec" (fio: 10 microseconds;
// accepted here as 10 seconds, as the HOWTO says). docs/fio.md lists them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "fio/fio_job_spec.h"

namespace loadcell::fio {

// 'TEXT' for a message, its control bytes escaped.
std::string QuoteFioText(std::string_view text);

// kb_base=: 1024 (fio's default: k, m, g... are powers of 1024 and the
// IEC ki, mi, gi... powers of 1000, fio's "opposite" compatibility rule) or
// 1000 (the standard meanings).
enum class FioKbBase { k1024, k1000 };

// ---- Numbers

// An integer as fio's int options take it: decimal, 0x hexadecimal, or an
// integer expression in parentheses ("(4*1024)"); a size suffix multiplies
// (fio reads int options with its size parser: iodepth=1k is 1024).
// Negative values are refused.
Result<uint64_t> ParseFioInt(std::string_view text, FioKbBase kb_base);
// A boolean: 0 or 1 (fio's rule: "true", "on" and 2 are not booleans to
// fio).
Result<bool> ParseFioBool(std::string_view text);
// The value of a flag (an option that may also be given bare: time_based):
// an integer, 0 false and any other true, as fio reads it.
Result<bool> ParseFioFlag(std::string_view text);
// A real number ("1.2"), as fio's float options.
Result<double> ParseFioDouble(std::string_view text);

// ---- Sizes

// Bytes: a number (decimal, 0x, or "(...)") with an optional suffix: b, k,
// m, g, t, p with an optional b (kb, KB...), or ki, mi, gi, ti, pi with an
// optional b (KiB...), case-insensitive, its meaning per kb_base.
Result<uint64_t> ParseFioBytes(std::string_view text, FioKbBase kb_base);
// The same with a sign: rw=read:-8k.
Result<int64_t> ParseFioSignedBytes(std::string_view text, FioKbBase kb_base);
// Bytes, or "N%" (0 to 100, a real number) as a fraction of the file or
// device, resolved later.
Result<FioSize> ParseFioSizeOrPercent(std::string_view text, FioKbBase kb_base);
// "LOW-HIGH" or "LOW:HIGH" (one value is LOW=HIGH); fio swaps a reversed
// pair.
Result<FioByteRange> ParseFioByteRange(std::string_view text, FioKbBase kb_base);

// ---- Times

// The unit of a number without one: runtime, ramp_time and startdelay are
// seconds, thinktime microseconds, log_avg_msec milliseconds.
enum class FioTimeUnit { kMicroseconds, kMilliseconds, kSeconds };
// Nanoseconds: a whole number (or "(...)") with an optional unit: us/usec,
// ms/msec, s/sec, m, h, d (case-insensitive).
Result<int64_t> ParseFioTime(std::string_view text, FioTimeUnit default_unit);
// "LOW-HIGH" or "LOW:HIGH" times (startdelay=1-5), or one time.
Result<FioTimeRange> ParseFioTimeRange(std::string_view text, FioTimeUnit default_unit);

// ---- Per-direction lists

// fio's per-direction value (bs=, rate=, bsrange=, bssplit=): up to three
// comma-separated fields for read, write and trim; a list of fewer fields
// gives its last field to the directions after it ("8k,32k": trim 32k);
// an empty field (",8k", "8k,32k,") leaves that direction at its default
// (nullopt here). More than three fields are refused.
Result<FioPerDirection<std::optional<std::string>>> SplitFioPerDirection(std::string_view text);

// bssplit=: per direction (as above), "BS/PERCENT:BS/PERCENT:..." entries.
// An entry without a percentage (or with 0, fio's rule) shares, with the
// others without one, equally what the given percentages leave of 100; the
// given ones may not add up to more than 100, and without such entries they
// must add up to exactly 100 (fio accepts other sums; docs/fio.md).
Result<FioPerDirection<std::vector<FioBlockSplit>>> ParseFioBlockSplit(std::string_view text,
                                                                       FioKbBase kb_base);

// ---- Modes and distributions

// rw=MODE[:N]: the mode and, for a sequential one, the signed byte step N
// (rw=read:-8k), for a random one the count N of I/Os in a row
// (rw=randread:8).
struct FioRw {
  FioRwMode mode = FioRwMode::kRead;
  int64_t sequential_skip = 0;
  uint32_t random_sequence = 1;
};
Result<FioRw> ParseFioRw(std::string_view text, FioKbBase kb_base);
bool IsRandomRwMode(FioRwMode mode);
// Whether the mode reads, writes or trims (rw reads and writes).
bool RwModeReads(FioRwMode mode);
bool RwModeWrites(FioRwMode mode);
bool RwModeTrims(FioRwMode mode);

// random_distribution=: random, zipf[:THETA[:CENTER]] (theta 1.1 by
// default, never 1), pareto[:H[:CENTER]] (0 < h < 1, 0.2 by default),
// normal[:DEV[:CENTER]] (0 <= dev < 100 percent), zoned:ACCESS/SIZE:...
// (percentages, per direction with commas; the accesses must add up to 100
// and the sizes to at most 100; an entry without SIZE shares the rest) and
// zoned_abs:ACCESS/BYTES:...; centers are 0 to 1.
Result<FioRandomDistribution> ParseFioDistribution(std::string_view text, FioKbBase kb_base);

// ---- Lists

// filename= and directory=: ':'-separated names, "\:" a colon inside a name
// (so "C\:\data\f" is C:\data\f on Windows); empty names are skipped, as
// fio skips them.
std::vector<std::string> SplitFioNames(std::string_view text);
// Names of filename= or directory= (`directories`) that are Windows device
// paths (\\.\NAME, or //./NAME): a disk is \\.\PhysicalDriveN and a volume
// \\.\X: (its colon written "\:" in a job file, as any colon in a name).
// Refuses a volume whose colon was read as a separator (\\.\E), a
// PhysicalDrive without its number, and a device as a folder; any other
// name passes.
Status CheckFioDevicePaths(const std::vector<std::string>& names, bool directories);
// cpus_allowed=: "0-3,8,10-11" -> the CPU numbers, ascending, each once
// (0 to kMaxFioCpu).
inline constexpr int kMaxFioCpu = 4095;
Result<std::vector<int>> ParseFioCpuList(std::string_view text);
// percentile_list=: "99:99.9:99.99" -> fractions, at most 20 of them
// (fio's limit), each in (0, 100] percent.
Result<std::vector<double>> ParseFioPercentileList(std::string_view text);
// buffer_pattern= / verify_pattern=: 0x hexadecimal bytes and "text" in
// double quotes, one straight after the other ("abc"0x0a) -> the bytes, as
// fio reads them; fio's decimal numbers and %o are refused.

Result<std::string> ParseFioPattern(std::string_view text);

}  // namespace loadcell::fio
