#include "core/status.h"

#include <cstring>

namespace loadcell {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kFailedPrecondition:
      return "failed precondition";
    case StatusCode::kAlreadyExists:
      return "already exists";
    case StatusCode::kIoError:
      return "I/O error";
    case StatusCode::kUnavailable:
      return "unavailable";
    case StatusCode::kResourceExhausted:
      return "resource exhausted";
    case StatusCode::kCancelled:
      return "cancelled";
    case StatusCode::kInternal:
      return "internal error";
    case StatusCode::kUnimplemented:
      return "unimplemented";
    case StatusCode::kEndOfWork:
      return "end of work";
    case StatusCode::kNotReady:
      return "not ready";
  }
  return "unknown";
}

std::string_view ErrnoText(int err) {
  const std::string_view text = std::strerror(err);
  if (!text.starts_with("Unknown error")) return text;
  // The socket errors Windows' C runtime has numbers for but no text.
  switch (err) {
    case ETIMEDOUT:
      return "Connection timed out";
    case ECONNREFUSED:
      return "Connection refused";
    case ECONNRESET:
      return "Connection reset by peer";
    case ECONNABORTED:
      return "Software caused connection abort";
    case ENOTCONN:
      return "Transport endpoint is not connected";
    case ENETUNREACH:
      return "Network is unreachable";
    case EHOSTUNREACH:
      return "No route to host";
    case EADDRNOTAVAIL:
      return "Cannot assign requested address";
    case EWOULDBLOCK:
      return "Resource temporarily unavailable";
    default:
      return text;
  }
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  if (err_ != 0) return EscapeControlBytes(message_) + ": " + std::string(ErrnoText(err_));
  return EscapeControlBytes(message_);
}

std::string EscapeControlBytes(std::string_view text, std::string_view keep) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto hex = [&](std::string& out, unsigned char b) {
    out.append("\\x");
    out += kHex[b >> 4];
    out += kHex[b & 0xf];
  };
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    const auto b = static_cast<unsigned char>(ch);
    if (b == 0xc2 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80) {
      hex(out, b);  // a C1 control in UTF-8
      hex(out, static_cast<unsigned char>(text[++i]));
    } else if ((b >= 0x20 && b != 0x7f) || keep.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      hex(out, b);
    }
  }
  return out;
}

std::string_view CutAtCharacter(std::string_view text, size_t max_bytes, bool* cut) {
  if (cut != nullptr) *cut = text.size() > max_bytes;
  if (text.size() <= max_bytes) return text;
  size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

std::string EscapeControlBytesKeepingLines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    out += EscapeControlBytes(text.substr(pos, end - pos));
    if (end < text.size()) out += '\n';
    pos = end + 1;
  }
  return out;
}

Status PosixError(std::string_view context, int err) {
  StatusCode code = StatusCode::kIoError;
  switch (err) {
    case ENOENT:
      code = StatusCode::kNotFound;
      break;
    case EEXIST:
      code = StatusCode::kAlreadyExists;
      break;
    case ENOSPC:
    case EFBIG:
#ifdef EDQUOT  // Windows' C library has no quota errno
    case EDQUOT:
#endif
    case ENOMEM:
      code = StatusCode::kResourceExhausted;
      break;
    default:
      break;
  }
  return Status(code, std::string(context), err);
}

Status PosixUsageError(std::string_view context, int err) {
  return Status(StatusCode::kInvalidArgument, std::string(context), err);
}

int ExitCodeFor(const Status& s) {
  if (s.ok()) return 0;
  if (s.IsUsageError()) return 2;
  if (s.code() == StatusCode::kCancelled) return 130;
  return 1;
}

}  // namespace loadcell
