// The shared ASSERT_OK / EXPECT_OK (tests/testing/status.h): a failure names
// the expression, the status's code and its message.

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "core/status.h"
#include "testing/status.h"

namespace loadcell {
namespace {

TEST(AssertOk, PassesOnOk) {
  EXPECT_OK(Status::Ok());
  ASSERT_OK(Result<int>(3));
}

TEST(AssertOk, PrintsTheCodeAndTheMessage) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Status::InvalidArgument("--threads must be >= 1")),
                          "Status::InvalidArgument(\"--threads must be >= 1\") is invalid "
                          "argument: --threads must be >= 1");
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Result<int>(Status::NotFound("no such test"))),
                          "not found: no such test");
}

TEST(AssertOk, PrintsTheErrno) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Status::IoError("write /x", ENOSPC)),
                          "I/O error: write /x (errno 28: ");
}

TEST(AssertOk, TakesMoreText) {
  EXPECT_NONFATAL_FAILURE(EXPECT_OK(Status::Internal("bug")) << "while testing", "while testing");
}

void FailsFatally() { ASSERT_OK(Status::Cancelled("interrupted")); }

TEST(AssertOk, AssertStopsTheTest) {
  EXPECT_FATAL_FAILURE(FailsFatally(), "cancelled: interrupted");
}

}  // namespace
}  // namespace loadcell
