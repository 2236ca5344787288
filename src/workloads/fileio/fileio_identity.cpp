#include "workloads/fileio/fileio_identity.h"

#include <fcntl.h>
#include <fmt/format.h>

#include <cstring>

#include "workloads/fileio/fileio_data.h"

namespace loadcell {
namespace {

// Why the first kBlockStampBytes of test file `f` (`head`) do not carry
// loadcell's mark for manifest `m`; "" when they do, or when `m` gives no
// mark to check.
std::string MarkProblem(const FileManifest& m, const ManifestFile& f, const unsigned char* head) {
  if (m.stamped) {
    const BlockStamp st = ReadStamp(head);
    if (!IsBlockStampMagic(st.magic) || st.file != TestFileIndex(f.name) || st.offset != 0) {
      return "does not start with loadcell's block stamp for it";
    }
    return "";
  }
  unsigned char want[kBlockStampBytes];
  if (m.pattern == "zero") {
    std::memset(want, 0, sizeof want);
  } else if (m.pattern == "sequence") {
    FillSequence(want, sizeof want, 0);
  } else {
    return "";  // random bytes without stamps, or a mix: nothing to recognise
  }
  if (std::memcmp(head, want, sizeof want) != 0) {
    return fmt::format("does not start with the {} pattern loadcell wrote", m.pattern);
  }
  return "";
}

}  // namespace

Result<IdentityCheck> CheckIdentity(FileSystem& fs, const DirHandle& dir, const FileManifest& m,
                                    const ManifestFile& f) {
  LC_ASSIGN_OR_RETURN(const FileInfo info, fs.StatAt(dir, f.name));
  if (!info.exists) return IdentityCheck{IdentityCheck::kMissing, "does not exist"};
  if (info.is_symlink) return IdentityCheck{IdentityCheck::kNotOurs, "is a symbolic link"};
  if (!info.is_regular) return IdentityCheck{IdentityCheck::kNotOurs, "is not a regular file"};
  if (!(info.id() == f.id)) {
    return IdentityCheck{IdentityCheck::kNotOurs,
                         "is not the file loadcell created (another device, inode or birth)"};
  }
  if (f.state != FileState::kComplete) return IdentityCheck{};
  if (info.size != f.size) {
    return IdentityCheck{IdentityCheck::kNotOurs,
                         fmt::format("has {} bytes where loadcell wrote {}", info.size, f.size)};
  }
  if (info.size < kBlockStampBytes) return IdentityCheck{};
  LC_ASSIGN_OR_RETURN(const int fd, fs.OpenAt(dir, f.name, O_RDONLY, 0644, &f.id));
  unsigned char head[kBlockStampBytes];
  Status st = ReadFully(fs, fd, head, sizeof head, 0, "reading '" + EntryPath(dir, f.name) + "'");
  (void)fs.Close(fd);
  LC_RETURN_IF_ERROR(st);
  if (std::string why = MarkProblem(m, f, head); !why.empty()) {
    return IdentityCheck{IdentityCheck::kNotOurs, why};
  }
  return IdentityCheck{};
}

Result<int> OpenTestFile(FileSystem& fs, const std::string& dir, const std::string& name, int flags,
                         const ManifestFile* entry) {
  LC_ASSIGN_OR_RETURN(ScopedDir d, OpenScopedDir(fs, dir));
  return fs.OpenAt(d.get(), name, flags, 0644, entry != nullptr ? &entry->id : nullptr);
}

}  // namespace loadcell
