#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#if defined(__linux__)
#include <linux/fs.h>
#include <sys/ioctl.h>
#endif

#include "core/clock.h"
#include "os/storage_savings.h"

extern char** environ;

namespace loadcell {
namespace {

// How long a property query may take before it is given up (a pool that
// hangs must not hold the run's end).
constexpr int kCommandTimeoutMs = 2000;
constexpr size_t kCommandOutputLimit = size_t{64} * 1024;

// Runs `argv` with its standard output through a pipe (its standard input
// and error to /dev/null): what it wrote, or why it did not run or failed.
Result<std::string> RunCommandOutput(const std::vector<std::string>& argv) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::IoError("pipe failed", errno);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int err = ::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (err != 0) {
    ::close(fds[0]);
    return Status::NotFound(argv[0] + " could not run: " + std::string(ErrnoText(err)));
  }
  std::string out;
  const Nanos deadline = MonotonicNow() + kCommandTimeoutMs * kNanosPerMilli;
  bool timed_out = false;
  for (;;) {
    const Nanos left = deadline - MonotonicNow();
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left > 0 ? ::poll(&p, 1, static_cast<int>(left / kNanosPerMilli) + 1) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = true;
      break;
    }
    char buf[4096];
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    if (out.size() < kCommandOutputLimit) out.append(buf, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    return Status::Unavailable(argv[0] + " did not answer within " +
                               std::to_string(kCommandTimeoutMs / 1000) + " s");
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status::IoError(argv[0] + " failed (exit status " +
                           std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
  }
  return out;
}

}  // namespace

bool FileCompressAttribute(const std::string& path) {
#if defined(__linux__)
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  // FS_IOC_GETFLAGS is declared with a long but reads and writes an int.
  int flags = 0;
  const bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  ::close(fd);
  return ok && (flags & FS_COMPR_FL) != 0;
#else
  (void)path;
  return false;
#endif
}

StorageSavings ReadStorageSavings(const std::string& path) {
  const MountFacts mount = ReadMountFacts(path);
  // A ZFS mount's source is its dataset.
  if (mount.file_system == "zfs") return ZfsSavings(mount.source, RunCommandOutput);
  return SavingsOf(mount, FileCompressAttribute(path));
}

}  // namespace loadcell
