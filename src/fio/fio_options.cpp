#include "fio/fio_options.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "fio/option_setters.h"

namespace loadcell::fio {

namespace {

using setters::Apply;
using setters::ApplyPerDirection;
using setters::Bool;
using setters::Bytes;
using setters::Choice;
using setters::ChoiceNames;
using setters::Choices;
using setters::Choose;
using setters::Count;
using setters::Flag;
using setters::InRange;
using setters::Int;
using setters::Invalid;
using setters::kIntMax;
using setters::Pattern;
using setters::Percent;
using setters::PerDirectionBytes;
using setters::PerDirectionCount;
using setters::SizeOrPercent;
using setters::Text;
using setters::Time;
using setters::ValueOf;

// ---- The options with rules of their own

Status ApplyRw(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "rw=MODE[:N]"));
  LC_ASSIGN_OR_RETURN(FioRw rw, ParseFioRw(value, c.kb_base));
  spec.rw = rw.mode;
  spec.rw_sequential_skip = rw.sequential_skip;
  spec.rw_random_sequence = rw.random_sequence;
  return Status::Ok();
}

Apply RwMix(bool reads) {
  return [reads](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=PERCENT"));
    LC_ASSIGN_OR_RETURN(uint64_t n, ParseFioInt(value, c.kb_base));
    if (n > 100) return Invalid(std::to_string(n) + " is over 100: a percentage 0 to 100");
    const double share = static_cast<double>(n) / 100.0;
    spec.rwmixread = reads ? share : 1.0 - share;
    return Status::Ok();
  };
}

Status ApplyPercentageRandom(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  return ApplyPerDirection(o, "PERCENT[,PERCENT][,PERCENT]", spec.percentage_random,
                           [&](std::string_view v) -> Result<double> {
                             LC_ASSIGN_OR_RETURN(uint64_t n, ParseFioInt(v, c.kb_base));
                             LC_ASSIGN_OR_RETURN(int64_t checked, InRange(n, 0, 100));
                             return static_cast<double>(checked) / 100.0;
                           });
}

Status ApplyBsRange(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  spec.block_size_range_given = true;
  return ApplyPerDirection(o, "LOW-HIGH[,LOW-HIGH][,LOW-HIGH]", spec.block_size_range,
                           [&](std::string_view v) -> Result<FioByteRange> {
                             LC_ASSIGN_OR_RETURN(FioByteRange r, ParseFioByteRange(v, c.kb_base));
                             if (r.min == 0) return Invalid("a block size of 0");
                             return r;
                           });
}

Status ApplyBsSplit(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "bssplit=BS/PERCENT:BS/PERCENT..."));
  LC_ASSIGN_OR_RETURN(spec.block_size_split, ParseFioBlockSplit(value, c.kb_base));
  return Status::Ok();
}

Status ApplyDistribution(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "random_distribution=KIND[:...]"));
  LC_ASSIGN_OR_RETURN(spec.random_distribution, ParseFioDistribution(value, c.kb_base));
  return Status::Ok();
}

Apply NameList(std::vector<std::string> FioJobSpec::*field, bool directories) {
  return
      [field, directories](const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) -> Status {
        LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, o.name + "=NAME[:NAME...]"));
        std::vector<std::string> names = SplitFioNames(value);
        if (names.empty()) return Invalid("names no file: give NAME[:NAME...]");
        LC_RETURN_IF_ERROR(CheckFioDevicePaths(names, directories));
        spec.*field = std::move(names);
        return Status::Ok();
      };
}

Status ApplyFilesize(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "filesize=SIZE[-SIZE]"));
  LC_ASSIGN_OR_RETURN(spec.filesize, ParseFioByteRange(value, c.kb_base));
  if (spec.filesize.min == 0) return Invalid("must be at least 1");
  // A range given high to low: fio 3.33 runs such a job and writes its files
  // without end (seen: 71 GB, until the disk was full), so it is refused.
  if (const size_t at = value.find_first_of("-:", 1); at != std::string_view::npos) {
    Result<uint64_t> low = ParseFioBytes(value.substr(0, at), c.kb_base);
    if (low.ok() && *low > spec.filesize.min) {
      return Invalid("the range goes from high to low: give LOW-HIGH, such as 1m-4m");
    }
  }
  spec.filesize_given = true;
  return Status::Ok();
}

