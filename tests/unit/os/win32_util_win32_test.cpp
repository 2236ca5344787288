// Windows only (the Windows build's unit_os): the CreateFileW arguments for
// every open flag loadcell uses, since Wine does not honour unbuffered or
// write-through I/O the way Windows does and so cannot show them; and the
// Win32 error mapping.
#include <gtest/gtest.h>

#include <cerrno>

#include "os/open_flags.h"
#include "os/win32_util.h"

namespace loadcell {
namespace {

struct FlagCase {
  const char* what;
  int flags;
  bool truncate;
  DWORD access;
  DWORD disposition;
  DWORD create_flags;
};

constexpr DWORD kNormal = FILE_ATTRIBUTE_NORMAL;

// --file-extra-flags (direct, dsync, sync) and SQLIO's -B (N: direct|dsync,
// H: direct, S: dsync, Y: none), with the dispositions of prepare and run.
const FlagCase kFlagCases[] = {
    {"read", O_RDONLY, true, GENERIC_READ, OPEN_EXISTING, kNormal},
    {"read-write", O_RDWR, true, GENERIC_READ | GENERIC_WRITE, OPEN_EXISTING, kNormal},
    {"create", O_WRONLY | O_CREAT, true, GENERIC_WRITE, OPEN_ALWAYS, kNormal},
    {"create+truncate", O_WRONLY | O_CREAT | O_TRUNC, true, GENERIC_WRITE, CREATE_ALWAYS, kNormal},
    {"truncate later", O_WRONLY | O_CREAT | O_TRUNC, false, GENERIC_WRITE, OPEN_ALWAYS, kNormal},
    {"truncate existing", O_RDWR | O_TRUNC, true, GENERIC_READ | GENERIC_WRITE, TRUNCATE_EXISTING,
     kNormal},
    {"exclusive", O_RDWR | O_CREAT | O_EXCL, true, GENERIC_READ | GENERIC_WRITE, CREATE_NEW,
     kNormal},
    {"direct (-BH)", O_RDWR | O_DIRECT, true, GENERIC_READ | GENERIC_WRITE, OPEN_EXISTING,
     kNormal | FILE_FLAG_NO_BUFFERING},
    {"dsync (-BS)", O_RDWR | O_DSYNC, true, GENERIC_READ | GENERIC_WRITE, OPEN_EXISTING,
     kNormal | FILE_FLAG_WRITE_THROUGH},
    {"sync", O_RDWR | O_SYNC, true, GENERIC_READ | GENERIC_WRITE, OPEN_EXISTING,
     kNormal | FILE_FLAG_WRITE_THROUGH},
    {"direct+dsync (-BN)", O_RDWR | O_DIRECT | O_DSYNC, true, GENERIC_READ | GENERIC_WRITE,
     OPEN_EXISTING, kNormal | FILE_FLAG_NO_BUFFERING | FILE_FLAG_WRITE_THROUGH},
    {"no follow", O_RDONLY | O_NOFOLLOW, true, GENERIC_READ, OPEN_EXISTING,
     kNormal | FILE_FLAG_OPEN_REPARSE_POINT},
    // DiskSpd's -ft: the attribute, as DiskSpd opens with it; -Sr: nothing
    // at CreateFileW (an FSCTL on the opened handle).
    {"temporary (-ft)", O_RDWR | O_TEMPORARY_HINT, true, GENERIC_READ | GENERIC_WRITE,
     OPEN_EXISTING, kNormal | FILE_ATTRIBUTE_TEMPORARY},
    {"local cache off (-Sr)", O_RDONLY | O_LOCAL_CACHE_OFF, true, GENERIC_READ, OPEN_EXISTING,
     kNormal},
};

TEST(CreateFileArgsTest, EveryOpenFlagMapsToItsCreateFileFlag) {
  for (const FlagCase& c : kFlagCases) {
    SCOPED_TRACE(c.what);
    const CreateFileArgs a = CreateFileArgsFor(c.flags, c.truncate);
    EXPECT_EQ(a.access, c.access);
    EXPECT_EQ(a.disposition, c.disposition);
    EXPECT_EQ(a.flags, c.create_flags);
  }
}

struct ErrorCase {
  DWORD error;
  int err;
  StatusCode code;
};

const ErrorCase kErrorCases[] = {
    {ERROR_FILE_NOT_FOUND, ENOENT, StatusCode::kNotFound},
    {ERROR_PATH_NOT_FOUND, ENOENT, StatusCode::kNotFound},
    {ERROR_FILE_EXISTS, EEXIST, StatusCode::kAlreadyExists},
    {ERROR_DISK_FULL, ENOSPC, StatusCode::kResourceExhausted},
    {ERROR_ACCESS_DENIED, EACCES, StatusCode::kIoError},
    {ERROR_WRITE_PROTECT, EROFS, StatusCode::kIoError},
};

TEST(Win32ErrorTest, MapsToTheErrnoPosixErrorWouldUse) {
  for (const ErrorCase& c : kErrorCases) {
    SCOPED_TRACE(c.error);
    const Status s = Win32Error("open 'x'", c.error);
    EXPECT_EQ(s.err(), c.err);
    EXPECT_EQ(s.code(), c.code);
  }
}

TEST(Win32ErrorTest, AnUnmappedErrorKeepsWindowsTextAndNumber) {
  const Status s = Win32Error("open 'x'", ERROR_NOT_READY);
  EXPECT_EQ(s.err(), 0);
  EXPECT_NE(s.message().find("(Windows error 21)"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().rfind("open 'x': ", 0), 0u) << s.message();
}

TEST(Utf16Test, RoundTripsNonAsciiPaths) {
  const std::string path = "C:\\tmp\\\xc3\xa9t\xc3\xa9-\xe6\xb8\xac\xe8\xa9\xa6.dat";
  EXPECT_EQ(Widen(path).size(), 17u);  // one UTF-16 unit per character here
  EXPECT_EQ(Narrow(Widen(path)), path);
}

TEST(WidePathTest, ShortPathsAreAsWritten) {
  EXPECT_EQ(WidePath("C:\\tmp/test_file.0"), L"C:\\tmp/test_file.0");
  EXPECT_EQ(WidePath("R:\\testfile.dat"), L"R:\\testfile.dat");
}

TEST(WidePathTest, LongFormPathsGetBackslashesOnly) {
  // loadcell joins a folder and a file name with '/': in a \\?\ path that
  // would be part of the name.
  EXPECT_EQ(WidePath("\\\\?\\C:\\long/test_file.0"), L"\\\\?\\C:\\long\\test_file.0");
}

TEST(WidePathTest, PathsPastMaxPathBecomeLongFormFullPaths) {
  std::string dir = "C:\\t";
  while (dir.size() < kShortPathLimit + 20) dir += "\\" + std::string(40, 'd');
  const std::wstring wide = WidePath(dir + "/test_file.0");
  EXPECT_EQ(wide.rfind(L"\\\\?\\C:\\t\\", 0), 0u);
  EXPECT_EQ(wide.substr(wide.size() - 12), L"\\test_file.0");
  EXPECT_EQ(wide.find(L'/'), std::wstring::npos);
  EXPECT_EQ(
      WidePath("\\\\server\\share\\" + dir.substr(3)).rfind(L"\\\\?\\UNC\\server\\share\\", 0), 0u);
}

}  // namespace
}  // namespace loadcell
