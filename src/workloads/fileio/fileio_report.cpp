// fileio: what the report says: the manifest's description of what was
// done, the figures, and sysbench 1.0's fileio report and interval shapes.

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "core/pages.h"
#include "io/io_engine.h"
#include "os/system_info.h"
#include "stats/summary.h"
#include "workloads/fileio/fileio.h"
#include "workloads/fileio/fileio_existing.h"
#include "workloads/fileio/fileio_worker.h"

namespace loadcell {
namespace {

constexpr double kBytesPerMiB = 1024.0 * 1024.0;
constexpr size_t kValueColumn = 34;  // sysbench: "    reads/s:" padded to 34

std::string Line(const std::string& label, double value) {
  std::string out = "    " + label;
  if (out.size() < kValueColumn) out.append(kValueColumn - out.size(), ' ');
  return out + fmt::format("{:4.2f}\n", value);
}

uint64_t CounterAt(const std::vector<uint64_t>& c, int i) {
  return static_cast<size_t>(i) < c.size() ? c[static_cast<size_t>(i)] : 0;
}

double PerSecond(uint64_t n, double secs) { return Rate(static_cast<double>(n), secs); }

const char* IoModeWords(const std::string& engine) {
  if (engine == "sync") return "Using synchronous I/O mode";
  if (engine == "mmap") return "Using fast mmaped I/O mode";
  if (engine == "null") return "Using null I/O mode (engine=null: no file is read or written)";
  return "Using asynchronous I/O mode";
}

// Requests in flight, averaged over time.
double AchievedDepth(const std::vector<uint64_t>& c) {
  const uint64_t t = CounterAt(c, kCounterQdTime);
  return t == 0 ? 0.0 : static_cast<double>(CounterAt(c, kCounterQdNanos)) / static_cast<double>(t);
}

// The fsync policy in words: the call used, how often it is made, whether
// after each write, and at the end.
std::string FsyncPolicy(const FileIoSettings& s) {
  const std::string call = s.fdatasync ? "fdatasync()" : "fsync()";
  if (s.mode_given && !ModeWrites(s.mode)) {
    return fmt::format("none: {} does not write, so no {} calls are made", FileTestModeName(s.mode),
                       call);
  }
  if (s.fsync_freq == 0 && !s.fsync_all && !s.fsync_end) {
    return fmt::format("none: no periodic {}, none after each write, none at the end", call);
  }
  std::string out = "uses " + call + ": ";
  out += s.fsync_freq > 0 ? fmt::format(
                                "on every file after every {} requests (counted over all threads, "
                                "skipped when nothing was written; each call is an event)",
                                s.fsync_freq)
                          : "never periodically";
  out += s.fsync_all ? ", after every write (timed as part of that write's event)"
                     : ", not after each write";
  out += s.fsync_end ? ", and on every file by every thread at its end (counted, not timed)"
                     : ", and not at the end";
  return out;
}

using Description = std::vector<std::pair<std::string, std::string>>;

// sysbench 1.0's header lines, in its words. `event_limit`: --events.
void AddSysbenchLines(const FileIoSettings& s, int64_t event_limit, Description& d) {
  d.emplace_back("Extra file open flags", s.ExtraFlagsText());
  d.emplace_back(fmt::format("{} files, {} each", s.num_files, HumanBytes(s.file_size)), "");
  d.emplace_back(fmt::format("{} total file size", HumanBytes(s.file_size * s.num_files)), "");
  d.emplace_back(fmt::format("Block size {}", HumanBytes(s.block_size)), "");
  if (s.merged_requests > 0) {
    d.emplace_back(
        fmt::format("Merging requests up to {} for sequential IO.", HumanBytes(s.request_size)),
        "");
  }
  if (s.mode_given && !IsSequential(s.mode)) {
    d.emplace_back("Number of IO requests", fmt::format("{}", event_limit));
    d.emplace_back("Read/Write ratio for combined random IO test",
                   fmt::format("{:.2f}", s.rw_ratio));
  }
  if (s.fsync_freq > 0) {
    d.emplace_back(
        fmt::format("Periodic FSYNC enabled, calling fsync() each {} requests.", s.fsync_freq), "");
  }
  if (s.fsync_end) d.emplace_back("Calling fsync() at the end of test, Enabled.", "");
  if (s.fsync_all) d.emplace_back("Calling fsync() after each write operation.", "");
  d.emplace_back(IoModeWords(s.engine), "");
  if (s.validate) d.emplace_back("Using checksums validation.", "");
  if (s.mode_given)
    d.emplace_back(fmt::format("Doing {} test", FileTestModeDescription(s.mode)), "");
}

// How the test files came to be, from the folder's manifest.
std::string FilesCreated(FileSystem& fs, const FileIoSettings& s) {
  if (s.null_engine()) return "none needed: engine=null opens, reads and writes no file";
  if (s.mode_given && s.mode == FileTestMode::kSeqWrite) {
    return "re-created empty by this run, then written in sequence (seqwr is the creation test)";
  }
  Result<std::optional<FileManifest>> m = ReadManifest(fs, s.dir);
  const FileManifest* found = m.ok() && m->has_value() ? &**m : nullptr;
  const uint64_t foreign =
      s.use_existing != UseExisting::kOff ? CountForeignFiles(fs, s, found) : 0;
  if (foreign > 0) {
    return fmt::format(
        "not by loadcell: {} of {} were in the folder already (--file-use-existing={}), used "
        "as they are{}; cleanup leaves them",
        foreign, s.num_files, s.use_existing == UseExisting::kWrite ? "write" : "on",
        s.use_existing == UseExisting::kWrite && s.mode_given && ModeWrites(s.mode)
            ? " (this run writes their blocks)"
            : "");
  }
  if (found != nullptr) {
    const FileManifest& fm = *found;
    return fmt::format("by loadcell prepare: every block written, then fsynced; data {}{}",
                       fm.pattern, fm.stamped ? ", every block stamped" : "");
  }
  return "not prepared yet";
}

// Whether the page cache is in play, and how the files compare with memory.
std::string PageCache(const FileIoSettings& s) {
  if (s.null_engine()) return "not involved (engine=null)";
  if (s.direct) return "bypassed (O_DIRECT)";
  const uint64_t ram = ReadSystemInfo().memory_bytes;
  const uint64_t total = s.file_size * s.num_files;
  return fmt::format("in play ({}; files {}, memory {}{})",
                     s.engine == "mmap" ? "mapped files" : "buffered I/O", HumanBytes(total),
                     HumanBytes(ram), total < ram ? ": reads may be served from memory" : "");
}

// A thread's I/O buffers: how many, how large and in which pages. A large
// direct request from a buffer in ordinary pages can be split at the
// device's segment limit, so the pages matter when figures are reconciled
// (docs/benchmarking.md).
std::string IoBuffersText(const FileIoSettings& s) {
  const uint64_t slot = s.slot_buffer_bytes();
  const uint64_t total = slot * s.queue_depth;
  const std::string out =
      fmt::format("{} x {} per thread ({})", s.queue_depth, HumanBytes(slot), HumanBytes(total));
  if (!IoBufferInHugePages(total)) return out + ", in ordinary pages";
  const std::string thp = TransparentHugePages();
  if (thp.empty()) return out + ", 2 MiB-aligned, in ordinary pages (no transparent huge pages)";
  if (thp == "never") {
    return out + ", 2 MiB-aligned, in ordinary pages (transparent huge pages are off: never)";
  }
  return out + fmt::format(
                   ", 2 MiB-aligned, advised for transparent huge pages (the system's setting: "
                   "{}), in huge pages where one is free",
                   thp);
}

// The engine, as asked and as used, with its queue depth and batching.
std::string EngineText(const FileIoSettings& s) {
  std::string engine = s.engine;
  if (s.engine_asked != s.engine && s.engine_note.empty()) {
    engine += fmt::format(" (--file-io-mode={})", s.engine_asked);
  }
  if (s.asynchronous()) {
    // A batch above the depth never fills: at most the depth is free at once.
    const uint64_t batch = std::min<uint64_t>(s.submit_batch, s.queue_depth);
    engine += fmt::format(
        ", queue depth {} per thread (achieved depth: see the report), {} per submission call",
        s.queue_depth,
        batch == 1 ? std::string("each request") : fmt::format("up to {} requests", batch));
  } else {
    engine += ", one request at a time per thread";
  }
  if (!s.engine_note.empty()) engine += "; " + s.engine_note;
  return engine;
}

std::string AccessText(const FileIoSettings& s) {
  if (s.mode_given && IsSequential(s.mode)) {
    return "sequential: one position shared by all threads, file after file, back to the "
           "first file after the last (as sysbench)";
  }
  return fmt::format(
      "{} over the {} blocks of all files; each thread seeded from the run "
      "seed",
      s.rand_type, s.total_blocks);
}

// --mpi-files=shared: who made the files and where each rank's requests go.
std::string SharedLayoutText(const FileIoSettings& s) {
  std::string out = fmt::format(
      "one set shared by {} ranks (--mpi-files=shared), prepared and cleaned up by rank 0",
      s.share_ranks);
  if (!s.mode_given) return out;
  if (!IsSequential(s.mode)) return out + "; every rank draws its requests over the whole set";
  const uint64_t n = s.seq_requests_per_file * s.num_files;
  const SeqRange mine = SeqSegment(n, s.share_rank, s.share_ranks);
  return out + fmt::format(
                   "; sequential, one contiguous segment per rank, file after file: rank r of n "
                   "runs requests [r x {} / n, (r + 1) x {} / n) of the set's {} (rank {}: [{}, "
                   "{}))",
                   n, n, n, s.share_rank, mine.first, mine.end);
}

std::string WriteDataText(const FileIoSettings& s) {
  std::string data = WritePatternName(s.pattern);
  if (s.pattern == WritePattern::kRandom) data += " bytes, drawn once per buffer";
  if (s.validate) {
    data += "; every block stamped (offset, sequence, checksum) and checked on read";
  } else if (s.stamp_writes && s.mode_given && ModeWrites(s.mode)) {
    data +=
        "; every block given a light stamp (offset, write number, a checksum of its header "
        "and sector words), so that a later --validate run can check it";
  }
  return data;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> FileIoWorkload::Describe() const {
  const FileIoSettings& s = settings();
  Description d;
  AddSysbenchLines(s, event_limit_, d);
  // What exactly was done, for reconciling with other tools.
  d.emplace_back(
      "files", fmt::format("{} x {} ({}..{}) in {} ({}){}", s.num_files, HumanBytes(s.file_size),
                           s.FileName(0), s.FileName(s.num_files - 1), s.dir, fs_.FsType(s.dir),
                           s.null_engine() ? ", planned over but never opened (engine=null)" : ""));
  if (s.share_ranks > 1) d.emplace_back("MPI files", SharedLayoutText(s));
  d.emplace_back("files created", FilesCreated(fs_, s));
  d.emplace_back("open flags", s.OpenFlagsText());
  d.emplace_back("page cache", PageCache(s));
  d.emplace_back("fsync policy", FsyncPolicy(s));
  d.emplace_back("I/O engine", EngineText(s));
  d.emplace_back("request size", s.mode_given && IsSequential(s.mode) && s.merged_requests > 0
                                     ? fmt::format("{} ({} blocks merged)",
                                                   HumanBytes(s.request_size), s.merged_requests)
                                     : HumanBytes(s.block_size));
  d.emplace_back("I/O buffers", IoBuffersText(s));
  d.emplace_back("access", AccessText(s));
  d.emplace_back("write data", WriteDataText(s));
  return d;
}

// sysbench prints its own lines with no blank line after them.
std::optional<std::string> FileIoWorkload::SysbenchHeader() const {
  Description d;
  AddSysbenchLines(settings(), event_limit_, d);
  std::string out;
  for (const auto& [name, value] : d) {
    out += name;
    if (!value.empty()) out.append(": ").append(value);
    out += '\n';
  }
  return out;
}

std::vector<Metric> FileIoWorkload::Metrics(const RunResult& r) const {
  const double secs = r.total_time_s;
  const auto& c = r.counters;
  std::vector<Metric> out;
  out.push_back(
      {"reads_per_second", "reads/s", PerSecond(CounterAt(c, kCounterReads), secs), "ops/s"});
  out.push_back(
      {"writes_per_second", "writes/s", PerSecond(CounterAt(c, kCounterWrites), secs), "ops/s"});
  out.push_back(
      {"fsyncs_per_second", "fsyncs/s", PerSecond(CounterAt(c, kCounterFsyncs), secs), "ops/s"});
  out.push_back({"read_mib_per_second", "read, MiB/s",
                 PerSecond(CounterAt(c, kCounterBytesRead), secs) / kBytesPerMiB, "MiB/s"});
  out.push_back({"written_mib_per_second", "written, MiB/s",
                 PerSecond(CounterAt(c, kCounterBytesWritten), secs) / kBytesPerMiB, "MiB/s"});
  out.push_back({"queue_depth_asked", "queue depth asked (per thread)",
                 static_cast<double>(settings().queue_depth), ""});
  out.push_back({"queue_depth_achieved", "queue depth achieved (time-weighted mean in flight)",
                 AchievedDepth(c), ""});
  return out;
}

std::string FileIoWorkload::TextSection(const RunResult& r) const {
  const auto& c = r.counters;
  // sysbench's section without its leading blank line, then loadcell's lines.
  std::string out = SysbenchSection(r).substr(1);
  const FileIoSettings& s = settings();
  out += fmt::format("\nQueue depth per thread ({}):\n", s.engine);
  out += Line("asked:", static_cast<double>(s.queue_depth));
  out += Line("achieved:", AchievedDepth(c));
  if (seqwr_complete_.has_value()) {
    // What the creation test leaves for the next run.
    out +=
        *seqwr_complete_ == s.num_files
            ? fmt::format("\nFiles left complete: all {}: every mode can use them.\n", s.num_files)
            : fmt::format(
                  "\nFiles left complete: {} of {} (the run ended before it wrote "
                  "every block of the others): prepare before another mode.\n",
                  *seqwr_complete_, s.num_files);
  }
  return out;
}

// sysbench's section: a blank line first, no queue depth or files-left lines.
std::string FileIoWorkload::SysbenchSection(const RunResult& r) const {
  const double secs = r.total_time_s;
  const auto& c = r.counters;
  std::string out = "\nFile operations:\n";
  out += Line("reads/s:", PerSecond(CounterAt(c, kCounterReads), secs));
  out += Line("writes/s:", PerSecond(CounterAt(c, kCounterWrites), secs));
  out += Line("fsyncs/s:", PerSecond(CounterAt(c, kCounterFsyncs), secs));
  out += "\nThroughput:\n";
  out += Line("read, MiB/s:", PerSecond(CounterAt(c, kCounterBytesRead), secs) / kBytesPerMiB);
  out +=
      Line("written, MiB/s:", PerSecond(CounterAt(c, kCounterBytesWritten), secs) / kBytesPerMiB);
  return out;
}

std::string FileIoWorkload::IntervalLine(const IntervalSnapshot& s, double percentile) const {
  const double secs = s.duration_s;
  const uint64_t p_ns =
      s.latency.empty() || percentile <= 0 ? 0 : s.latency[0].histogram.Percentile(percentile);
  return fmt::format(
      "reads: {:4.2f} MiB/s writes: {:4.2f} MiB/s fsyncs: {:4.2f}/s latency (ms,{}%): {:4.3f}",
      PerSecond(CounterAt(s.counters, kCounterBytesRead), secs) / kBytesPerMiB,
      PerSecond(CounterAt(s.counters, kCounterBytesWritten), secs) / kBytesPerMiB,
      PerSecond(CounterAt(s.counters, kCounterFsyncs), secs), percentile,
      static_cast<double>(p_ns) / 1e6);
}

}  // namespace loadcell