Status ApplyStartDelay(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "startdelay=TIME[-TIME]"));
  LC_ASSIGN_OR_RETURN(spec.startdelay, ParseFioTimeRange(value, FioTimeUnit::kSeconds));
  return Status::Ok();
}

// The engines fio has that loadcell does not run.
constexpr std::string_view kOtherFioEngines[] = {"cpuio",
                                                 "dev-dax",
                                                 "dfs",
                                                 "dircreate",
                                                 "dirdelete",
                                                 "dirstat",
                                                 "e4defrag",
                                                 "exec",
                                                 "external",
                                                 "falloc",
                                                 "filecreate",
                                                 "filedelete",
                                                 "filestat",
                                                 "ftruncate",
                                                 "gfapi",
                                                 "gfapi_async",
                                                 "http",
                                                 "ime_aio",
                                                 "ime_psync",
                                                 "ime_psyncv",
                                                 "io_uring_cmd",
                                                 "libcufile",
                                                 "libhdfs",
                                                 "libiscsi",
                                                 "libpmem",
                                                 "librpma_apm",
                                                 "librpma_apm_client",
                                                 "librpma_apm_server",
                                                 "librpma_gpspm",
                                                 "librpma_gpspm_client",
                                                 "librpma_gpspm_server",
                                                 "libzbc",
                                                 "mtd",
                                                 "nbd",
                                                 "net",
                                                 "netsplice",
                                                 "nfs",
                                                 "pmemblk",
                                                 "posixaio",
                                                 "rados",
                                                 "rbd",
                                                 "rdma",
                                                 "sg",
                                                 "solarisaio",
                                                 "splice",
                                                 "sync_file_range",
                                                 "vsync",
                                                 "xnvme"};

const Choices<FioEngine> kEngines = {
    {"psync", FioEngine::kPsync},
    {"sync", FioEngine::kSync},
    {"pvsync", FioEngine::kPvsync},
    {"pvsync2", FioEngine::kPvsync2},
    {"libaio", FioEngine::kLibaio},
    {"io_uring", FioEngine::kIoUring},
    {"mmap", FioEngine::kMmap},
    {"null", FioEngine::kNull},
    {"windowsaio", FioEngine::kWindowsAio},
};

Status ApplyEngine(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "ioengine=" + ChoiceNames(kEngines)));
  if (std::find(std::begin(kOtherFioEngines), std::end(kOtherFioEngines), value) !=
          std::end(kOtherFioEngines) ||
      value.rfind("external:", 0) == 0) {
    return Invalid("fio's engine " + QuoteFioText(value) + " is not supported by loadcell (" +
                   ChoiceNames(kEngines) + ")");
  }
  LC_ASSIGN_OR_RETURN(spec.ioengine, Choose(o, kEngines));
  return Status::Ok();
}

const Choices<FioVerify> kVerifies = {
    {"0", FioVerify::kNone},
    {"md5", FioVerify::kMd5},
    {"crc64", FioVerify::kCrc64},
    {"crc32c", FioVerify::kCrc32c},
    {"crc32c-intel", FioVerify::kCrc32c},
    {"sha256", FioVerify::kSha256},
    {"xxhash", FioVerify::kXxhash},
    {"pattern", FioVerify::kPattern},
};
constexpr std::string_view kOtherFioVerifies[] = {"crc32",    "crc16",    "crc7",     "sha1",
                                                  "sha512",   "sha3-224", "sha3-256", "sha3-384",
                                                  "sha3-512", "meta",     "null"};

Status ApplyVerify(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "verify=" + ChoiceNames(kVerifies)));
  if (std::find(std::begin(kOtherFioVerifies), std::end(kOtherFioVerifies), value) !=
      std::end(kOtherFioVerifies)) {
    return Invalid("fio's verify type " + QuoteFioText(value) + " is not supported by loadcell (" +
                   ChoiceNames(kVerifies) + ")");
  }
  LC_ASSIGN_OR_RETURN(spec.verify, Choose(o, kVerifies));
  return Status::Ok();
}

