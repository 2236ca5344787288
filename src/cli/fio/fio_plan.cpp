#include "cli/fio/fio_plan.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "cli/fio/fio_device_guard.h"
#include "cli/fio/fio_logs.h"
#include "cli/fio/fio_plan_checks.h"
#include "cli/mpi_ranks.h"
#include "cli/sqlio/sqlio_affinity.h"
#include "io/io_engine.h"
#include "os/block_device.h"
#include "os/open_flags.h"
#include "os/thread.h"

namespace loadcell {
namespace {

using fio::FioEngine;
using fio::FioJobInstance;
using fio::FioJobSpec;
using fio::FioRwMode;
using fio::FioSize;

// fio's buffer options as the job's workers fill their write buffers.
FioBufferSettings BuffersOf(const FioJobSpec& spec) {
  FioBufferSettings b;
  b.zero = spec.zero_buffers;
  // fio: verify (as compression and dedupe, which FioBufferFill handles)
  // refills the buffers for every write.
  b.refill = spec.refill_buffers || spec.verify != fio::FioVerify::kNone;
  b.scramble = spec.scramble_buffers;
  b.compress_fraction = spec.buffer_compress_percentage;
  b.compress_chunk = spec.buffer_compress_chunk;
  b.pattern = spec.buffer_pattern;
  b.dedupe_fraction = spec.dedupe_percentage;
  return b;
}

// fio's engines and the loadcell engines they run on (io/io_engine.h).
constexpr std::pair<FioEngine, std::pair<const char*, const char*>> kFioEngines[] = {
    {FioEngine::kPsync, {"psync", "sync"}},
    {FioEngine::kSync, {"sync", "sync"}},
    {FioEngine::kPvsync, {"pvsync", "sync"}},
    {FioEngine::kPvsync2, {"pvsync2", "sync"}},
    {FioEngine::kLibaio, {"libaio", "libaio"}},
    {FioEngine::kIoUring, {"io_uring", "io_uring"}},
    {FioEngine::kMmap, {"mmap", "mmap"}},
    {FioEngine::kNull, {"null", "null"}},
    {FioEngine::kWindowsAio, {"windowsaio", "iocp"}}};

// The loadcell engine of the job's ioengine; refused (with its line, before
// anything is laid out) when this system or build has no such engine.
Result<std::string> EngineName(const FioJobSpec& spec) {
  for (const auto& [engine, names] : kFioEngines) {
    if (engine != spec.ioengine) continue;
    if (CheckIoEngine(names.second, names.first).ok()) return std::string(names.second);
    std::string here;
    for (const auto& [other, other_names] : kFioEngines) {
      if (CheckIoEngine(other_names.second, other_names.first).ok()) {
        here += (here.empty() ? "" : ", ") + std::string(other_names.first);
      }
    }
    return FioRefuse(spec, "ioengine",
                     fmt::format("ioengine={} does not run on this system or build of loadcell "
                                 "(what runs here: {})",
                                 names.first, here));
  }
  return FioRefuse(spec, "ioengine", "unknown ioengine");
}

bool Asynchronous(const std::string& engine) {
  return engine == "libaio" || engine == "io_uring" || engine == "iocp" || engine == "null";
}

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// `name` in directory= `dir`; a name with a root of its own ("/f", and on
// Windows "C:\\f" or "\\f") stands as it is, as fio's does.
std::string InDirectory(const std::string& dir, const std::string& name) {
  if (dir.empty() || name.empty() || PathRootLength(name) > 0) return name;
  return JoinPath(dir, name);
}

// The job instance's files: filename= (shared by its clones, as fio's are)
// or nrfiles names from filename_format in directory=.
std::vector<std::string> FilesOf(const FioJobSpec& spec, const FioJobInstance& inst) {
  std::vector<std::string> out;
  const std::vector<std::string>& dirs = spec.directories;
  // fio: named files are in the first folder of a directory= list; made-up
  // names put each clone (numjobs) in the next folder, all its files there.
  if (!spec.filenames.empty()) {
    for (const std::string& name : spec.filenames) {
      out.push_back(InDirectory(dirs.empty() ? "" : dirs.front(), name));
    }
    return out;
  }
  const std::string dir =
      dirs.empty() ? "" : dirs[static_cast<size_t>(inst.clone_index) % dirs.size()];
  for (int f = 0; f < std::max(1, spec.nrfiles); ++f) {
    std::string name = spec.filename_format;
    name = Replace(name, "$jobname", inst.name);
    name = Replace(name, "$jobnum", std::to_string(inst.clone_index));
    name = Replace(name, "$filenum", std::to_string(f));
    out.push_back(InDirectory(dir, name));
  }
  return out;
}

uint64_t Resolve(const FioSize& s, uint64_t whole) {
  return s.is_fraction ? static_cast<uint64_t>(s.fraction * static_cast<double>(whole)) : s.bytes;
}

FioPatternSettings PatternOf(const FioJobSpec& spec) {
  FioPatternSettings p;
  switch (spec.rw) {
    case FioRwMode::kRead:
      p.dirs = {true, false, false};
      break;
    case FioRwMode::kWrite:
      p.dirs = {false, true, false};
      break;
    case FioRwMode::kRandRead:
      p.dirs = {true, false, false};
      p.random = true;
      break;
    case FioRwMode::kRandWrite:
      p.dirs = {false, true, false};
      p.random = true;
      break;
    case FioRwMode::kMixed:
      p.dirs = {true, true, false};
      break;
    case FioRwMode::kRandMixed:
      p.dirs = {true, true, false};
      p.random = true;
      break;
    case FioRwMode::kTrim:
      p.dirs = {false, false, true};
      break;
    case FioRwMode::kRandTrim:
      p.dirs = {false, false, true};
      p.random = true;
      break;
    case FioRwMode::kTrimWrite:
    case FioRwMode::kRandTrimWrite:
      // Each block trimmed, then written (fio's trimwrite).
      p.dirs = {false, true, true};
      p.trim_then_write = true;
      p.random = spec.rw == FioRwMode::kRandTrimWrite;
      break;
  }
  p.read_pct = spec.rwmixread * 100;
  // percentage_random per direction, as fio applies it.
  for (size_t d = 0; d < fio::kFioDirections; ++d) {
    p.random_pct[d] = spec.percentage_random[d] * 100;
  }
  if (p.random) {
    p.seq_skip = spec.rw_random_sequence > 1 ? spec.rw_random_sequence : 0;
  } else {
    p.seq_skip = spec.rw_sequential_skip;
  }
  for (size_t d = 0; d < fio::kFioDirections; ++d) {
    FioBlockSizes& b = p.bs[d];
    const auto& split = spec.block_size_split[d];
    for (const fio::FioBlockSplit& e : split) {
      b.split.emplace_back(static_cast<uint32_t>(e.block_size), e.fraction * 100);
    }
    if (spec.block_size_range_given) {
      b.min = static_cast<uint32_t>(spec.block_size_range[d].min);
      b.max = static_cast<uint32_t>(spec.block_size_range[d].max);
    } else {
      b.min = b.max = static_cast<uint32_t>(spec.block_size[d]);
    }
    b.align = static_cast<uint32_t>(spec.block_align[d]);
  }
  p.norandommap = spec.norandommap;
  // fio: any use of blockalign turns off the random map.
  if (std::any_of(spec.block_align.begin(), spec.block_align.end(),
                  [](uint64_t a) { return a != 0; })) {
    p.norandommap = true;
  }
  const fio::FioRandomDistribution& rd = spec.random_distribution;
  FioOffsetDistribution& od = p.distribution;
  od.parameter = rd.parameter;
  od.center = rd.center;
  switch (rd.kind) {
    case fio::FioDistributionKind::kRandom:
      od.law = FioOffsetLaw::kUniform;
      break;
    case fio::FioDistributionKind::kZipf:
      od.law = FioOffsetLaw::kZipf;
      break;
    case fio::FioDistributionKind::kPareto:
      od.law = FioOffsetLaw::kPareto;
      break;
    case fio::FioDistributionKind::kNormal:
      od.law = FioOffsetLaw::kNormal;
      break;
    case fio::FioDistributionKind::kZoned:
    case fio::FioDistributionKind::kZonedAbs:
      od.law = FioOffsetLaw::kZoned;
      od.absolute = rd.kind == fio::FioDistributionKind::kZonedAbs;
      break;
  }
  for (size_t d = 0; d < fio::kFioDirections; ++d) {
    for (const fio::FioZone& z : rd.zones[d]) {
      od.zones[d].push_back({z.access_fraction * 100, z.size_fraction * 100, z.size_bytes});
    }
  }
  // fio's rule: a distribution other than uniform does without the random
  // map (offsets repeat).
  if (od.law != FioOffsetLaw::kUniform) p.norandommap = true;
  // random_generator=lfsr: a full-cycle generator instead of the random map
  // (tausworthe and tausworthe64 are loadcell's own generator and map).
  p.full_cycle =
      spec.random_generator == fio::FioRandomGenerator::kLfsr && od.law == FioOffsetLaw::kUniform;
  return p;
}

FioFallocateMode FallocateOf(fio::FioFallocate f) {
  switch (f) {
    case fio::FioFallocate::kNone:
      return FioFallocateMode::kNone;
    case fio::FioFallocate::kPosix:
      return FioFallocateMode::kPosix;
    case fio::FioFallocate::kKeep:
      return FioFallocateMode::kKeep;
    case fio::FioFallocate::kTruncate:
      return FioFallocateMode::kTruncate;
    case fio::FioFallocate::kNative:
      break;
  }
  return FioFallocateMode::kNative;
}

// cpus_allowed: every CPU one this process may use (else refused, naming
// the ones it may); with cpus_allowed_policy=split instance number `index`
// (from 1) gets one of them, fio's rule.
Result<std::vector<int>> CpusOf(const FioJobSpec& spec, int index) {
  if (spec.cpus_allowed.empty()) return std::vector<int>{};
  const std::vector<int> allowed = AllowedCpus();
  for (int cpu : spec.cpus_allowed) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), cpu) == allowed.end()) {
      return FioRefuse(spec, "cpus_allowed",
                       fmt::format("fio option 'cpus_allowed': CPU {} is not one this process may "
                                   "use ({})",
                                   cpu, CpuRanges(allowed)));
    }
  }
  if (!spec.cpus_allowed_split) return spec.cpus_allowed;
  const size_t at = static_cast<size_t>(index - 1) % spec.cpus_allowed.size();
  return std::vector<int>{spec.cpus_allowed[at]};
}

