#include "cluster/mpi_roll_call.h"

#include <fmt/format.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
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

// Whether rank `rank`'s mark is there: a connection to it is taken.
bool Marked(const LaunchInfo& launch, int rank) {
  sockaddr_un addr{};
  const socklen_t len = MarkAddress(launch, rank, addr);
  const int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool there = connect(fd, reinterpret_cast<const sockaddr*>(&addr), len) == 0;
  close(fd);
  return there;
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
  for (int r = 0; r < launch_.size; ++r) {
    if (!seen_[r] && Marked(launch_, r)) seen_[r] = true;
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
  for (int r = 0; r < launch_.size; ++r) (seen_[r] ? present : missing).push_back(r);
  if (local_size_ == launch_.size) {
    if (missing.empty()) return "every rank reached MPI_Init, and one hangs in it";
    return fmt::format("{} {} did not reach MPI_Init", missing.size() == 1 ? "rank" : "ranks",
                       RankList(missing));
  }
  return fmt::format(
      "of the ranks on this host{}, {} reached MPI_Init; the others' hosts cannot "
      "be asked before MPI starts",
      local_size_ > 0 ? fmt::format(" ({})", local_size_) : "", RankList(present));
}

}  // namespace loadcell
