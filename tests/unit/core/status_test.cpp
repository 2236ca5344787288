#include "core/status.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "testing/status.h"

namespace loadcell {
namespace {

TEST(Status, DefaultIsOk) {
  const Status s;
  EXPECT_OK(s);
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.err(), 0);
  EXPECT_EQ(s.ToString(), "ok");
  EXPECT_OK(Status::Ok());
}

// Every platform's text for the socket errors (Windows' C runtime has none).
TEST(Status, SocketErrorsReadInWords) {
  EXPECT_EQ(ErrnoText(ECONNREFUSED), "Connection refused");
  EXPECT_EQ(ErrnoText(ETIMEDOUT), "Connection timed out");
  EXPECT_EQ(ErrnoText(ECONNRESET), "Connection reset by peer");
  EXPECT_EQ(Status::Unavailable("cannot connect to db1:5432", ECONNREFUSED).ToString(),
            "cannot connect to db1:5432: Connection refused");
  EXPECT_EQ(ErrnoText(EIO), std::strerror(EIO));
}

TEST(Status, CarriesCodeMessageAndErrno) {
  const Status s = Status::IoError("cannot read test_file.0", EIO);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.err(), EIO);
  EXPECT_EQ(s.message(), "cannot read test_file.0");
  EXPECT_EQ(s.ToString(), std::string("cannot read test_file.0: ") + std::strerror(EIO));
  EXPECT_FALSE(s.IsUsageError());

  const Status usage = Status::InvalidArgument("unknown option --foo");
  EXPECT_EQ(usage.ToString(), "unknown option --foo");
  EXPECT_TRUE(usage.IsUsageError());
  EXPECT_TRUE(Status::NotFound("x").IsUsageError());
  EXPECT_TRUE(Status::FailedPrecondition("x").IsUsageError());
  EXPECT_FALSE(Status::Internal("x").IsUsageError());
}

TEST(Status, CodeNames) {
  EXPECT_EQ(StatusCodeName(StatusCode::kOk), "ok");
  EXPECT_EQ(StatusCodeName(StatusCode::kInvalidArgument), "invalid argument");
  EXPECT_EQ(StatusCodeName(StatusCode::kResourceExhausted), "resource exhausted");
}