// The smallest block a direction draws: fio's measure of rate_iops.
uint64_t SmallestBlock(const FioBlockSizes& b) {
  uint64_t m = b.min;
  for (const auto& [size, pct] : b.split) m = std::min<uint64_t>(m, size);
  return std::max<uint64_t>(1, m);
}

// rate, rate_iops, rate_min, rate_iops_min, rate_process, thinktime*.
void PaceOf(const FioJobSpec& spec, FioJobSettings& s) {
  for (size_t d = 0; d < fio::kFioDirections; ++d) {
    s.rate_bytes[d] =
        spec.rate[d] != 0 ? spec.rate[d] : spec.rate_iops[d] * SmallestBlock(s.pattern.bs[d]);
    s.min_bytes[d] = spec.rate_min[d];
    s.min_ios[d] = spec.rate_iops_min[d];
  }
  s.rate_asked = FioRateAskedOf(spec.rate, spec.rate_iops, spec.rate_min, spec.rate_iops_min);
  s.rate_poisson = spec.rate_process == fio::FioRateProcess::kPoisson;
  s.thinktime_ns = spec.thinktime_ns;
  s.thinktime_spin_ns = std::min(spec.thinktime_spin_ns, spec.thinktime_ns);
  s.thinktime_blocks = static_cast<uint32_t>(std::max(1, spec.thinktime_blocks));
  if (spec.runtime_ns > 0) s.issue_window_ns = spec.ramp_time_ns + spec.runtime_ns;
}