Status ApplyBuffered(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "buffered=0|1"));
  LC_ASSIGN_OR_RETURN(bool buffered, ParseFioBool(value));
  spec.direct = !buffered;
  return Status::Ok();
}

Status ApplyBatchCompleteMax(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  c.batch_complete_max_given = true;  // else it is iodepth, set at the end
  return Int(&FioJobSpec::iodepth_batch_complete_max, 0, kIntMax)(o, c, spec);
}

Status ApplyCpus(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "cpus_allowed=0-3,5"));
  LC_ASSIGN_OR_RETURN(spec.cpus_allowed, ParseFioCpuList(value));
  return Status::Ok();
}

Status ApplyPercentiles(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "percentile_list=99:99.9"));
  LC_ASSIGN_OR_RETURN(spec.percentile_list, ParseFioPercentileList(value));
  return Status::Ok();
}

// write_lat_log and the others: a prefix, or bare for the job's name.
Apply LogPrefix(std::string FioJobSpec::*field, bool FioOptionContext::*bare) {
  return [field, bare](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
    c.*bare = !o.has_value || o.value.empty();
    spec.*field = o.has_value ? o.value : std::string();
    return Status::Ok();
  };
}

Status ApplyLogAverage(const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) {
  return Time(&FioJobSpec::log_avg_ns, FioTimeUnit::kMilliseconds)(o, c, spec);
}

Status ApplyKbBase(const FioRawOption& o, FioOptionContext& c, FioJobSpec&) {
  LC_ASSIGN_OR_RETURN(c.kb_base, Choose(o, Choices<FioKbBase>{{"1024", FioKbBase::k1024},
                                                              {"1000", FioKbBase::k1000}}));
  return Status::Ok();
}

Status ApplyName(const FioRawOption& o, FioOptionContext&, FioJobSpec& spec) {
  LC_ASSIGN_OR_RETURN(std::string_view value, ValueOf(o, "name=NAME"));
  if (value.empty()) return Invalid("an empty job name");
  spec.name = std::string(value);
  return Status::Ok();
}

