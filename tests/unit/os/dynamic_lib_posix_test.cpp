#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "os/dynamic_lib.h"
#include "testing/status.h"

namespace loadcell {
namespace {

// A table of two C library functions, loaded the way the drivers load theirs.
struct LibcApi {
  size_t (*strlen)(const char*) = nullptr;
  int (*abs)(int) = nullptr;
};
#define LOADCELL_TEST_LIBC_FUNCTIONS(X) \
  X(strlen)                             \
  X(abs)

LOADCELL_DEFINE_DYNAMIC_LIBRARY(LibcApi, LOADCELL_TEST_LIBC_FUNCTIONS, "libc.so.6", "libc6",
                                LoadTestLibc, TestLibc)

struct MissingApi {
  void (*loadcell_no_such_function)() = nullptr;
};

TEST(DynamicLibrary, LoadsOnceAndBindsEveryFunction) {
  ASSERT_OK(LoadTestLibc());
  ASSERT_OK(LoadTestLibc());  // the first outcome, again
  EXPECT_EQ(TestLibc().strlen("four"), 4u);
  EXPECT_EQ(TestLibc().abs(-3), 3);
}

TEST(DynamicLibrary, MissingLibraryNamesItAndItsPackage) {
  LoadedLibrary<MissingApi> l = LoadLibrary<MissingApi>(
      "libloadcell-none.so.9", "loadcell-none",
      [](void* h, const char* soname, MissingApi& api, Status& status) {
        Bind(h, soname, "loadcell_no_such_function", api.loadcell_no_such_function, status);
      });
  EXPECT_EQ(l.status.code(), StatusCode::kUnavailable);
  EXPECT_NE(l.status.message().find("cannot load libloadcell-none.so.9 (install the "
                                    "loadcell-none package)"),
            std::string::npos)
      << l.status.ToString();
  EXPECT_EQ(l.status.message().find('\n'), std::string::npos);
}

TEST(DynamicLibrary, MissingFunctionNamesIt) {
  LoadedLibrary<MissingApi> l = LoadLibrary<MissingApi>(
      "libc.so.6", "libc6", [](void* h, const char* soname, MissingApi& api, Status& status) {
        Bind(h, soname, "loadcell_no_such_function", api.loadcell_no_such_function, status);
      });
  EXPECT_EQ(l.status.code(), StatusCode::kUnavailable);
  EXPECT_NE(l.status.message().find("libc.so.6: it lacks loadcell_no_such_function"),
            std::string::npos)
      << l.status.ToString();
  EXPECT_EQ(l.api.loadcell_no_such_function, nullptr);
}

}  // namespace
}  // namespace loadcell