// startdelay=: its time, or one drawn in its range (per job instance, from
// the job's seed).
double StartDelaySeconds(const FioJobSpec& spec, uint64_t seed) {
  const fio::FioTimeRange& r = spec.startdelay;
  int64_t ns = r.min_ns;
  if (r.max_ns > r.min_ns) {
    Random rng(seed ^ 0x57A27ULL);
    ns =
        r.min_ns + static_cast<int64_t>(rng.Uniform(0, static_cast<uint64_t>(r.max_ns - r.min_ns)));
  }
  return static_cast<double>(ns) / 1e9;
}

// Each file's size and the bytes the job does I/O on in it, from offset on
// (fio's setup_files).
struct FioFileSizes {
  std::vector<uint64_t> sizes;
  std::vector<uint64_t> regions;
};

// filesize=LOW-HIGH: a file that exists with a size in the range is used as
// it is; any other file's size is drawn in [LOW, HIGH), rounded down to the
// job's smallest block (fio's rule), from the job's seed.
Result<FioFileSizes> DrawFileSizes(const FioJobSpec& spec, const std::vector<uint64_t>& now,
                                   uint64_t offset, uint64_t seed, uint64_t min_block) {
  FioFileSizes out;
  Random rng(seed ^ 0xF11E5123ULL);
  const fio::FioByteRange& r = spec.filesize;
  for (const uint64_t have : now) {
    uint64_t size = have;
    if (have < r.min || have > r.max) {
      size = r.min + rng.Uniform(0, r.max - r.min - 1);
      size -= size % min_block;
      if (size == 0) size = min_block;
    }
    if (offset >= size) {
      return FioRefuse(spec, "offset",
                       fmt::format("offset {} is not below the file size {}", offset, size));
    }
    out.sizes.push_back(size);
    out.regions.push_back(size - offset);
  }
  return out;
}

