#include "cluster/mpi_roll_call.h"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

namespace loadcell {
namespace {

// How many of the job's ranks the launcher started on this host: Open MPI's
// mpirun and MPICH's Hydra say so; 0 when neither does.
int LocalRanks() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    const char* v = std::getenv(name);
    if (v == nullptr) continue;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && n > 0) return static_cast<int>(n);
  }
  return 0;
}

// The abstract socket address of rank `rank`'s mark (a name that starts
// with a NUL byte: no file, gone with the socket).
// rank -1: the word, which one rank takes for the job's line.
socklen_t MarkAddress(const LaunchInfo& launch, int rank, sockaddr_un& addr) {
  std::memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  const std::string name =
      rank < 0
          ? fmt::format("loadcell-mpi-start-{}-{}-{}-word", getuid(), getppid(), launch.size)
          : fmt::format("loadcell-mpi-start-{}-{}-{}-{}", getuid(), getppid(), launch.size, rank);
  const size_t n = std::min(name.size(), sizeof(addr.sun_path) - 1);
  std::memcpy(addr.sun_path + 1, name.data(), n);
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
}

// The process that holds rank `rank`'s mark (a connection to it is
// taken; the kernel names the listener: SO_PEERCRED), 0 when the mark is
// not there.
pid_t MarkHolder(const LaunchInfo& launch, int rank) {
  sockaddr_un addr{};
  const socklen_t len = MarkAddress(launch, rank, addr);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  pid_t holder = 0;
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), len) == 0) {
    ucred cred{};
    socklen_t cred_len = sizeof(cred);
    const bool named = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_len) == 0;
    // A mark whose holder cannot be named is there all the same.
    holder = named && cred.pid > 0 ? cred.pid : -1;
  }
  close(fd);
  return holder;
}

// Whether process `pid` is stopped (SIGSTOP, a debugger): the state in
// /proc/PID/stat, the field after the command's closing parenthesis.
bool IsStopped(pid_t pid) {
  if (pid <= 0) return false;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  std::getline(in, stat);
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos || paren + 2 >= stat.size()) return false;
  const char state = stat[paren + 2];
  return state == 'T' || state == 't';
}

std::string RankList(const std::vector<int>& ranks) {
  std::string out;
  for (size_t i = 0; i < ranks.size(); ++i) {
    if (i > 0) out += i + 1 == ranks.size() ? " and " : ", ";
    out += std::to_string(ranks[i]);
  }
  return out;
}

}  // namespace

MpiRollCall::MpiRollCall(const LaunchInfo& launch) : launch_(launch), local_size_(LocalRanks()) {
  if (!launch.detected || launch.size <= 1) return;
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  sockaddr_un addr{};
  const socklen_t len = MarkAddress(launch, launch.rank, addr);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), len) != 0 ||
      listen(fd, launch.size) != 0) {
    close(fd);
    return;
  }
  socket_ = fd;
}

void MpiRollCall::Leave() {
  if (socket_ < 0) return;
  close(socket_);
  socket_ = -1;
}

void MpiRollCall::Look() {
  if (socket_ < 0) return;
  seen_.resize(static_cast<size_t>(launch_.size), false);
  holders_.resize(static_cast<size_t>(launch_.size), 0);
  for (int r = 0; r < launch_.size; ++r) {
    if (seen_[r]) continue;
    const pid_t holder = MarkHolder(launch_, r);
    if (holder == 0) continue;
    seen_[r] = true;
    holders_[r] = holder;
  }
}

bool MpiRollCall::TakeTheWord() {
  if (socket_ < 0) return true;
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return true;
  sockaddr_un addr{};
  const socklen_t len = MarkAddress(launch_, -1, addr);
  if (bind(fd, reinterpret_cast<const sockaddr*>(&addr), len) != 0) {
    close(fd);
    return false;  // another rank has it
  }
  // Kept until the process ends (its exit closes it).
  return true;
}

std::string MpiRollCall::Absent() {
  if (socket_ < 0) return "";
  Look();
  std::vector<int> present;
  std::vector<int> missing;
  std::vector<int> stopped;
  for (int r = 0; r < launch_.size; ++r) {
    (seen_[r] ? present : missing).push_back(r);
    if (seen_[r] && IsStopped(holders_[r])) stopped.push_back(r);
  }
  const auto ranks = [](const std::vector<int>& list) {
    return fmt::format("{} {}", list.size() == 1 ? "rank" : "ranks", RankList(list));
  };
  // Ranks that reached MPI_Init and were stopped in it (SIGSTOP, a debugger).
  const std::string stopped_in = stopped.empty()
                                     ? ""
                                     : fmt::format(
                                           "{} reached MPI_Init and {} stopped in it (SIGSTOP or a "
                                           "debugger)",
                                           ranks(stopped), stopped.size() == 1 ? "was" : "were");
  if (local_size_ == launch_.size) {
    if (missing.empty()) {
      return stopped.empty() ? "every rank reached MPI_Init, and one hangs in it" : stopped_in;
    }
    const std::string absent = ranks(missing) + " did not reach MPI_Init";
    return stopped.empty() ? absent : absent + "; " + stopped_in;
  }
  return fmt::format(
      "of the ranks on this host{}, {} reached MPI_Init{}; the others' hosts cannot "
      "be asked before MPI starts",
      local_size_ > 0 ? fmt::format(" ({})", local_size_) : "", RankList(present),
      stopped.empty() ? "" : ", and " + stopped_in);
}

}  // namespace loadcell
