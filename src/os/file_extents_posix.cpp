#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <vector>

#if defined(__linux__)
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#include "os/file_extents.h"
#include "os/host_facts.h"

namespace loadcell {
namespace {

// An open file, closed on every way out.
class ReadOnlyFile {
 public:
  explicit ReadOnlyFile(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}
  ~ReadOnlyFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// The holes of [0, size) of `fd` (SEEK_HOLE, then SEEK_DATA to its end).
Result<std::vector<ByteRange>> HoleRanges(int fd, off_t size, const std::string& path) {
  std::vector<ByteRange> holes;
  off_t at = 0;
  while (at < size) {
    const off_t hole = ::lseek(fd, at, SEEK_HOLE);
    if (hole < 0) {
      const int err = errno;
      if (err == EINVAL || err == ENOTSUP) {
        return Status::Unimplemented(path + ": the file system does not report holes");
      }
      return PosixError(path, err);
    }
    if (hole >= size) break;
    off_t data = ::lseek(fd, hole, SEEK_DATA);
    if (data < 0) data = size;  // ENXIO: a hole to the end
    holes.push_back({static_cast<uint64_t>(hole), static_cast<uint64_t>(data - hole)});
    at = data;
  }
  return holes;
}

// The extent map of [0, size) of `fd`, a batch at a time; Unimplemented
// where the file system (or the system) gives none.
Result<std::vector<FiemapEntry>> ExtentMap(int fd, uint64_t size, const std::string& path) {
  std::vector<FiemapEntry> out;
#if defined(__linux__)
  constexpr unsigned kBatch = 64;
  std::vector<unsigned char> buf(sizeof(struct fiemap) + kBatch * sizeof(struct fiemap_extent));
  uint64_t start = 0;
  while (start < size) {
    std::fill(buf.begin(), buf.end(), 0);
    auto* map = reinterpret_cast<struct fiemap*>(buf.data());
    map->fm_start = start;
    map->fm_length = size - start;
    map->fm_extent_count = kBatch;
    if (::ioctl(fd, FS_IOC_FIEMAP, map) != 0) {
      const int err = errno;
      if (err == EOPNOTSUPP || err == ENOTTY || err == EINVAL) {
        return Status::Unimplemented(path + ": the file system gives no extent map (FIEMAP)");
      }
      return PosixError(path + ": FIEMAP", err);
    }
    if (map->fm_mapped_extents == 0) break;
    // The extents follow the header (fm_extents, a flexible array).
    const auto* extents =
        reinterpret_cast<const struct fiemap_extent*>(buf.data() + sizeof(struct fiemap));
    const unsigned mapped = std::min(map->fm_mapped_extents, kBatch);
    bool last = false;
    for (unsigned i = 0; i < mapped; ++i) {
      const struct fiemap_extent& e = extents[i];
      out.push_back({e.fe_logical, e.fe_length, e.fe_flags});
      last = last || (e.fe_flags & FIEMAP_EXTENT_LAST) != 0;
    }
    const struct fiemap_extent& end = extents[mapped - 1];
    if (last || end.fe_logical + end.fe_length <= start) break;
    start = end.fe_logical + end.fe_length;
  }
  return out;
#else
  (void)fd;
  (void)size;
  return Status::Unimplemented(path + ": this system gives no extent map");
#endif
}

uint64_t SumOf(const std::vector<ByteRange>& ranges) {
  uint64_t n = 0;
  for (const ByteRange& r : ranges) n += r.length;
  return n;
}

}  // namespace

Result<uint64_t> FileHoleBytes(const std::string& path) {
  const ReadOnlyFile f(path);
  if (f.fd() < 0) return PosixError(path, errno);
  struct stat st {};
  if (::fstat(f.fd(), &st) != 0) return PosixError(path, errno);
  LC_ASSIGN_OR_RETURN(std::vector<ByteRange> holes, HoleRanges(f.fd(), st.st_size, path));
  return SumOf(holes);
}

Result<FileZeroRanges> ReadFileZeroRanges(const std::string& path) {
  const ReadOnlyFile f(path);
  if (f.fd() < 0) return PosixError(path, errno);
  struct stat st {};
  if (::fstat(f.fd(), &st) != 0) return PosixError(path, errno);
  const auto size = static_cast<uint64_t>(st.st_size);
  LC_ASSIGN_OR_RETURN(std::vector<ByteRange> holes, HoleRanges(f.fd(), st.st_size, path));
  FileZeroRanges z;
  z.hole_bytes = SumOf(holes);
  Result<std::vector<FiemapEntry>> map = ExtentMap(f.fd(), size, path);
  if (!map.ok()) {
    z.unwritten_unknown = map.status().message();
    z.never_written_bytes = z.hole_bytes;
    return z;
  }
  const std::vector<ByteRange> unwritten = UnwrittenRangesOf(*map);
  z.unwritten_bytes = CoveredBytes(unwritten, size);
  holes.insert(holes.end(), unwritten.begin(), unwritten.end());
  z.never_written_bytes = CoveredBytes(std::move(holes), size);
  return z;
}

}  // namespace loadcell
