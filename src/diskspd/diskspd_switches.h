#pragma once
// DiskSpd 2.2's command line as loadcell reads it: switches (DiskSpd's
// meaning, units and defaults), then targets. Pure: nothing is opened, the
// file system is not asked. Every switch loadcell cannot run yet, and every
// combination DiskSpd refuses, is an InvalidArgument naming the switch
// (exit 2, one line). docs/diskspd.md lists them all.

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace loadcell::diskspd {

// -S, -h: the software cache (DiskSpd's TargetCacheMode).
enum class DiskspdCache { kCached, kUnbuffered };

// -rdpct / -rdabs: one range, in the order given. io_pct is the share of
// random I/Os in it (0: a hole); span is a percent of the target (pct) or
// bytes (abs).
struct DiskspdRange {
  uint32_t io_pct = 0;
  uint64_t span = 0;
  friend bool operator==(const DiskspdRange&, const DiskspdRange&) = default;
};
enum class DiskspdDistribution { kUniform, kPercent, kAbsolute };

// -a: one CPU of the round robin (DiskSpd's group/core).
struct DiskspdAffinityCpu {
  uint32_t group = 0;
  uint32_t cpu = 0;
  friend bool operator==(const DiskspdAffinityCpu&, const DiskspdAffinityCpu&) = default;
};

// What writes hold (-Z, -Zr, -Z<size>[,file]); DiskSpd's default is the
// repeating sequence 0, 1, ..., 255.
enum class DiskspdWriteData { kSequence, kZero, kRandomPerIo, kRandomBuffer };

struct DiskspdSwitches {
  // The command line as DiskSpd prints it ("Command Line: ..."): the
  // program's name and every argument joined by blanks.
  std::string command_line;
  std::vector<std::string> targets;
  std::vector<std::string> given;  // the switches, as written

  uint64_t block_size = uint64_t{64} * 1024;  // -b
  uint64_t base_offset = 0;                   // -B<base>
  uint64_t max_offset = 0;  // -B<base>:<length> (base + length) or -f<size>; 0: the end
  bool create = false;      // -c
  uint64_t create_size = 0;
  int warmup_s = 5;          // -W
  int duration_s = 10;       // -d
  int cooldown_s = 0;        // -C
  bool iops_stddev = false;  // -D
  uint32_t bucket_ms = 1000;
  int threads_per_target = 1;  // -t
  bool threads_per_target_given = false;
  int total_threads = 0;  // -F: 0 when not given
  // -g: per thread per target; at most one is non-zero.
  uint64_t throughput_bytes_per_ms = 0;
  uint64_t throughput_iops = 0;
  DiskspdCache cache = DiskspdCache::kCached;
  bool cache_given = false;      // -S.. or -h said something of the cache
  bool write_through = false;    // -Sw, -Sh, -h
  bool memory_mapped = false;    // -Sm
  uint32_t io_priority = 3;      // -I: 1 very low, 2 low, 3 normal
  bool large_pages = false;      // -l
  uint64_t progress_every = 0;   // -P: a dot per that many I/Os; 0: none
  bool hint_random = false;      // -fr (FILE_FLAG_RANDOM_ACCESS)
  bool hint_sequential = false;  // -fs (FILE_FLAG_SEQUENTIAL_SCAN)
  // -ft (FILE_ATTRIBUTE_TEMPORARY): the report says what it does here
  // (os/file_cache.h, TemporaryFileHintEffect).
  bool hint_temporary = false;
  // -Sr: the local cache off, the server's cache on (DiskSpd's
  // DisableLocalCache; os/file_cache.h, RemoteCacheOnlyOpenFlags). A cache
  // mode: it conflicts with -S, -Sb, -Su and -Sh.
  bool remote_cache_only = false;
  // -x: DiskSpd's completion routines instead of IOCP; loadcell runs the
  // same asynchronous engine either way (the report says which was asked).
  bool completion_routines = false;
  char mapped_flush = 0;          // -N: 'v' (flush the view), 'n', 'i'; 0: none
  uint32_t burst = 0;             // -i
  uint32_t think_ms = 0;          // -j
  bool latency = false;           // -L
  bool disable_affinity = false;  // -n
  // -a<cpus>, -ag<group>,<cpus>: threads pinned round robin to these, in
  // order; empty: DiskSpd's default (round robin over every CPU) unless -n.
  std::vector<DiskspdAffinityCpu> affinity;
  bool affinity_given = false;  // -a or -ag, with or without CPUs
  uint32_t requests = 2;        // -o
  // -O: requests in flight per thread over all its targets (with -F),
  // shared out over them; 0: -o per target.
  uint32_t requests_per_thread = 0;
  // 0 sequential, 100 random (-r), 1..99 mixed (-rs).
  uint32_t random_ratio = 0;
  // The random alignment (-r) or the sequential stride (-s); 0: not given
  // (the block size).
  uint64_t alignment = 0;
  bool interlocked = false;  // -si
  // -p: DiskSpd's parallel async I/O (sequential only): each request a
  // thread keeps in flight walks the target on its own from the thread's
  // offset, so the first -o requests go to one offset, and so on.
  bool parallel_async = false;
  uint64_t thread_stride = 0;                                        // -T
  DiskspdDistribution distribution = DiskspdDistribution::kUniform;  // -rd
  std::vector<DiskspdRange> ranges;
  uint32_t write_ratio = 0;  // -w
  bool xml = false;          // -Rxml (the report on stdout is XML)
  std::string xml_file;      // -Rxml:FILE (loadcell's): text on stdout, XML to FILE
  bool verbose = false;      // -v
  // -vs: DiskSpd's wait statistics, each thread's waits in its I/O loop
  // (the Wait Statistics table, <WaitStatistics> in the XML).
  bool verbose_stats = false;
  bool seed_from_clock = false;  // bare -z
  uint32_t seed = 0;             // -z<seed>
  DiskspdWriteData write_data = DiskspdWriteData::kSequence;
  uint64_t write_buffer_size = 0;  // -Z<size>
  std::string write_buffer_file;   // -Z<size>,<file>
  bool help = false;               // -?
  std::string profile_path;        // -X<file>
  bool profile_only = false;       // -Rp: print the profile, do not run
  // What the command line gave (with -X, they win over the profile's).
  bool format_given = false;  // -R
  bool duration_given = false;
  bool warmup_given = false;
  bool cooldown_given = false;
  bool seed_given = false;
  uint32_t weight = 1;  // a profile's <Weight>: 1 only (-O's requests are shared equally)

  // The alignment in force: -r/-s's, else the block size.
  uint64_t Alignment() const { return alignment != 0 ? alignment : block_size; }
  // Threads in all (-F, else -t per target).
  int ThreadCount() const {
    return total_threads > 0 ? total_threads
                             : threads_per_target * static_cast<int>(targets.size());
  }
};

// Parses `args` (the words after "diskspd"); `program` is how the command
// line is shown ("loadcell diskspd"). InvalidArgument, one line naming the
// switch and what is valid, for anything DiskSpd refuses or loadcell cannot
// run yet.
Result<DiskspdSwitches> ParseDiskspdCommandLine(const std::vector<std::string>& args,
                                                const std::string& program = "diskspd");

// DiskSpd's rules between one target's settings (Profile::Validate): -F
// with -t, -i without -j, -T with -r or -si, -p with -r, -si or -O, -rd
// without random I/O, -rdabs ranges below a block, -Z<size> below a block. InvalidArgument, one
// line naming the switches.
Status CheckDiskspdRules(const DiskspdSwitches& sw);

// DiskSpd's drive targets as Windows names them: "#3" is the physical
// drive \\.\PhysicalDrive3, "E:" the volume \\.\E:; "" for any other
// target (a file). A '#' not followed by a drive number (digits only, as
// many as a 32-bit number holds) is InvalidArgument naming the target.
Result<std::string> DiskspdDriveTarget(const std::string& target);

// A size as DiskSpd reads one: digits, then nothing or one of K M G T
// (KiB.. TiB, either case) or b (blocks of `block`). Nothing may follow.
// False for anything else, or a size that overflows 64 bits.
bool ParseDiskspdSize(const std::string& text, uint64_t block, uint64_t& out);

}  // namespace loadcell::diskspd
