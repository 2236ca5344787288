#pragma once
// What a workload states about its own run for the validity checks
// (src/validity/, docs/validity.md): plain facts, read once after the run,
// never per event. Workload::Facts() fills them; the checks read them.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace loadcell {

// A database server's settings that change what a figure of a test on it
// measures, each as {name, value} in the server's own words
// ({"synchronous_commit", "off"}), read before the run: what `loadcell
// compare` weighs (docs/validity.md). The first is {"server", version}.
using DatabaseSettings = std::vector<std::pair<std::string, std::string>>;

// One file target of a workload that does file I/O (fileio: the test's file
// set; sqlio: one per target).
struct IoTargetFacts {
  std::string engine;  // the engine that ran ("sync", "io_uring", "null", ...)
  bool asynchronous = false;
  bool null_engine = false;   // no file was read or written
  bool direct = false;        // O_DIRECT / FILE_FLAG_NO_BUFFERING
  bool buffered_aio = false;  // libaio on files without O_DIRECT
  // The depth asked per thread, whether the user asked it, and the one the
  // engine ran with (1 for a synchronous engine).
  uint32_t queue_depth_asked = 1;
  bool queue_depth_set = false;
  uint32_t queue_depth = 1;
  int threads = 1;  // the threads on this target
  // The workload idles between its requests by design (fio's thinktime or
  // rate, a simulated database user's pauses and waits for the others):
  // threads x depth is then a ceiling, not the depth it runs at.
  bool paced = false;
  std::string depth_option;  // the option that sets the depth ("--file-queue-depth")
  bool reads = false;
  bool writes = false;
  // Writes reach stable storage within the measured run: O_SYNC/O_DSYNC,
  // or a flush after every write.
  bool write_through = false;
  bool periodic_flush = false;  // a flush every N writes (--file-fsync-freq)
  std::string write_pattern;    // "random", "zero", "sequence"
  // What the writes hold, where the workload estimated it from a sample of
  // its own write buffers (-1: not estimated; write_pattern says it): the
  // share compressing storage would not store, and the share of writes
  // that repeat an earlier one (what deduplicating storage would not store).
  double write_compressible_fraction = -1;
  double write_duplicate_fraction = -1;
  // The request size, and the granularity of the requests' offsets in the
  // files (every offset is a multiple of it); 0 unknown.
  uint64_t block_bytes = 0;
  uint64_t offset_align_bytes = 0;
  uint64_t file_set_bytes = 0;
  // Where the files are: their folder, or a block device named as a file
  // (fio's filename=/dev/sdb), whose own counters and queue are then read.
  std::string dir;
  // Further folders or block devices the files are in, when they are
  // several (a fio job's files spread over `directory=a:b`): the device
  // checks count the devices under `dir` and these, each device once.
  std::vector<std::string> more_dirs;
  std::vector<std::string> paths;  // the files read or written
};

// Something that went wrong during the run but did not fail it, with its
// count: "ignored errors", "reconnects".
struct IncidentCount {
  std::string what;
  uint64_t count = 0;
  std::string option;  // what governs it ("--mysql-ignore-errors"), may be ""
};

// The data set of a database test (OLTP) against the cache that may hold
// it, read once after the run.
struct DatabaseFacts {
  std::string driver;        // "sqlite", "pgsql", "mysql"
  uint64_t data_bytes = 0;   // the test's tables, with their indexes
  uint64_t cache_bytes = 0;  // the server's buffer pool; 0 for SQLite (the host's page cache)
  std::string cache_name;    // "shared_buffers", "innodb_buffer_pool_size", ""
  std::string unknown;       // why the sizes could not be read ("" when they were)
  uint64_t transactions = 0;
  uint64_t rollbacks = 0;  // transactions rolled back after an ignored error
  // Of the rollbacks: deadlocks (and serialization failures), and lock
  // wait timeouts.
  uint64_t deadlocks = 0;
  uint64_t lock_waits = 0;
};