// filesize=, else size= shared out over the files, else (filename=) the
// size of the file that is there. `now`: what each file holds (0: missing).
Result<FioFileSizes> SizeFiles(const FioJobSpec& spec, const FioJobInstance& inst,
                               const std::vector<std::string>& files,
                               const std::vector<uint64_t>& now, uint64_t seed,
                               uint64_t min_block) {
  // The smallest file there (files of 0 bytes and missing ones aside).
  uint64_t existing = 0;
  for (const uint64_t have : now) {
    if (have != 0) existing = existing == 0 ? have : std::min(existing, have);
  }
  const uint64_t nfiles = now.size();
  const uint64_t offset =
      Resolve(spec.offset, existing) +
      Resolve(spec.offset_increment, existing) * static_cast<uint64_t>(inst.clone_index);
  if (spec.filesize_given && spec.filesize.min != spec.filesize.max) {
    return DrawFileSizes(spec, now, offset, seed, min_block);
  }
  uint64_t per_file = 0;
  if (spec.filesize_given) {
    per_file = spec.filesize.min;
  } else if (spec.size_given) {
    per_file = Resolve(spec.size, existing * nfiles) / nfiles;
  } else {
    per_file = existing;
  }
  if (per_file == 0) {
    // Nothing to lay out: the first file that is missing or empty is named.
    const size_t at = static_cast<size_t>(std::find(now.begin(), now.end(), 0) - now.begin());
    const std::string which =
        at < files.size() ? " (" + files[at] + " is missing or empty)" : std::string();
    return FioRefuse(spec, "size",
                     "job " + inst.name + " has no size" + which +
                         ": give size=, filesize= or an existing filename=");
  }
  // filesize= and an existing file: I/O from offset to its end; size=: the
  // size from offset on (the file is made that much longer).
  uint64_t size = offset + per_file;
  uint64_t region = per_file;
  if (spec.filesize_given || !spec.size_given) {
    if (offset >= per_file) {
      return FioRefuse(spec, "offset",
                       fmt::format("offset {} is not below the file size {}", offset, per_file));
    }
    size = per_file;
    region = per_file - offset;
  }
  FioFileSizes out;
  out.sizes.assign(nfiles, size);
  out.regions.assign(nfiles, region);
  return out;
}

