#pragma once
// I/O engines: a few verbs behind one interface, so synchronous and
// asynchronous engines share one driver loop. Submit is separate from Reap:
// a synchronous engine completes each request inside Submit and hands the
// completions out on the next Reap.
//
// One engine instance per worker thread (not thread-safe).

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/status.h"
#include "os/file_system.h"

namespace loadcell {

enum class IoOp : uint8_t { kRead, kWrite, kFsync, kFdatasync };

struct IoRequest {
  IoOp op = IoOp::kRead;
  int file = 0;  // index into the files given to Open()
  uint64_t offset = 0;
  uint32_t length = 0;
  void* buffer = nullptr;  // aligned as Capabilities().buffer_alignment says
  uint64_t user_data = 0;  // returned in the completion
  Nanos submitted_at = 0;  // set by the caller just before Submit
};

struct IoCompletion {
  uint64_t user_data = 0;
  // Bytes transferred (>= 0; fewer than asked is a short transfer, 0 at or
  // past the end of the file) or -errno. 0 for a successful fsync.
  int64_t result = 0;
};

struct IoCapabilities {
  bool asynchronous = false;  // can keep several requests in flight
  uint32_t max_queue_depth = 1;
  uint32_t buffer_alignment = 1;  // bytes; 4096 for O_DIRECT-friendly buffers
  bool needs_direct = false;      // libaio is only asynchronous with O_DIRECT
};

struct IoFile {
  std::string path;
  int fd = -1;  // opened by the caller through FileSystem
  uint64_t size = 0;
};

struct EngineOptions {
  uint32_t queue_depth = 1;
  bool direct = false;  // files were opened with O_DIRECT
  // libaio: accept files opened without O_DIRECT. The kernel then completes
  // each I/O inside io_submit (a real queue depth of 1), as sysbench's
  // --file-io-mode=async does without direct.
  bool buffered_aio = false;
  bool writable = true;
  // The flags the files were opened with (O_DIRECT, O_DSYNC, ...): the iocp
  // engine re-opens them overlapped with the same buffering.
  int open_flags = 0;
  // The caller's I/O buffers when they lie in one region that stays
  // allocated from Open to Close (empty: not said). io_uring registers it
  // (fixed buffers): a request whose buffer lies inside it then reads or
  // writes without the kernel pinning its pages each time. Any engine may
  // ignore it; requests outside it are served as usual.
  std::span<unsigned char> buffer_region;
};

class IoEngine {
 public:
  virtual ~IoEngine() = default;
  virtual std::string Name() const = 0;
  virtual IoCapabilities Capabilities() const = 0;
  // Registers the files (already open) and sets up rings/contexts/mappings.
  // May be called on another thread than the one that then submits.
  // libaio: InvalidArgument unless opts.direct or opts.buffered_aio (see
  // libaio_engine.cpp).
  virtual Status Open(std::span<const IoFile> files, const EngineOptions& opts) = 0;
  // Waits for the requests in flight (their buffers are in use until they
  // complete), then releases what Open set up. The descriptors stay open:
  // they belong to the caller.
  virtual Status Close() = 0;
  // Queues requests; returns how many were accepted (a prefix; fewer when
  // InFlight() reaches the queue depth). An error Status means the engine
  // itself failed; a request that fails (bad file index, EINVAL for a
  // misaligned O_DIRECT buffer, ENOSPC...) completes with a negative result.
  // One system call per Submit for the asynchronous engines: submitting each
  // request as soon as it is ready (a span of one, as fio does by default)
  // starts the device sooner; a batch saves system calls.
  // fsync/fdatasync cover the writes completed before they were submitted,
  // not those still in flight (as with fsync(2) beside other threads).
  virtual Result<size_t> Submit(std::span<IoRequest> requests) = 0;
  // Waits for at least min(min, InFlight(), out.size()) completions, or
  // until timeout_ns passes (-1 = no timeout, 0 = do not wait), and fills up
  // to out.size(). Returns how many were filled: 0 when nothing is in flight.
  // Completions come in any order; match them by user_data.
  virtual Result<size_t> Reap(size_t min, std::span<IoCompletion> out, Nanos timeout_ns) = 0;
  // Requests submitted and not yet reaped.
  virtual size_t InFlight() const = 0;
};

// Engine names: "sync", "io_uring", "libaio" (Linux), "iocp" (Windows),
// "mmap" (those compiled in), "null" (completes every request at once,
// touching no file).
std::vector<std::string> IoEngineNames();
// The engine sysbench's --file-io-mode=async stands for here: "libaio" on
// Linux, "iocp" on Windows.
std::string AsyncIoEngineName();
// OK when `name` is compiled in. InvalidArgument, one line, otherwise: for
// an engine its build option left out "<asked>: io_uring is not in this
// build (...)", for another platform's engine "<asked>: iocp is a Windows
// engine; ...", for an unknown name the valid ones.
Status CheckIoEngine(const std::string& name, std::string_view asked);
// InvalidArgument as CheckIoEngine says for a name not compiled in;
// Unavailable when compiled in but the kernel refuses it (message says why,
// one line).
Result<std::unique_ptr<IoEngine>> MakeIoEngine(const std::string& name, FileSystem& fs);
// Allocates a zero-filled buffer of `len` bytes (rounded up to a multiple of
// the alignment, a power of two) aligned for O_DIRECT; free with
// FreeIoBuffer (std::free cannot free it on Windows). nullptr when out of
// memory or the alignment is not a power of two. From kIoBufferHugeFrom
// bytes on, the buffer is whole 2 MiB pages, 2 MiB-aligned and advised for
// transparent huge pages (AdviseHugePages), so that large requests are not
// split on the way to the device.
inline constexpr size_t kIoBufferHugeFrom = size_t{512} << 10;
inline constexpr size_t kIoBufferHugePage = size_t{2} << 20;
void* AllocateIoBuffer(size_t len, size_t alignment = 4096);
// Whether AllocateIoBuffer(len, alignment) places the buffer in whole 2 MiB
// pages: from kIoBufferHugeFrom bytes on, once rounded to the alignment.
inline bool IoBufferInHugePages(size_t len, size_t alignment = 4096) {
  return (len + alignment - 1) / alignment * alignment >= kIoBufferHugeFrom;
}
void FreeIoBuffer(void* p);

}  // namespace loadcell
