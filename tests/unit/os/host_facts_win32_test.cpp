// The host facts of the verdict on Windows (host_facts_win32.cpp), run
// under Wine in `make test`: the host's CPU times, the CPUs' frequencies,
// the hypervisor, a file's holes, a job object's memory limit, the NTFS
// compressed attribute (storage_savings_win32.cpp). Wine gives no volume handle and no
// allocated ranges: there the facts must come back unknown, with the reason,
// never as a false figure; on Windows they must be the figures.

#include <windows.h>
// After windows.h: winioctl.h needs its types.
#include <cpuid.h>
#include <gtest/gtest.h>
#include <winioctl.h>

#include <chrono>
#include <string>
#include <vector>

#include "os/file_extents.h"
#include "os/host_facts.h"
#include "os/storage_savings.h"
#include "os/win32_util.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::TempDir;

// Under Wine (its ntdll exports wine_get_version), not Windows.
bool UnderWine() {
  const HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
  return ntdll != nullptr && GetProcAddress(ntdll, "wine_get_version") != nullptr;
}

TEST(HostFactsWin32Test, TheHostsCpuTimesGrowWhileAThreadSpins) {
  const HostCpuTimes start = ReadHostCpuTimes();
  ASSERT_TRUE(start.known);
  EXPECT_LE(start.busy, start.total);
  EXPECT_FALSE(start.steal_known);  // Windows states no steal time
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  volatile uint64_t spins = 0;
  while (std::chrono::steady_clock::now() < until) spins = spins + 1;
  const HostCpuTimes end = ReadHostCpuTimes();
  ASSERT_TRUE(end.known);
  EXPECT_GT(end.total, start.total);
  EXPECT_GT(end.busy, start.busy);  // this thread's 300 ms, at least
  EXPECT_LE(end.busy - start.busy, end.total - start.total);
}

