#include "cluster/mpi_api.h"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <span>
#include <string>
#include <thread>

#include "cluster/mpi_mpich.h"
#include "cluster/mpi_roll_call.h"
#include "os/dynamic_lib.h"

namespace loadcell {
namespace {

struct MpiLibrary {
  const char* soname;
  const char* package;  // what provides it, for the message when it is missing
  const char* label;    // MpiApi::library
  bool mpich_abi;
};

constexpr MpiLibrary kOpenMpi = {"libmpi.so.40", "libopenmpi3 package, Open MPI",
                                 "Open MPI (libmpi.so.40)", false};
constexpr MpiLibrary kMpich = {"libmpich.so.12", "libmpich12 package, MPICH",
                               "MPICH (libmpich.so.12)", true};
constexpr MpiLibrary kMpichAbi = {"libmpi.so.12", "Intel MPI or MVAPICH",
                                  "the MPICH ABI (libmpi.so.12)", true};

constexpr MpiLibrary kOpenMpiOnly[] = {kOpenMpi};
constexpr MpiLibrary kMpichFirst[] = {kMpich, kMpichAbi};
constexpr MpiLibrary kEither[] = {kOpenMpi, kMpich, kMpichAbi};

// The libraries to try, in order, under `launcher` (LaunchInfo::launcher).
std::span<const MpiLibrary> Candidates(const std::string& launcher) {
  if (launcher == "Open MPI") return kOpenMpiOnly;
  if (launcher == "PMI") return kMpichFirst;
  return kEither;
}

// RTLD_GLOBAL, unlike the database libraries: Open MPI loads its own
// components (mca_*.so) with dlopen, and they resolve libmpi's and
// libopen-pal's symbols from the global scope.
void* OpenFirst(std::span<const MpiLibrary> candidates, const std::string& launcher,
                const MpiLibrary*& opened, Status& status) {
  std::string tried;
  for (const MpiLibrary& lib : candidates) {
    if (void* handle = dlopen(lib.soname, RTLD_NOW | RTLD_GLOBAL)) {
      opened = &lib;
      return handle;
    }
    const char* e = dlerror();
    tried += fmt::format("{}{} (install the {}): {}", tried.empty() ? "" : "; ", lib.soname,
                         lib.package, e != nullptr ? e : "unknown error");
  }
  status =
      Status(StatusCode::kUnavailable,
             fmt::format("cannot load an MPI library for the {} launcher: {}", launcher, tried));
  return nullptr;
}

// Sets `handle` to the address of libmpi's predefined object `name`.
template <typename Handle>
void BindHandle(void* lib, const char* name, Handle& handle, Status& status) {
  if (void* sym = FindSymbol(lib, kOpenMpi.soname, name, status)) {
    handle = static_cast<Handle>(sym);
  }
}

void BindOpenMpi(void* h, MpiApi& api, Status& status) {
  const char* soname = kOpenMpi.soname;
#define LOADCELL_BIND_(name) Bind(h, soname, #name, api.name, status);
  LOADCELL_MPI_FUNCTIONS(LOADCELL_BIND_)
#undef LOADCELL_BIND_
  BindHandle(h, "ompi_mpi_comm_world", api.comm_world, status);
  BindHandle(h, "ompi_mpi_byte", api.byte, status);
  BindHandle(h, "ompi_mpi_int", api.int_type, status);
  BindHandle(h, "ompi_mpi_op_min", api.op_min, status);
}

LoadedLibrary<MpiApi> Load(const LaunchInfo& launch) {
  LoadedLibrary<MpiApi> l;
  const MpiLibrary* lib = nullptr;
  void* h = OpenFirst(Candidates(launch.launcher), launch.launcher, lib, l.status);
  if (h == nullptr) return l;
  if (lib->mpich_abi) {
    BindMpichAbi(h, lib->soname, l.api, l.status);
  } else {
    BindOpenMpi(h, l.api, l.status);
  }
  l.api.library = lib->label;
  return l;
}

const LoadedLibrary<MpiApi>& MpiLoaded(const LaunchInfo* launch) {
  static const LoadedLibrary<MpiApi> loaded = Load(*launch);
  return loaded;
}

// Set by AbandonMpi; read at exit.
std::atomic<bool> g_mpi_abandoned{false};

void FinalizeMpiAtExit() {
  if (g_mpi_abandoned.load()) return;
  int finalized = 1;
  Mpi().MPI_Finalized(&finalized);
  if (finalized == 0) Mpi().MPI_Finalize();
}

}  // namespace

Status LoadMpi(const LaunchInfo& launch) { return MpiLoaded(&launch).status; }
const MpiApi& Mpi() { return MpiLoaded(nullptr).api; }

double MpiInitDeadline(double timeout_s) { return std::max(timeout_s, kMinMpiInitDeadlineS); }

void StartMpiOnce(double timeout_s, const LaunchInfo& launch) {
  static const bool started = [timeout_s, &launch] {
    const double deadline_s = MpiInitDeadline(timeout_s);
    MpiRollCall roll_call(launch);
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    // The watchdog: MPI_Init has no deadline of its own, and the process
    // cannot leave it otherwise.
    std::thread watchdog([&] {
      std::unique_lock<std::mutex> lock(mu);
      // Looks at the roll call once a second while it waits: a rank that
      // gives up first leaves before this one looks at the end.
      const auto end = std::chrono::steady_clock::now() +
                       std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                           std::chrono::duration<double>(deadline_s));
      for (;;) {
        const auto step = std::min(end, std::chrono::steady_clock::now() + std::chrono::seconds(1));
        if (cv.wait_until(lock, step, [&] { return done; })) return;
        if (std::chrono::steady_clock::now() >= end) break;
        roll_call.Look();
      }
      const std::string absent = roll_call.Absent();
      // One line for the job (for this host's ranks, where the launcher
      // spreads them): the first rank whose watchdog ends says it.
      const bool speaks = roll_call.TakeTheWord();
      roll_call.Leave();
      if (speaks) {
        const std::string line = fmt::format(
            "loadcell: error: MPI did not start within {} s (--mpi-timeout, at least {} s): "
            "MPI_Init did not return on rank {}; {}; no rank ran it\n",
            deadline_s, kMinMpiInitDeadlineS, launch.rank,
            absent.empty() ? "a rank of the job did not reach it or hangs in it" : absent);
        std::fwrite(line.data(), 1, line.size(), stderr);
        std::fflush(stderr);
        // The word is held a while: a rank whose watchdog ends just after
        // (its start came later) finds it taken and stays silent.
        std::this_thread::sleep_for(std::chrono::seconds(2));
      }
      std::_Exit(1);
    });
    int provided = 0;
    Mpi().MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_all();
    watchdog.join();
    roll_call.Leave();
    std::atexit(&FinalizeMpiAtExit);
    return true;
  }();
  (void)started;
}

void AbandonMpi() { g_mpi_abandoned.store(true); }

}  // namespace loadcell
