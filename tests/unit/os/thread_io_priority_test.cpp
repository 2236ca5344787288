// SetCurrentThreadIoPriority (DiskSpd's -I): on Linux the calling thread's
// ioprio, read back with ioprio_get; elsewhere below normal is refused.

#include <gtest/gtest.h>

#include <thread>

#include "os/thread.h"

#ifdef __linux__
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace loadcell {
namespace {

#ifdef __linux__
// The calling thread's ioprio as ioprio_get gives it (class << 13 | level).
long CurrentIoPriority() { return syscall(SYS_ioprio_get, 1, 0); }
#endif

TEST(ThreadIoPriorityTest, LowAndVeryLowOnTheCallingThreadOnly) {
  if (!ThreadIoPrioritySupported()) {
    EXPECT_FALSE(SetCurrentThreadIoPriority(2).ok());
    EXPECT_TRUE(SetCurrentThreadIoPriority(3).ok());
    return;
  }
#ifdef __linux__
  const long before = CurrentIoPriority();
  long low = -1;
  long very_low = -1;
  long other = -1;
  std::thread t([&] {
    ASSERT_TRUE(SetCurrentThreadIoPriority(2).ok());
    low = CurrentIoPriority();
    ASSERT_TRUE(SetCurrentThreadIoPriority(1).ok());
    very_low = CurrentIoPriority();
  });
  t.join();
  std::thread u([&] { other = CurrentIoPriority(); });
  u.join();
  EXPECT_EQ(low, (2 << 13) | 7);  // best effort, level 7
  EXPECT_EQ(very_low >> 13, 3);   // the idle class
  // The calling thread's own, not the process': this thread and a new one
  // keep theirs.
  EXPECT_EQ(CurrentIoPriority(), before);
  EXPECT_EQ(other, before);
  EXPECT_TRUE(SetCurrentThreadIoPriority(3).ok());
  EXPECT_EQ(CurrentIoPriority(), before);
  EXPECT_FALSE(SetCurrentThreadIoPriority(4).ok());
#endif
}

}  // namespace
}  // namespace loadcell
