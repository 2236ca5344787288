#include "cli/option_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <string_view>

#include "os/file_system.h"

namespace loadcell {
namespace {

void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// `bytes` (after its byte order mark) as UTF-16 of the given byte order,
// in UTF-8; an odd byte count or a lone surrogate is refused.
Result<std::string> Utf16ToUtf8(std::string_view bytes, bool little_endian,
                                const std::string& what) {
  const auto unit = [&](size_t i) {
    const auto lo = static_cast<unsigned char>(bytes[little_endian ? i : i + 1]);
    const auto hi = static_cast<unsigned char>(bytes[little_endian ? i + 1 : i]);
    return static_cast<uint32_t>(lo | (hi << 8));
  };
  const auto bad = [&](std::string_view why) {
    return Status::InvalidArgument(fmt::format(
        "{}: starts with a UTF-16 byte order mark but {}: save it as UTF-8", what, why));
  };
  if (bytes.size() % 2 != 0) return bad("has an odd number of bytes");
  std::string out;
  out.reserve(bytes.size() / 2);
  for (size_t i = 0; i < bytes.size(); i += 2) {
    uint32_t cp = unit(i);
    if (cp >= 0xDC00 && cp <= 0xDFFF) return bad("holds a lone low surrogate");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      const uint32_t low = i + 3 < bytes.size() ? unit(i + 2) : 0;
      if (low < 0xDC00 || low > 0xDFFF) return bad("holds a lone high surrogate");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      i += 2;
    }
    AppendUtf8(cp, out);
  }
  return out;
}

}  // namespace

Result<std::string> ReadOptionFile(const std::string& path, const std::string& what) {
  // Checked before opening: opening a FIFO would block until a writer came.
  Result<FileInfo> info = DefaultFileSystem().Stat(path);
  if (info.ok() && info->exists && !info->is_regular) {
    return Status::InvalidArgument(what + ": not a regular file (give a text file of at most 1M)");
  }
  if (info.ok() && info->exists && info->size > kMaxOptionFileBytes) {
    return Status::InvalidArgument(what + ": larger than 1M, the limit for an options file");
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return PosixUsageError(what + ": cannot open", errno);
  std::string text;
  char buf[4096];
  size_t n;
  // The file may grow after the check: one byte past the limit is enough to tell.
  while (text.size() <= kMaxOptionFileBytes && (n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
    text.append(buf, n);
  }
  const int err = std::ferror(f) ? errno : 0;
  std::fclose(f);
  if (err != 0) return PosixUsageError(what + ": cannot read", err);
  if (text.size() > kMaxOptionFileBytes) {
    return Status::InvalidArgument(what + ": larger than 1M, the limit for an options file");
  }
  // A UTF-8 byte order mark, as Windows editors write, is no part of line 1;
  // UTF-16 (Notepad's "Unicode", what PowerShell 5's `>` writes) is read as
  // the text it holds.
  if (text.rfind("\xEF\xBB\xBF", 0) == 0) text.erase(0, 3);
  if (text.rfind("\xFF\xFE", 0) == 0)
    return Utf16ToUtf8(std::string_view(text).substr(2), true, what);
  if (text.rfind("\xFE\xFF", 0) == 0)
    return Utf16ToUtf8(std::string_view(text).substr(2), false, what);
  return text;
}

}  // namespace loadcell