TEST(PosixError, MapsErrnoAndKeepsIt) {
  const Status nospc = PosixError("write test_file.3", ENOSPC);
  EXPECT_EQ(nospc.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(nospc.err(), ENOSPC);
  EXPECT_EQ(nospc.message(), "write test_file.3");
  EXPECT_EQ(nospc.ToString(), std::string("write test_file.3: ") + std::strerror(ENOSPC));

  EXPECT_EQ(PosixError("open", ENOENT).code(), StatusCode::kNotFound);
  EXPECT_EQ(PosixError("open", EEXIST).code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(PosixError("mmap", ENOMEM).code(), StatusCode::kResourceExhausted);
  // An interrupted call is a failed call: only the stop signal means the
  // user interrupted.
  const Status eintr = PosixError("read", EINTR);
  EXPECT_EQ(eintr.code(), StatusCode::kIoError);
  EXPECT_EQ(eintr.err(), EINTR);
  EXPECT_EQ(ExitCodeFor(eintr), 1);
  const Status eio = PosixError("pread", EIO);
  EXPECT_EQ(eio.code(), StatusCode::kIoError);
  EXPECT_EQ(eio.err(), EIO);
}

TEST(PosixUsageError, IsAUsageErrorThatKeepsTheErrno) {
  const Status s = PosixUsageError("--config-file=x.conf: cannot open", EACCES);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.err(), EACCES);
  EXPECT_EQ(s.ToString(),
            std::string("--config-file=x.conf: cannot open: ") + std::strerror(EACCES));
  EXPECT_EQ(ExitCodeFor(s), 2);
}

TEST(ExitCodeFor, StableExitCodes) {
  EXPECT_EQ(ExitCodeFor(Status::Ok()), 0);
  EXPECT_EQ(ExitCodeFor(Status::InvalidArgument("x")), 2);
  EXPECT_EQ(ExitCodeFor(Status::NotFound("x")), 2);
  EXPECT_EQ(ExitCodeFor(Status::FailedPrecondition("x")), 2);
  EXPECT_EQ(ExitCodeFor(Status::Cancelled("x")), 130);
  EXPECT_EQ(ExitCodeFor(Status::IoError("x", EIO)), 1);
  EXPECT_EQ(ExitCodeFor(PosixError("x", ENOSPC)), 1);
  EXPECT_EQ(ExitCodeFor(Status::NotReady("x")), 1);
  EXPECT_FALSE(Status::NotReady("x").IsUsageError());
  EXPECT_EQ(ExitCodeFor(Status::Internal("x")), 1);
  EXPECT_EQ(ExitCodeFor(Status(StatusCode::kEndOfWork, "")), 1);  // never a run's outcome
}

TEST(StatusFactories, EveryCodeHasOne) {
  EXPECT_EQ(Status::AlreadyExists("x").code(), StatusCode::kAlreadyExists);
  const Status unavailable = Status::Unavailable("x", ECONNREFUSED);
  EXPECT_EQ(unavailable.code(), StatusCode::kUnavailable);
  EXPECT_EQ(unavailable.err(), ECONNREFUSED);
  const Status exhausted = Status::ResourceExhausted("x", ENOMEM);
  EXPECT_EQ(exhausted.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(exhausted.err(), ENOMEM);
  EXPECT_EQ(StatusCodeName(StatusCode::kEndOfWork), "end of work");
}

TEST(Result, HoldsValueOrStatus) {
  Result<int> good(42);
  ASSERT_OK(good);
  EXPECT_OK(good.status());
  EXPECT_EQ(good.value(), 42);
  EXPECT_EQ(*good, 42);

  Result<int> bad(Status::NotFound("no such test: foo"));
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(bad.status().message(), "no such test: foo");

  Result<std::unique_ptr<int>> moved(std::make_unique<int>(7));
  ASSERT_OK(moved);
  std::unique_ptr<int> p = std::move(moved).value();
  EXPECT_EQ(*p, 7);

  Result<std::string> s(std::string("abc"));
  EXPECT_EQ(s->size(), 3u);
}

Status FailIf(bool fail) { return fail ? Status::IoError("boom", EIO) : Status::Ok(); }

Result<int> Half(int x) {
  if (x % 2) return Status::InvalidArgument("odd");
  return x / 2;
}

Status Chain(bool fail, int* steps) {
  LC_RETURN_IF_ERROR(FailIf(fail));
  ++*steps;
  return Status::Ok();
}

Result<int> Quarter(int x, int* steps) {
  LC_ASSIGN_OR_RETURN(int half, Half(x));
  ++*steps;
  LC_ASSIGN_OR_RETURN(const int quarter, Half(half));  // two on one function: distinct temporaries
  ++*steps;
  return quarter;
}

TEST(Macros, ReturnIfError) {
  int steps = 0;
  EXPECT_OK(Chain(false, &steps));
  EXPECT_EQ(steps, 1);
  const Status s = Chain(true, &steps);
  EXPECT_EQ(s.code(), StatusCode::kIoError);
  EXPECT_EQ(s.err(), EIO);
  EXPECT_EQ(steps, 1);
}

TEST(Macros, AssignOrReturn) {
  int steps = 0;
  Result<int> r = Quarter(12, &steps);
  ASSERT_OK(r);
  EXPECT_EQ(r.value(), 3);
  EXPECT_EQ(steps, 2);

  steps = 0;
  Result<int> odd = Quarter(7, &steps);
  EXPECT_EQ(odd.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(steps, 0);

  steps = 0;
  Result<int> odd_half = Quarter(6, &steps);
  EXPECT_EQ(odd_half.status().message(), "odd");
  EXPECT_EQ(steps, 1);
}

TEST(Status, EscapeControlBytesEscapesC0DelAndUtf8C1ButKeepsWhatItIsTold) {
  EXPECT_EQ(EscapeControlBytes("a\x1b[2J\x7f\t"), "a\\x1b[2J\\x7f\\x09");
  // U+009B (CSI) in UTF-8 is two bytes, both escaped; U+00A0 and U+00E9 stay.
  EXPECT_EQ(EscapeControlBytes("x\xc2\x9b"
                               "2Jy\xc2\x80"),
            "x\\xc2\\x9b2Jy\\xc2\\x80");
  EXPECT_EQ(EscapeControlBytes("\xc2\xa0"
                               "caf\xc3\xa9"),
            "\xc2\xa0"
            "caf\xc3\xa9");
  // A lone 0xc2 at the end is not a C1 control: left as it is.
  EXPECT_EQ(EscapeControlBytes("a\xc2"), "a\xc2");
  EXPECT_EQ(EscapeControlBytes("a\tb\nc\rd\x1b", "\t\n\r"), "a\tb\nc\rd\\x1b");
}

TEST(Status, EscapeControlBytesKeepingLinesKeepsOnlyTheNewlines) {
  EXPECT_EQ(EscapeControlBytesKeepingLines("a\x1b[2Jb\nc\td\r\n\n"),
            "a\\x1b[2Jb\nc\\x09d\\x0d\n\n");
  EXPECT_EQ(EscapeControlBytesKeepingLines("no newline at the end"), "no newline at the end");
}

TEST(Status, CutAtCharacterNeverSplitsAUtf8Character) {
  bool cut = true;
  EXPECT_EQ(CutAtCharacter("short", 64, &cut), "short");
  EXPECT_FALSE(cut);
  EXPECT_EQ(CutAtCharacter("ab\xc3\xa9", 3, &cut), "ab");  // "abé": é is 2 bytes
  EXPECT_TRUE(cut);
}

}  // namespace
}  // namespace loadcell