// The options a check's advice names, in the words of the front end the
// user wrote (each as they would type it). The defaults are loadcell
// fileio's; fio, DiskSpd and SQLIO state their own (fio_job_facts.cpp,
// cli/diskspd, sqlio.cpp), so that the advice names an option they have.
struct IoOptionNames {
  std::string direct = "--file-extra-flags=direct";  // I/O past the page cache
  std::string file_set_size = "--file-total-size";   // the size of the file set
  // Asynchronous engines; the options of a deeper queue (engine and
  // depth); the depth's own option.
  std::string async_engines = "--file-io-mode=io_uring, libaio; iocp on Windows";
  std::string deeper_queue = "--file-io-mode, --file-queue-depth";
  std::string queue_depth = "--file-queue-depth";
  std::string threads = "--threads";
  // A flush every N writes; "" where the front end has none.
  std::string flush_every = "--file-fsync-freq=N";
  std::string write_through = "--file-extra-flags=dsync";
  std::string random_data = "--file-write-pattern=random (the default)";
  // How to write the files before reading them, and what not to read.
  std::string write_first = "loadcell fileio prepare, or --file-test-mode=seqwr";
  std::string unwritten_source = "--file-use-existing on sparse or fallocated files";
  // The option that prints interval figures; "" where the front end has none.
  std::string report_interval = "--report-interval";
  // The options that make a run longer, and its unmeasured start ("" where
  // the front end has none).
  std::string run_length = "--time, --events";
  std::string warm_up = "--warmup-time";
  // The option of the printed percentile the samples check judges; "" where
  // the front end's verdict judges a fixed one (fio's, DiskSpd's and
  // dbsim's 99th, SQLIO's 95th).
  std::string percentile = "--percentile";
  // Across MPI ranks (the ranks check): what limits a run by its time, what
  // limits it by its work ("" none), and what stops every rank once the
  // first is done ("" none).
  std::string time_limit = "--time";
  std::string work_limit = "--events";
  std::string stonewall = "--stonewall=on";
  // The options that set the request size and the offsets' granularity
  // (the alignment check's advice); "" where the front end has none.
  std::string alignment = "--file-block-size";
};

// A rate the workload kept itself to by its front end's own option (fio's
// rate_iops, DiskSpd's -g), not the run's --rate: what the rate check
// judges, in the option's unit. Whether the I/Os started late is not
// counted.
struct OwnRateFacts {
  std::string option;  // "rate_iops", "-g"; "": none asked
  std::string unit;    // "read I/Os per second", "bytes per millisecond"
  double target = 0;
  double achieved = 0;
  bool minimum = false;  // a floor (fio's rate_min): any shortfall misses it
};

struct WorkloadFacts {
  // The test measures the CPU loadcell runs on (cpu, memory, threads,
  // mutex): a busy client is the point, not a fault.
  bool measures_client_cpu = false;
  std::vector<IoTargetFacts> io;
  // The bytes the file targets read over the measured run (0 without them).
  uint64_t io_bytes_read = 0;
  uint64_t io_bytes_written = 0;  // and wrote
  // The memory test's block and the CPU's L2 cache (0: not a memory test
  // that touches memory).
  uint64_t memory_block_bytes = 0;
  uint64_t l2_cache_bytes = 0;
  std::vector<IncidentCount> incidents;
  // The file I/Os that moved fewer bytes than asked, where the workload
  // counts them and goes on (fio's short_ios); fileio and SQLIO fail the run
  // at the first one instead (counts_short_ios false).
  bool counts_short_ios = false;
  uint64_t short_ios = 0;
  // The CPUs the workload pins its worker threads to (fio's cpus_allowed,
  // SQLIO's -p, -a and masks), in increasing order; empty when they may run
  // on any the process may use.
  std::vector<int> worker_cpus;
  IoOptionNames option_names;  // the words of the `io` targets' advice
  OwnRateFacts own_rate;
  bool has_database = false;  // `database` holds a database test's facts
  DatabaseFacts database;
  // The server's settings, for the manifest (empty: not a database test,
  // or not read).
  DatabaseSettings database_settings;
};

}  // namespace loadcell
