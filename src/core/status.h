#pragma once
// Status and Result<T>: how errors cross module boundaries.
// Exceptions are used only in command-line parsing and main().

#include <cerrno>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace loadcell {

enum class StatusCode {
  kOk = 0,
  kInvalidArgument,     // bad user input: exit code 2
  kNotFound,            // a named thing does not exist (also usage, exit 2)
  kFailedPrecondition,  // refused as things stand, e.g. a file that is not loadcell's (exit 2)
  kAlreadyExists,
  kIoError,            // an operating-system call failed (exit 1)
  kUnavailable,        // a server or device is not reachable (exit 1)
  kResourceExhausted,  // ENOSPC and friends (exit 1)
  kCancelled,          // the user interrupted (SIGINT/SIGTERM, never errno EINTR; exit 130)
  kInternal,           // a bug (exit 1)
  kUnimplemented,
  // Not an error: a worker has no more events to run (runner/workload.h
  // EndOfWork()). The runner consumes it; should one escape it exits 1.
  kEndOfWork,
  // What a run needs is not in place: a test's files not prepared, half
  // written or of another size (exit 1: the run failed, as sysbench's does;
  // not a usage error). Last, so that the codes before it keep their
  // numbers.
  kNotReady,
};

std::string_view StatusCodeName(StatusCode code);

// strerror's text for `err`, or, where the C library has none (Windows' has
// no text for the socket errors ETIMEDOUT, ECONNREFUSED, ...), the text
// glibc gives.
std::string_view ErrnoText(int err);

// A Status is either OK or a code with a one-line message and, where an
// operating-system call failed, the errno it returned.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message, int err = 0)
      : code_(code), err_(err), message_(std::move(message)) {}

  static Status Ok() { return Status(); }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status FailedPrecondition(std::string m) {
    return {StatusCode::kFailedPrecondition, std::move(m)};
  }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status IoError(std::string m, int err = 0) {
    return {StatusCode::kIoError, std::move(m), err};
  }
  static Status Unavailable(std::string m, int err = 0) {
    return {StatusCode::kUnavailable, std::move(m), err};
  }
  static Status ResourceExhausted(std::string m, int err = 0) {
    return {StatusCode::kResourceExhausted, std::move(m), err};
  }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status Cancelled(std::string m) { return {StatusCode::kCancelled, std::move(m)}; }
  static Status Unimplemented(std::string m) { return {StatusCode::kUnimplemented, std::move(m)}; }
  static Status NotReady(std::string m) { return {StatusCode::kNotReady, std::move(m)}; }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  int err() const { return err_; }
  const std::string& message() const { return message_; }
  // "message" for usage errors; "message: ErrnoText(errno)" where err() != 0.
  std::string ToString() const;
  // True for the codes that mean the user asked for something invalid.
  bool IsUsageError() const {
    return code_ == StatusCode::kInvalidArgument || code_ == StatusCode::kNotFound ||
           code_ == StatusCode::kFailedPrecondition;
  }

 private:
  StatusCode code_ = StatusCode::kOk;
  int err_ = 0;
  std::string message_;
};

// The one place where errno becomes a Status: ENOENT is kNotFound, EEXIST
// kAlreadyExists, ENOSPC/EFBIG/EDQUOT/ENOMEM kResourceExhausted, every other
// errno (EINTR included: an interrupted call is a failed call, the user's
// interrupt is seen through StopRequested() instead) kIoError; err() keeps it.
Status PosixError(std::string_view context, int err);

// `text` with its control bytes (below 0x20, and 0x7f) written as \xHH, so
// that bytes from input files (a config line, a file name, a script's
// option value) cannot move the cursor, recolour the terminal or break a
// message into lines. The C1 controls U+0080..U+009F in UTF-8 (0xc2 0x80 to
// 0xc2 0x9f: a UTF-8 terminal reads U+009B as CSI) are escaped the same way,
// both bytes. Other bytes (UTF-8 included) stay as they are; so do the
// control bytes listed in `keep` (e.g. "\t\n\r" for a page's text).
std::string EscapeControlBytes(std::string_view text, std::string_view keep = {});
// At most `max_bytes` of `text` for a message, cut at the start of a UTF-8
// character; `cut` is set when anything was left off.
std::string_view CutAtCharacter(std::string_view text, size_t max_bytes, bool* cut = nullptr);
// The same for a text of several lines (a table, a CSV document): every
// control byte but the newlines that end its lines.
std::string EscapeControlBytesKeepingLines(std::string_view text);
// The same for a path the user named (a config file, a result to read, an
// output file): a usage error (kInvalidArgument, exit 2) whatever the errno,
// which err() keeps, so that ToString() reads "context: strerror(err)".
Status PosixUsageError(std::string_view context, int err);

// Process exit code for a status: 0 ok, 2 usage, 130 cancelled, 1 otherwise
// (kEndOfWork included).
int ExitCodeFor(const Status& s);

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}         // NOLINT(google-explicit-constructor)
  Result(Status status) : v_(std::move(status)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return v_.index() == 0; }
  const Status& status() const {
    static const Status kOkStatus;
    return ok() ? kOkStatus : std::get<1>(v_);
  }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

 private:
  std::variant<T, Status> v_;
};

#define LC_CONCAT_INNER_(a, b) a##b
#define LC_CONCAT_(a, b) LC_CONCAT_INNER_(a, b)

#define LC_RETURN_IF_ERROR(expr)             \
  do {                                       \
    ::loadcell::Status lc_status_ = (expr);  \
    if (!lc_status_.ok()) return lc_status_; \
  } while (0)

// `tmp` is a name being declared and `lhs` may be a declaration
// (`size_t n`): neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define LC_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)

#define LC_ASSIGN_OR_RETURN(lhs, expr) \
  LC_ASSIGN_OR_RETURN_IMPL_(LC_CONCAT_(lc_result_, __LINE__), lhs, expr)

}  // namespace loadcell