TEST(HostFactsWin32Test, EveryCpuAskedForHasItsFrequency) {
  const DWORD count = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
  ASSERT_GT(count, 0u);
  const CpuFrequencyFacts f = ReadCpuFrequencies({0, static_cast<int>(count) - 1});
  ASSERT_EQ(f.khz.size(), 2u);
  EXPECT_GT(f.khz[0], 100'000u);  // above 100 MHz: a frequency, not a count
  EXPECT_GT(f.khz[1], 100'000u);
  EXPECT_FALSE(f.throttle_known);
  // A CPU the system does not have reads as unknown (0).
  EXPECT_EQ(ReadCpuFrequencies({static_cast<int>(count) + 64}).khz, (std::vector<uint64_t>{0}));
}

TEST(HostFactsWin32Test, AHypervisorIsNamedExactlyWhenTheCpuSaysOne) {
  unsigned int a = 0;
  unsigned int b = 0;
  unsigned int c = 0;
  unsigned int d = 0;
  ASSERT_NE(__get_cpuid(1, &a, &b, &c, &d), 0);
  const bool flag = (c & (1U << 31)) != 0;
  const std::string name = VirtualMachineName();
  EXPECT_EQ(!name.empty(), flag) << name;
}

TEST(HostFactsWin32Test, ASparseFileHasItsHolesOrTheReasonTheyAreUnknown) {
  TempDir dir;
  const std::string path = dir.File("sparse.bin");
  HANDLE f = CreateFileW(Widen(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr,
                         CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  ASSERT_NE(f, INVALID_HANDLE_VALUE);
  DWORD got = 0;
  const bool sparse =
      DeviceIoControl(f, FSCTL_SET_SPARSE, nullptr, 0, nullptr, 0, &got, nullptr) != 0;
  LARGE_INTEGER at{};
  at.QuadPart = 8 << 20;
  ASSERT_NE(SetFilePointerEx(f, at, nullptr, FILE_BEGIN), 0);
  ASSERT_NE(SetEndOfFile(f), 0);
  at.QuadPart = 1 << 20;
  ASSERT_NE(SetFilePointerEx(f, at, nullptr, FILE_BEGIN), 0);
  const std::string block(64 << 10, 'x');
  DWORD wrote = 0;
  ASSERT_NE(WriteFile(f, block.data(), static_cast<DWORD>(block.size()), &wrote, nullptr), 0);
  CloseHandle(f);

  Result<uint64_t> holes = FileHoleBytes(path);
  if (holes.ok()) {
    // Windows: 8 MiB less what was written (rounded to the file system's
    // allocation unit), when the file system made the file sparse.
    if (sparse) {
      EXPECT_GE(*holes, (8u << 20) - (1u << 20));
      EXPECT_LE(*holes, (8u << 20) - (64u << 10));
    }
  } else {
    // Wine, or a file system without allocated ranges: the reason, and the
    // file's name; never a figure.
    EXPECT_EQ(holes.status().code(), StatusCode::kUnimplemented) << holes.status().ToString();
    EXPECT_NE(holes.status().message().find(path), std::string::npos);
    EXPECT_NE(holes.status().message().find("allocated ranges"), std::string::npos);
  }
  EXPECT_FALSE(FileHoleBytes(dir.File("missing")).ok());

  // The file's valid data length is never read (docs/validity.md): what the
  // unwritten-data check states says so and why, whether the holes were
  // read (Windows) or not (Wine).
  const std::string vdl =
      "its valid data length not checked (Windows states it only through "
      "FSCTL_QUERY_FILE_LAYOUT on a volume handle, which only an administrator may open)";
  Result<FileZeroRanges> zeros = ReadFileZeroRanges(path);
  if (zeros.ok()) {
    EXPECT_EQ(zeros->unwritten_unknown,
              path + ": Windows gives no map of unwritten extents, and " + vdl);
    EXPECT_EQ(zeros->unwritten_bytes, 0u);
    EXPECT_EQ(zeros->never_written_bytes, zeros->hole_bytes);
  } else {
    EXPECT_EQ(zeros.status().code(), StatusCode::kUnimplemented) << zeros.status().ToString();
    EXPECT_NE(zeros.status().message().find(path), std::string::npos);
    const std::string& why = zeros.status().message();
    ASSERT_GT(why.size(), vdl.size() + 2) << why;
    EXPECT_EQ(why.substr(why.size() - vdl.size() - 2), "; " + vdl) << why;
  }
  EXPECT_EQ(ReadFileZeroRanges(dir.File("missing")).status().message().find(vdl),
            std::string::npos);
}

TEST(HostFactsWin32Test, TheVolumesFactsNameItsDriveWhenKnown) {
  TempDir dir;
  const DeviceCounters c = ReadDeviceCounters(dir.path());
  if (c.known) {
    EXPECT_EQ(c.device.size(), 2u) << c.device;  // "C:"
    EXPECT_EQ(c.device[1], ':') << c.device;
    EXPECT_EQ(c.unknown, "");
  } else {
    // Wine answers no IOCTL_DISK_PERFORMANCE (nor, on some versions, opens
    // the volume): the counters are unknown with the reason, naming the
    // volume, never a figure (the verdict's device checks then say "not
    // checked" with it).
    EXPECT_EQ(c.read_bytes + c.written_bytes, 0u);
    ASSERT_FALSE(c.unknown.empty());
    if (!c.device.empty()) {
      EXPECT_NE(c.unknown.find("volume " + c.device), std::string::npos) << c.unknown;
    }
  }
}

// The block sizes and the write cache of the device under a folder. Windows
// states the logical sector of every volume (the volume's own, when the
// device's alignment query is not answered), a multiple of 512. Wine opens
// no volume and answers no storage query: the logical size is the one
// GetDiskFreeSpaceW gives (512), the physical one and the write cache are
// unknown (0, ""), so that the alignment check says "not checked" and the
// durability check names no device cache; never a figure made up.
TEST(HostFactsWin32Test, TheBlockSizesAndWriteCacheAreTheVolumesOrUnknown) {
  TempDir dir;
  const BlockSizes b = DeviceBlockSizes(dir.path());
  const std::string cache = DeviceWriteCacheMode(dir.path());
  if (UnderWine()) {
    EXPECT_EQ(b.logical, 512u);
    EXPECT_EQ(b.physical, 0u);
    EXPECT_EQ(cache, "");
  } else {
    ASSERT_NE(b.logical, 0u);
    EXPECT_EQ(b.logical % 512, 0u) << b.logical;
    if (b.physical != 0) {
      EXPECT_EQ(b.physical % b.logical, 0u) << b.physical << " " << b.logical;
    }
    EXPECT_TRUE(cache.empty() || cache == "write back" || cache == "write through") << cache;
  }
  // A folder on no volume has neither.
  const BlockSizes none = DeviceBlockSizes("Q:\\no\\such\\volume");
  EXPECT_EQ(none.logical, 0u);
  EXPECT_EQ(none.physical, 0u);
  EXPECT_EQ(DeviceWriteCacheMode("Q:\\no\\such\\volume"), "");
}

JOBOBJECT_EXTENDED_LIMIT_INFORMATION JobLimits(DWORD flags, uint64_t process, uint64_t job) {
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION info{};
  info.BasicLimitInformation.LimitFlags = flags;
  info.ProcessMemoryLimit = process;
  info.JobMemoryLimit = job;
  return info;
}

// A job object's limits are what a cgroup's memory.max is on Linux: the
// process' own, the whole job's, the lower of the two; none unless its flag
// is set (a figure without its flag is not a limit).
TEST(HostFactsWin32Test, AJobObjectsMemoryLimitIsTheLowerOfThoseItSets) {
  constexpr uint64_t kGiB = uint64_t{1} << 30;
  EXPECT_EQ(JobMemoryLimit(JobLimits(0, 2 * kGiB, 3 * kGiB)), 0u);
  EXPECT_EQ(JobMemoryLimit(JobLimits(JOB_OBJECT_LIMIT_PROCESS_MEMORY, 2 * kGiB, 3 * kGiB)),
            2 * kGiB);
  EXPECT_EQ(JobMemoryLimit(JobLimits(JOB_OBJECT_LIMIT_JOB_MEMORY, 2 * kGiB, 3 * kGiB)), 3 * kGiB);
  EXPECT_EQ(JobMemoryLimit(JobLimits(JOB_OBJECT_LIMIT_PROCESS_MEMORY | JOB_OBJECT_LIMIT_JOB_MEMORY,
                                     5 * kGiB, 3 * kGiB)),
            3 * kGiB);
  EXPECT_EQ(JobMemoryLimit(JobLimits(JOB_OBJECT_LIMIT_PROCESS_MEMORY | JOB_OBJECT_LIMIT_JOB_MEMORY,
                                     2 * kGiB, 3 * kGiB)),
            2 * kGiB);
  // Another limit's flag alone (the working set's) is no memory limit.
  EXPECT_EQ(JobMemoryLimit(JobLimits(JOB_OBJECT_LIMIT_WORKINGSET, 2 * kGiB, 3 * kGiB)), 0u);
}

// This process put in a job of its own with a memory limit (far above what
// the test uses): the job's limits, queried by its handle, parse to it, and
// CgroupMemoryLimit (which asks for the calling process' job, a null
// handle) reads it back. Wine takes a job's limits and answers with none
// set: there the limit must read as unknown (0), never as another figure,
// and the rest is Windows' alone (JobMemoryLimit's parse is the test above).
TEST(HostFactsWin32Test, TheMemoryLimitOfThisProcesssJobIsRead) {
  constexpr uint64_t kLimit = uint64_t{48} << 30;
  HANDLE job = CreateJobObjectW(nullptr, nullptr);
  ASSERT_NE(job, nullptr);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION info = JobLimits(JOB_OBJECT_LIMIT_JOB_MEMORY, 0, kLimit);
  ASSERT_NE(SetInformationJobObject(job, JobObjectExtendedLimitInformation, &info, sizeof(info)), 0)
      << GetLastError();
  ASSERT_NE(AssignProcessToJobObject(job, GetCurrentProcess()), 0) << GetLastError();
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION back{};
  ASSERT_NE(QueryInformationJobObject(job, JobObjectExtendedLimitInformation, &back, sizeof(back),
                                      nullptr),
            0)
      << GetLastError();
  const uint64_t own = CgroupMemoryLimit();
  CloseHandle(job);  // the process stays in it, with its limit, until it exits
  if (UnderWine() && back.BasicLimitInformation.LimitFlags == 0) {
    EXPECT_EQ(own, 0u);
    GTEST_SKIP() << "Wine answers a job's limits with none set";
  }
  EXPECT_EQ(JobMemoryLimit(back), kLimit);
  EXPECT_EQ(own, kLimit);
}

// The NTFS compressed attribute of a file, from its attributes.
TEST(HostFactsWin32Test, TheCompressedAttributeIsReadFromTheFilesAttributes) {
  EXPECT_TRUE(CompressedAttribute(FILE_ATTRIBUTE_COMPRESSED));
  EXPECT_TRUE(CompressedAttribute(FILE_ATTRIBUTE_COMPRESSED | FILE_ATTRIBUTE_ARCHIVE));
  EXPECT_FALSE(CompressedAttribute(FILE_ATTRIBUTE_ARCHIVE | FILE_ATTRIBUTE_SPARSE_FILE));
  EXPECT_FALSE(CompressedAttribute(FILE_ATTRIBUTE_NORMAL));
  // GetFileAttributesW's failure has every bit set: not an attribute.
  EXPECT_FALSE(CompressedAttribute(INVALID_FILE_ATTRIBUTES));
}

// A file made compressed (FSCTL_SET_COMPRESSION, where the file system
// does it: NTFS) says so to the write-data check; one that is not, or
// where the file system compresses nothing (Wine's), says that; a missing
// file says nothing.
TEST(HostFactsWin32Test, AFilesCompressedAttributeIsWhatTheWriteDataCheckReads) {
  TempDir dir;
  const std::string path = dir.File("compressed.bin");
  HANDLE f = CreateFileW(Widen(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr,
                         CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
  ASSERT_NE(f, INVALID_HANDLE_VALUE);
  const StorageSavings plain = ReadStorageSavings(path);
  EXPECT_TRUE(plain.known);
  EXPECT_FALSE(plain.compresses);
  EXPECT_EQ(plain.how, "the NTFS compressed attribute not set");
  USHORT format = COMPRESSION_FORMAT_DEFAULT;
  DWORD got = 0;
  const bool set = DeviceIoControl(f, FSCTL_SET_COMPRESSION, &format, sizeof(format), nullptr, 0,
                                   &got, nullptr) != 0;
  CloseHandle(f);
  const bool attribute = (GetFileAttributesW(Widen(path).c_str()) & FILE_ATTRIBUTE_COMPRESSED) != 0;
  if (!UnderWine()) {
    EXPECT_EQ(set, attribute);  // NTFS sets it; ReFS, FAT refuse the request
  }
  const StorageSavings after = ReadStorageSavings(path);
  EXPECT_TRUE(after.known);
  EXPECT_EQ(after.compresses, attribute);
  EXPECT_EQ(after.how, attribute ? "the NTFS compressed attribute set"
                                 : "the NTFS compressed attribute not set");
  EXPECT_FALSE(ReadStorageSavings(dir.File("missing")).known);
}

}  // namespace
}  // namespace loadcell
