#include "validity/zero_pages.h"

#include <algorithm>
#include <vector>

#include "os/open_flags.h"

namespace loadcell::validity {

std::vector<uint64_t> ZeroSampleOffsets(uint64_t size, uint64_t pages) {
  std::vector<uint64_t> out;
  const uint64_t in_file = (size + kZeroSamplePageBytes - 1) / kZeroSamplePageBytes;
  const uint64_t n = std::min(pages, in_file);
  for (uint64_t k = 0; k < n; ++k) {
    const uint64_t page = k * in_file / n;
    out.push_back(page * kZeroSamplePageBytes);
  }
  return out;
}

ZeroPageSample SampleZeroPages(FileSystem& fs, const std::vector<std::string>& paths) {
  ZeroPageSample s;
  if (paths.empty()) return s;
  const uint64_t per_file =
      std::max<uint64_t>(1, (kZeroSamplePages + paths.size() - 1) / paths.size());
  std::vector<uint8_t> page(kZeroSamplePageBytes);
  for (const std::string& path : paths) {
    const Result<FileInfo> info = fs.Stat(path);
    if (!info.ok() || !info.value().is_regular) continue;  // a device is not sampled
    const Result<int> fd = fs.Open(path, O_RDONLY);
    if (!fd.ok()) {
      s.unknown = fd.status().message();
      return s;
    }
    bool zero_here = false;
    for (const uint64_t offset : ZeroSampleOffsets(info.value().size, per_file)) {
      const size_t len =
          static_cast<size_t>(std::min(kZeroSamplePageBytes, info.value().size - offset));
      const Result<size_t> got = fs.PRead(fd.value(), page.data(), len, offset);
      if (!got.ok() || got.value() == 0) continue;
      ++s.sampled;
      if (std::all_of(page.begin(), page.begin() + static_cast<std::ptrdiff_t>(got.value()),
                      [](uint8_t b) { return b == 0; })) {
        ++s.zero;
        zero_here = true;
      }
    }
    (void)fs.Close(fd.value());
    if (zero_here) s.files.push_back(path);
  }
  return s;
}

}  // namespace loadcell::validity