// What each of the job's files holds now (0: missing); a raw device is
// checked against the device rules (cli/fio/fio_device_guard.h).
Result<std::vector<uint64_t>> FileBytesNow(const FioJobSpec& spec,
                                           const std::vector<std::string>& files, FileSystem& fs,
                                           const FioPlanOptions& options) {
  std::vector<uint64_t> now;
  for (const std::string& path : files) {
    if (IsBlockDevice(path)) {
      // A raw device: used as it is, never laid out; a job that changes it
      // only under the device rules.
      const bool changes = (FioRwWrites(spec.rw) && !spec.verify_only) || FioRwTrims(spec.rw);
      LC_RETURN_IF_ERROR(CheckFioDeviceWrite(spec, path, changes, options.allow_destructive));
      Result<uint64_t> bytes = BlockDeviceBytes(path);
      if (!bytes.ok()) return FioRefuse(spec, "filename", bytes.status().message());
      now.push_back(*bytes);
      continue;
    }
    LC_ASSIGN_OR_RETURN(FileInfo st, fs.Stat(path));
    now.push_back(st.exists ? st.size : 0);
  }
  return now;
}

// loadcell's rule for the existing files the job would change
// (cli/fio/fio_device_guard.h): each write, trim or layout of a file
// loadcell did not lay out needs --allow-destructive. The null engine
// touches no file.
Status CheckFileWrites(const FioJobSpec& spec, const FioJobSettings& s, FileSystem& fs,
                       const FioPlanOptions& options) {
  if (s.engine == "null") return Status::Ok();
  for (size_t f = 0; f < s.files.size(); ++f) {
    if (IsBlockDevice(s.files[f])) continue;
    FioFileUse use;
    use.job = s.name;
    use.path = s.files[f];
    use.writes = FioRwWrites(spec.rw) && !spec.verify_only;
    use.trims = FioRwTrims(spec.rw);
    use.lays_out = FioJobLaysOutFiles(s);
    use.needed = s.FileSize(f);
    LC_RETURN_IF_ERROR(CheckFioFileWrite(spec, use, options.allow_destructive, fs));
  }
  return Status::Ok();
}

