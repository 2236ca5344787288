#pragma once
// ASSERT_OK / EXPECT_OK: a Status or Result<T> (or any type with ok() and a
// status) that must be OK; when it is not, the failure prints the code and
// the message. Further text streams in as with every gtest assertion:
//   ASSERT_OK(fs.Open(path, flags)) << path;

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "core/status.h"

namespace loadcell::testing {

// "CODE: message" plus the errno's text where the status has one; "OK" for
// an OK status.
std::string DescribeStatus(const Status& s);

namespace internal {

// What a failed ASSERT_OK prints about `v`: its status where it has one
// (Status, Result<T>, a type with ToStatus()), else its error() text.
template <typename T>
std::string DescribeOkable(const T& v) {
  if constexpr (std::is_same_v<T, Status>) {
    return DescribeStatus(v);
  } else if constexpr (requires { v.status(); }) {
    return DescribeStatus(v.status());
  } else if constexpr (requires { v.ToStatus(); }) {
    return DescribeStatus(v.ToStatus());
  } else if constexpr (requires { std::string(v.error()); }) {
    return std::string(v.error());
  } else {
    return "not OK";
  }
}

template <typename T>
::testing::AssertionResult IsOk(const char* expr, const T& v) {
  if (v.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << expr << " is " << DescribeOkable(v);
}

}  // namespace internal
}  // namespace loadcell::testing

#define ASSERT_OK(expr) ASSERT_PRED_FORMAT1(::loadcell::testing::internal::IsOk, expr)
#define EXPECT_OK(expr) EXPECT_PRED_FORMAT1(::loadcell::testing::internal::IsOk, expr)
