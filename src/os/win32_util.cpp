#include "os/win32_util.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <winioctl.h>

#include <cerrno>

#include "os/open_flags.h"

namespace loadcell {

std::wstring Widen(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int n =
      MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
  std::wstring out(static_cast<size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
  return out;
}

std::wstring WidePath(std::string_view utf8) {
  std::wstring path = Widen(utf8);
  constexpr std::wstring_view kLongPrefix = L"\\\\?\\";
  if (path.starts_with(kLongPrefix)) {
    for (wchar_t& c : path) c = c == L'/' ? L'\\' : c;
    return path;
  }
  if (path.size() < kShortPathLimit) return path;
  const DWORD n = GetFullPathNameW(path.c_str(), 0, nullptr, nullptr);
  if (n == 0) return path;  // CreateFileW says what is wrong with it
  std::wstring full(n, L'\0');
  const DWORD written = GetFullPathNameW(path.c_str(), n, full.data(), nullptr);
  if (written == 0 || written >= n) return path;
  full.resize(written);
  if (full.starts_with(L"\\\\")) return L"\\\\?\\UNC\\" + full.substr(2);  // \\server\share
  return std::wstring(kLongPrefix) + full;
}

std::string Narrow(std::wstring_view utf16) {
  if (utf16.empty()) return {};
  const int n = WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()),
                                    nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, utf16.data(), static_cast<int>(utf16.size()), out.data(), n,
                      nullptr, nullptr);
  return out;
}

int ErrnoOfWin32Error(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_DRIVE:
    case ERROR_BAD_NETPATH:
      return ENOENT;
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return EEXIST;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
      return EACCES;
    case ERROR_WRITE_PROTECT:
      return EROFS;
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return ENOSPC;
    case ERROR_NOT_ENOUGH_MEMORY:
    case ERROR_OUTOFMEMORY:
      return ENOMEM;
    case ERROR_INVALID_PARAMETER:
    case ERROR_INVALID_NAME:
    case ERROR_DIRECTORY:
      return EINVAL;
    case ERROR_DIR_NOT_EMPTY:
      return ENOTEMPTY;
    case ERROR_FILENAME_EXCED_RANGE:
      return ENAMETOOLONG;
    case ERROR_BUSY:
      return EBUSY;
    case ERROR_CRC:
    case ERROR_IO_DEVICE:
    case ERROR_SECTOR_NOT_FOUND:
      return EIO;
    // Winsock's (WSAGetLastError) that os/tcp.h's callers look at.
    case WSAETIMEDOUT:
      return ETIMEDOUT;
    case WSAEWOULDBLOCK:
      return EWOULDBLOCK;
    case WSAEINTR:
      return EINTR;
    case WSAECONNREFUSED:
      return ECONNREFUSED;
    case WSAECONNRESET:
      return ECONNRESET;
    case WSAECONNABORTED:
      return ECONNABORTED;
    case WSAENOTCONN:
    case WSAESHUTDOWN:
      return ENOTCONN;
    case WSAENETUNREACH:
    case WSAENETDOWN:
      return ENETUNREACH;
    case WSAEHOSTUNREACH:
    case WSAEHOSTDOWN:
      return EHOSTUNREACH;
    case WSAEADDRNOTAVAIL:
      return EADDRNOTAVAIL;
    default:
      return 0;
  }
}

std::string Win32ErrorText(DWORD error) {
  wchar_t* text = nullptr;
  const DWORD n = FormatMessageW(
      FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
      nullptr, error, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string out = n > 0 ? Narrow(std::wstring_view(text, n)) : std::string();
  LocalFree(text);
  while (!out.empty() &&
         (out.back() == '\n' || out.back() == '\r' || out.back() == ' ' || out.back() == '.')) {
    out.pop_back();
  }
  return out.empty() ? "unknown error" : out;
}

Status Win32Error(std::string_view context, DWORD error) {
  const int err = ErrnoOfWin32Error(error);
  if (err != 0) return PosixError(context, err);
  return Status::IoError(
      fmt::format("{}: {} (Windows error {})", context, Win32ErrorText(error), error));
}

CreateFileArgs CreateFileArgsFor(int flags, bool truncate) {
  CreateFileArgs a;
  switch (flags & (O_RDONLY | O_WRONLY | O_RDWR)) {
    case O_WRONLY:
      a.access = GENERIC_WRITE;
      break;
    case O_RDWR:
      a.access = GENERIC_READ | GENERIC_WRITE;
      break;
    default:
      a.access = GENERIC_READ;
      break;
  }
  const bool trunc = truncate && (flags & O_TRUNC) != 0;
  if ((flags & O_CREAT) != 0 && (flags & O_EXCL) != 0) {
    a.disposition = CREATE_NEW;
  } else if ((flags & O_CREAT) != 0) {
    a.disposition = trunc ? CREATE_ALWAYS : OPEN_ALWAYS;
  } else {
    a.disposition = trunc ? TRUNCATE_EXISTING : OPEN_EXISTING;
  }
  if ((flags & O_DIRECT) != 0) a.flags |= FILE_FLAG_NO_BUFFERING;
  if ((flags & (O_DSYNC | O_SYNC)) != 0) a.flags |= FILE_FLAG_WRITE_THROUGH;
  if ((flags & O_NOFOLLOW) != 0) a.flags |= FILE_FLAG_OPEN_REPARSE_POINT;
  if ((flags & O_TEMPORARY_HINT) != 0) a.flags |= FILE_ATTRIBUTE_TEMPORARY;
  return a;
}

Status DisableLocalBuffering(HANDLE h, const std::string& what) {
  // winioctl.h's value, which older SDKs lack.
  constexpr DWORD kDisableLocalBuffering =
      CTL_CODE(FILE_DEVICE_FILE_SYSTEM, 174, METHOD_BUFFERED, FILE_ANY_ACCESS);
  DWORD got = 0;
  if (!DeviceIoControl(h, kDisableLocalBuffering, nullptr, 0, nullptr, 0, &got, nullptr)) {
    return Win32Error("FSCTL_DISABLE_LOCAL_BUFFERING on '" + what + "' (-Sr)", GetLastError());
  }
  return Status::Ok();
}

}  // namespace loadcell