Result<FioPlannedJob> PlanOne(const FioJobSpec& spec, const FioJobInstance& inst, FileSystem& fs,
                              const FioPlanOptions& options) {
  LC_RETURN_IF_ERROR(CheckFioRunnable(spec));
  // fio's --readonly refuses a job that would write or trim at all (the
  // null engine's and verify_only's too, as fio does).
  if (options.readonly && (FioRwWrites(spec.rw) || FioRwTrims(spec.rw))) {
    return FioRefuse(spec, "rw",
                     "job " + inst.name + " writes or trims: --readonly lets a job only read");
  }
  FioPlannedJob job;
  job.instance = inst;
  job.spec = &spec;
  FioJobSettings& s = job.settings;
  s.name = inst.name;
  LC_ASSIGN_OR_RETURN(s.engine, EngineName(spec));
  s.files = FilesOf(spec, inst);
  if (!options.rank_folder.empty()) {
    for (std::string& path : s.files) {
      if (!IsBlockDevice(path)) {
        path = PathInRankFolder(path, options.rank_folder);
      }
    }
  }
  const uint64_t nfiles = s.files.size();
  s.pattern = PatternOf(spec);
  // fio's seed is the same every run unless randrepeat=0 without randseed=
  // (fio 3.33 keeps a given randseed either way); each clone its own.
  s.pattern.seed = spec.randrepeat || spec.randseed_given
                       ? spec.randseed + static_cast<uint64_t>(inst.clone_index) * 7919
                       : static_cast<uint64_t>(MonotonicNow());
  uint64_t min_block = UINT32_MAX;
  for (const FioBlockSizes& b : s.pattern.bs) min_block = std::min(min_block, SmallestBlock(b));

  LC_ASSIGN_OR_RETURN(std::vector<uint64_t> now, FileBytesNow(spec, s.files, fs, options));
  LC_ASSIGN_OR_RETURN(FioFileSizes sized,
                      SizeFiles(spec, inst, s.files, now, s.pattern.seed, min_block));
  s.file_size = *std::max_element(sized.sizes.begin(), sized.sizes.end());
  s.pattern.files = static_cast<uint32_t>(nfiles);
  s.pattern.region_offset = sized.sizes.front() - sized.regions.front();
  s.pattern.region_length = *std::min_element(sized.regions.begin(), sized.regions.end());
  if (std::any_of(sized.sizes.begin(), sized.sizes.end(),
                  [&](uint64_t x) { return x != sized.sizes.front(); })) {
    s.file_sizes = sized.sizes;
    s.pattern.region_lengths = sized.regions;
  }
  LC_RETURN_IF_ERROR(CheckFioAbsoluteZones(spec, s.pattern.region_length));
  uint64_t region_bytes = 0;
  for (const uint64_t r : sized.regions) region_bytes += r;

  s.iodepth = Asynchronous(s.engine) ? static_cast<uint32_t>(std::max(1, spec.iodepth)) : 1;
  s.submit_batch = static_cast<uint32_t>(std::max(1, spec.iodepth_batch_submit));
  s.direct = spec.direct;
  // fio: sync=1 and sync=sync open with O_SYNC, sync=dsync with O_DSYNC.
  s.sync_writes = spec.sync == fio::FioSyncMode::kSync;
  s.dsync_writes = spec.sync == fio::FioSyncMode::kDsync;
  s.fsync_every = static_cast<uint32_t>(std::max(0, spec.fsync));
  s.fdatasync_every = static_cast<uint32_t>(std::max(0, spec.fdatasync));
  s.end_fsync = spec.end_fsync || spec.fsync_on_close;
  s.unlink = spec.unlink;
  s.buffers = BuffersOf(spec);
  LC_RETURN_IF_ERROR(CheckFioVerify(spec, s.pattern));
  s.verify = FioVerifyKindOf(spec.verify);
  s.do_verify = spec.do_verify;
  s.verify_only = spec.verify_only;
  s.verify_fatal = spec.verify_fatal;
  s.verify_backlog = spec.verify_backlog;
  s.verify_pattern = spec.verify_pattern;
  const uint64_t loops = static_cast<uint64_t>(std::max(1, spec.loops));
  // A sequential pattern with holes (rw=read:8k) ends its own passes: fio's
  // rules for them (workloads/fio/fio_passes.h) instead of a byte count.
  s.pattern.time_based = spec.time_based;
  s.passes.on = !s.pattern.random && s.pattern.seq_skip > 0 && !s.pattern.trim_then_write;
  s.passes.loops = static_cast<uint32_t>(loops);
  s.passes.time_based = spec.time_based;
  s.passes.io_size_given = spec.io_size_given;
  s.passes.verifies = s.verify != FioVerifyKind::kNone && s.do_verify && !s.verify_only &&
                      s.pattern.dirs[static_cast<int>(FioDir::kWrite)];
  if (!spec.time_based) {
    uint64_t one_pass = spec.io_size_given ? Resolve(spec.io_size, region_bytes) : region_bytes;
    // fio: with filesize= the files' sizes are filesize's, and size= only
    // bounds the job's bytes (io_size's default): the smaller of the two.
    if (!spec.io_size_given && spec.filesize_given && spec.size_given) {
      one_pass = std::min(one_pass, Resolve(spec.size, region_bytes));
    }
    // fio: a job with verify does its size once per loop (an io_size above
    // it is cut to it), unless norandommap's random offsets may repeat.
    if (spec.verify != fio::FioVerify::kNone && !(s.pattern.random && spec.norandommap)) {
      one_pass = std::min(one_pass, region_bytes);
    }
    s.byte_limit = one_pass * loops;
    // fio counts number_ios per pass of loops=: each pass ends once the job
    // issued number_ios times the passes begun.
    s.io_limit = spec.number_ios * loops;
    if (s.passes.on) {
      s.passes.pass_bytes = one_pass;
      s.passes.number_ios = spec.number_ios;
      s.byte_limit = 0;
      s.io_limit = 0;
    }
    // fio verifies after each of the loops= passes.
    if (loops > 1 && !s.passes.on) s.verify_pass_bytes = one_pass;
  } else if (spec.runtime_ns <= 0) {
    return FioRefuse(spec, "time_based", "time_based needs runtime=");
  }

  PaceOf(spec, s);
  s.logs = FioLogSettingsOf(spec);
  if (Asynchronous(s.engine)) {
    s.complete_min = static_cast<uint32_t>(std::max(0, spec.iodepth_batch_complete_min));
    s.complete_max = static_cast<uint32_t>(std::max(0, spec.iodepth_batch_complete_max));
  }
  s.fallocate = FallocateOf(spec.fallocate);
  s.create_on_open = spec.create_on_open;
  s.overwrite = spec.overwrite;

  RunConfig& c = job.cfg;
  c.start_delay_s = StartDelaySeconds(spec, s.pattern.seed);
  c.threads = 1;
  c.time_s = static_cast<double>(spec.runtime_ns) / 1e9;
  c.time_given = spec.runtime_ns > 0;
  c.events = 0;
  c.warmup_s = static_cast<double>(spec.ramp_time_ns) / 1e9;
  c.warmup_cut_short_measured = true;  // a job done inside ramp_time reports its I/Os, as fio
  c.seed = static_cast<int64_t>(s.pattern.seed | 1);
  c.rand.type = "uniform";
  c.percentile = 99;
  LC_RETURN_IF_ERROR(CheckFioFileCreate(spec, s, options.readonly, options.rank_folder, fs));
  if (options.locks != nullptr) {
    LC_RETURN_IF_ERROR(LockFioJobFolders(spec, s, options.rank_folder, fs, *options.locks));
  }
  LC_RETURN_IF_ERROR(CheckFileWrites(spec, s, fs, options));
  return job;
}

}  // namespace

