#include "dbsim/null_file_system.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace loadcell {

Status DbNullFileSystem::Hold(int fd, uint64_t bytes) {
  if (Find(fd) != nullptr)
    return Status::Internal(fmt::format("null engine: fd {} held twice", fd));
  // calloc: the pages of a large block are mapped on first touch, so a
  // file's capacity costs memory only as far as it is written.
  // NOLINTNEXTLINE(cppcoreguidelines-no-malloc)
  auto* p = static_cast<uint8_t*>(std::calloc(std::max<uint64_t>(bytes, 1), 1));
  if (p == nullptr) {
    return Status::ResourceExhausted(
        fmt::format("null engine: no memory for a file of {} bytes", bytes));
  }
  images_.push_back({fd, bytes, std::unique_ptr<uint8_t, Free>(p)});
  return Status::Ok();
}

DbNullFileSystem::Image* DbNullFileSystem::Find(int fd) {
  for (Image& image : images_) {
    if (image.fd == fd) return &image;
  }
  return nullptr;
}

Result<size_t> DbNullFileSystem::PRead(int fd, void* buf, size_t len, uint64_t offset) {
  auto* out = static_cast<uint8_t*>(buf);
  const Image* image = Find(fd);
  const uint64_t have =
      image == nullptr || offset >= image->size ? 0 : std::min<uint64_t>(len, image->size - offset);
  if (have > 0) std::memcpy(out, image->bytes.get() + offset, have);
  std::memset(out + have, 0, len - have);
  return len;
}

Result<size_t> DbNullFileSystem::PWrite(int fd, const void* buf, size_t len, uint64_t offset) {
  const Image* image = Find(fd);
  if (image != nullptr && offset < image->size) {
    std::memcpy(image->bytes.get() + offset, buf, std::min<uint64_t>(len, image->size - offset));
  }
  return len;
}

}  // namespace loadcell