std::vector<FioOptionInfo> MakeTable() {
  using S = FioJobSpec;
  constexpr FioTimeUnit kS = FioTimeUnit::kSeconds;
  constexpr FioTimeUnit kUs = FioTimeUnit::kMicroseconds;
  return {
      // Job control
      {"name", {}, "text", "", "", "a job name", &ApplyName},
      {"description", {}, "text", "", "", "any text", Text(&S::description)},
      {"numjobs", {}, "int", "1", "", "1 to 2147483647", Int(&S::numjobs, 1, kIntMax)},
      {"stonewall", {"wait_for_previous"}, "flag", "", "", "bare, 0 or 1", Flag(&S::stonewall)},
      {"new_group", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::new_group)},
      {"group_reporting", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::group_reporting)},
      {"startdelay", {}, "time range", "0", "seconds", "TIME or TIME-TIME", &ApplyStartDelay},
      {"loops", {}, "int", "1", "", "1 to 2147483647", Int(&S::loops, 1, kIntMax)},
      {"ramp_time", {}, "time", "0", "seconds", "a time", Time(&S::ramp_time_ns, kS)},
      {"runtime", {"timeout"}, "time", "0", "seconds", "a time", Time(&S::runtime_ns, kS)},
      {"time_based", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::time_based)},
      {"size",
       {},
       "size or %",
       "",
       "bytes",
       "above 0",
       SizeOrPercent(&S::size, &S::size_given, true)},
      {"io_size",
       {"io_limit"},
       "size or %",
       "size",
       "bytes",
       "above 0",
       SizeOrPercent(&S::io_size, &S::io_size_given, true)},
      {"number_ios", {}, "int", "0", "", "0 (no limit) or more", Count(&S::number_ios)},
      // Pattern
      {"rw",
       {"readwrite"},
       "mode[:N]",
       "read",
       "",
       "read, write, trim, randread, randwrite, randtrim, rw, readwrite, randrw, trimwrite, "
       "randtrimwrite",
       &ApplyRw},
      {"rwmixread", {}, "int", "50", "percent", "0 to 100", RwMix(true)},
      {"rwmixwrite", {}, "int", "50", "percent", "0 to 100", RwMix(false)},
      {"percentage_random",
       {},
       "int per direction",
       "100,100,100",
       "percent",
       "0 to 100",
       &ApplyPercentageRandom},
      {"bs",
       {"blocksize"},
       "size per direction",
       "4096",
       "bytes",
       "1 or more",
       PerDirectionBytes(&S::block_size, 1)},
      {"bsrange",
       {"blocksize_range"},
       "range per direction",
       "",
       "bytes",
       "LOW-HIGH",
       &ApplyBsRange},
      {"bssplit", {}, "split per direction", "", "bytes/percent", "BS/PERCENT:...", &ApplyBsSplit},
      {"blockalign",
       {"ba"},
       "size per direction",
       "bs",
       "bytes",
       "1 or more",
       PerDirectionBytes(&S::block_align, 1)},
      {"offset",
       {"fileoffset"},
       "size or %",
       "0",
       "bytes",
       "a size or 0% to 100%",
       SizeOrPercent(&S::offset, nullptr, false)},
      {"offset_increment",
       {},
       "size or %",
       "0",
       "bytes",
       "a size or 0% to 100%",
       SizeOrPercent(&S::offset_increment, nullptr, false)},
      {"norandommap", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::norandommap)},
      {"randrepeat", {}, "bool", "1", "", "0 or 1", Bool(&S::randrepeat)},
      {"randseed",
       {},
       "int",
       "0x89",
       "",
       "0 or more",
       [](const FioRawOption& o, FioOptionContext& c, FioJobSpec& spec) -> Status {
         spec.randseed_given = true;
         return Count(&FioJobSpec::randseed)(o, c, spec);
       }},
      {"random_generator",
       {},
       "choice",
       "tausworthe",
       "",
       "tausworthe, lfsr, tausworthe64",
       Choice(&S::random_generator,
              Choices<FioRandomGenerator>{{"tausworthe", FioRandomGenerator::kTausworthe},
                                          {"lfsr", FioRandomGenerator::kLfsr},
                                          {"tausworthe64", FioRandomGenerator::kTausworthe64}})},
      {"random_distribution",
       {},
       "distribution",
       "random",
       "",
       "random, zipf, pareto, normal, zoned, zoned_abs",
       &ApplyDistribution},
      // Files
      {"filename", {}, "names", "", "", "NAME[:NAME...]", NameList(&S::filenames, false)},
      {"directory", {}, "names", "", "", "DIR[:DIR...]", NameList(&S::directories, true)},
      {"filename_format",
       {},
       "text",
       "$jobname.$jobnum.$filenum",
       "",
       "a name pattern",
       Text(&S::filename_format)},
      {"nrfiles", {"nr_files"}, "int", "1", "", "1 to 2147483647", Int(&S::nrfiles, 1, kIntMax)},
      {"filesize", {}, "size range", "size/nrfiles", "bytes", "SIZE or LOW-HIGH", &ApplyFilesize},
      {"unlink", {}, "bool", "0", "", "0 or 1", Bool(&S::unlink)},
      {"overwrite", {}, "bool", "0", "", "0 or 1", Bool(&S::overwrite)},
      {"fallocate",
       {},
       "choice",
       "native",
       "",
       "none, native, posix, keep, truncate, 0, 1",
       Choice(&S::fallocate, Choices<FioFallocate>{{"none", FioFallocate::kNone},
                                                   {"native", FioFallocate::kNative},
                                                   {"posix", FioFallocate::kPosix},
                                                   {"keep", FioFallocate::kKeep},
                                                   {"truncate", FioFallocate::kTruncate},
                                                   {"0", FioFallocate::kNone},
                                                   {"1", FioFallocate::kPosix}})},
      {"create_on_open", {}, "bool", "0", "", "0 or 1", Bool(&S::create_on_open)},
      {"allow_mounted_write", {}, "bool", "0", "", "0 or 1", Bool(&S::allow_mounted_write)},
      {"allow_file_create", {}, "bool", "1", "", "0 or 1", Bool(&S::allow_file_create)},
      // Engine
      {"ioengine",
       {},
       "choice",
       "psync",
       "",
       "psync, sync, pvsync, pvsync2, libaio, io_uring, mmap, null, windowsaio",
       &ApplyEngine},
      {"iodepth", {}, "int", "1", "", "1 to 2147483647", Int(&S::iodepth, 1, kIntMax)},
      {"iodepth_batch_submit",
       {"iodepth_batch"},
       "int",
       "1",
       "",
       "0 (iodepth) or more",
       Int(&S::iodepth_batch_submit, 0, kIntMax)},
      {"iodepth_batch_complete_min",
       {"iodepth_batch_complete"},
       "int",
       "1",
       "",
       "0 or more",
       Int(&S::iodepth_batch_complete_min, 0, kIntMax)},
      {"iodepth_batch_complete_max", {}, "int", "iodepth", "", "0 or more", &ApplyBatchCompleteMax},
      {"direct", {}, "bool", "0", "", "0 or 1", Bool(&S::direct)},
      {"buffered", {}, "bool", "1", "", "0 or 1", &ApplyBuffered},
      {"sync",
       {},
       "choice",
       "none",
       "",
       "none, sync, dsync, 0, 1",
       Choice(&S::sync, Choices<FioSyncMode>{{"none", FioSyncMode::kNone},
                                             {"0", FioSyncMode::kNone},
                                             {"sync", FioSyncMode::kSync},
                                             {"1", FioSyncMode::kSync},
                                             {"dsync", FioSyncMode::kDsync}})},
      {"fsync", {}, "int", "0", "writes", "0 (never) or more", Int(&S::fsync, 0, kIntMax)},
      {"fdatasync", {}, "int", "0", "writes", "0 (never) or more", Int(&S::fdatasync, 0, kIntMax)},
      {"end_fsync", {}, "bool", "0", "", "0 or 1", Bool(&S::end_fsync)},
      {"fsync_on_close", {}, "bool", "0", "", "0 or 1", Bool(&S::fsync_on_close)},
      {"thread", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::thread)},
      {"cpus_allowed", {}, "cpu list", "", "", "0-3,5,...", &ApplyCpus},
      {"cpus_allowed_policy",
       {},
       "choice",
       "shared",
       "",
       "shared, split",
       Choice(&S::cpus_allowed_split, Choices<bool>{{"shared", false}, {"split", true}})},
      // Rate and think time
      {"rate",
       {},
       "size per direction",
       "0",
       "bytes/s",
       "0 (no limit) or more",
       PerDirectionBytes(&S::rate, 0)},
      {"rate_min",
       {"ratemin"},
       "size per direction",
       "0",
       "bytes/s",
       "0 or more",
       PerDirectionBytes(&S::rate_min, 0)},
      {"rate_iops",
       {},
       "int per direction",
       "0",
       "I/Os per second",
       "0 (no limit) or more",
       PerDirectionCount(&S::rate_iops)},
      {"rate_iops_min",
       {},
       "int per direction",
       "0",
       "I/Os per second",
       "0 or more",
       PerDirectionCount(&S::rate_iops_min)},
      {"rate_process",
       {},
       "choice",
       "linear",
       "",
       "linear, poisson",
       Choice(&S::rate_process, Choices<FioRateProcess>{{"linear", FioRateProcess::kLinear},
                                                        {"poisson", FioRateProcess::kPoisson}})},
      {"thinktime", {}, "time", "0", "microseconds", "a time", Time(&S::thinktime_ns, kUs)},
      {"thinktime_spin",
       {},
       "time",
       "0",
       "microseconds",
       "a time",
       Time(&S::thinktime_spin_ns, kUs)},
      {"thinktime_blocks",
       {},
       "int",
       "1",
       "I/Os",
       "1 or more",
       Int(&S::thinktime_blocks, 1, kIntMax)},
      // Buffers
      {"zero_buffers", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::zero_buffers)},
      {"refill_buffers", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::refill_buffers)},
      {"scramble_buffers", {}, "bool", "1", "", "0 or 1", Bool(&S::scramble_buffers)},
      {"buffer_compress_percentage",
       {},
       "int",
       "0",
       "percent",
       "0 to 100",
       Percent(&S::buffer_compress_percentage)},
      {"buffer_compress_chunk",
       {},
       "size",
       "512",
       "bytes",
       "0 (the block) or more",
       Bytes(&S::buffer_compress_chunk, 0)},
      {"buffer_pattern", {}, "pattern", "", "", "0xHEX and 'text'", Pattern(&S::buffer_pattern)},
      {"dedupe_percentage", {}, "int", "0", "percent", "0 to 100", Percent(&S::dedupe_percentage)},
      // Verification
      {"verify",
       {},
       "choice",
       "0",
       "",
       "0, md5, crc64, crc32c, crc32c-intel, sha256, xxhash, pattern",
       &ApplyVerify},
      {"do_verify", {}, "bool", "1", "", "0 or 1", Bool(&S::do_verify)},
      {"verify_only", {}, "flag", "", "", "bare, 0 or 1", Flag(&S::verify_only)},
      {"verify_fatal", {}, "bool", "0", "", "0 or 1", Bool(&S::verify_fatal)},
      {"verify_backlog",
       {},
       "int",
       "0",
       "blocks",
       "0 (at the end) or more",
       Count(&S::verify_backlog)},
      {"verify_pattern", {}, "pattern", "", "", "0xHEX and 'text'", Pattern(&S::verify_pattern)},
      // Reporting
      {"percentile_list",
       {},
       "float list",
       "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99",
       "percent",
       "up to 20, each in (0, 100]",
       &ApplyPercentiles},
      {"clat_percentiles", {}, "bool", "1", "", "0 or 1", Bool(&S::clat_percentiles)},
      {"lat_percentiles", {}, "bool", "0", "", "0 or 1", Bool(&S::lat_percentiles)},
      {"unified_rw_reporting",
       {},
       "choice",
       "none",
       "",
       "none, mixed, both, 0, 1, 2",
       Choice(&S::unified_rw_reporting,
              Choices<FioUnifiedReporting>{{"none", FioUnifiedReporting::kNone},
                                           {"0", FioUnifiedReporting::kNone},
                                           {"mixed", FioUnifiedReporting::kMixed},
                                           {"1", FioUnifiedReporting::kMixed},
                                           {"both", FioUnifiedReporting::kBoth},
                                           {"2", FioUnifiedReporting::kBoth}})},
      {"write_lat_log",
       {},
       "text",
       "",
       "",
       "a file prefix, or bare for the job's name",
       LogPrefix(&S::write_lat_log, &FioOptionContext::lat_log_bare)},
      {"write_bw_log",
       {},
       "text",
       "",
       "",
       "a file prefix, or bare for the job's name",
       LogPrefix(&S::write_bw_log, &FioOptionContext::bw_log_bare)},
      {"write_iops_log",
       {},
       "text",
       "",
       "",
       "a file prefix, or bare for the job's name",
       LogPrefix(&S::write_iops_log, &FioOptionContext::iops_log_bare)},
      {"log_avg_msec", {}, "time", "0", "milliseconds", "a time", &ApplyLogAverage},
      {"log_offset", {}, "bool", "0", "", "0 or 1", Bool(&S::log_offset)},
      // Units
      {"kb_base", {}, "choice", "1024", "", "1024, 1000", &ApplyKbBase},
  };
}

}  // namespace

const std::vector<FioOptionInfo>& FioOptionTable() {
  static const std::vector<FioOptionInfo> table = MakeTable();
  return table;
}

const FioOptionInfo* FindFioOption(std::string_view name) {
  for (const FioOptionInfo& info : FioOptionTable()) {
    if (info.name == name ||
        std::find(info.aliases.begin(), info.aliases.end(), name) != info.aliases.end()) {
      return &info;
    }
  }
  return nullptr;
}

}  // namespace loadcell::fio