std::string FioWhere(const FioJobSpec& spec, const std::string& option) {
  const fio::FioOrigin* at = &spec.origin;
  for (const fio::FioGivenOption& g : spec.given) {
    if (g.name == option) at = &g.origin;
  }
  if (at->command_line) return fmt::format("command line argument {}: ", at->line);
  if (at->file.empty()) return "";
  return fmt::format("{}:{}: ", at->file, at->line);
}

Result<FioPlan> PlanFioJobs(const std::vector<FioJobSpec>& specs,
                            const std::vector<fio::FioRunStep>& steps, FileSystem& fs,
                            const FioPlanOptions& options) {
  FioPlan plan;
  int index = 0;  // fio's thread number, from 1, names the logs
  for (const fio::FioRunStep& step : steps) {
    std::vector<FioPlannedJob>& out = plan.steps.emplace_back();
    for (const FioJobInstance& inst : step.instances) {
      if (inst.job >= specs.size()) return Status::Internal("fio: a job instance of no job");
      LC_ASSIGN_OR_RETURN(FioPlannedJob j, PlanOne(specs[inst.job], inst, fs, options));
      j.logs = FioLogFilesOf(specs[inst.job], ++index);
      for (auto& log : j.logs) log.second += options.log_suffix;
      LC_ASSIGN_OR_RETURN(j.settings.cpus, CpusOf(specs[inst.job], index));
      out.push_back(std::move(j));
    }
  }
  return plan;
}

}  // namespace loadcell
