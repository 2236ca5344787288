// The verdict's device checks for real, on a block device of the test's own:
// an ext4 file system on a loop device (losetup), mounted in a mount
// namespace of its own (`unshare -m`), so that the device under the files
// is one nothing else reads or writes. Needs root; where the machine has no
// loop device or cannot mount, the test says so and is skipped. The
// checks over facts given through their seam: tests/unit/validity/.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>

#include "os/disk_stats.h"
#include "testing/diskspd_run.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell {
namespace {

using testing::ProcessResult;
using testing::ShellQuoted;
using testing::TempDir;

constexpr int kNoLoopDevice = 97;

std::string ShowLoopRun(const ProcessResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout:\n" + r.out + "\nstderr:\n" + r.err;
}

// The file system a test makes on its loop device: the mkfs command line
// (the device's path follows it), the mount options, the image's size.
struct LoopFileSystem {
  // No lazy initialisation: its writes would mix with the run's.
  std::string mkfs = "mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0";
  std::string mount_options = "defaults";
  int size_mb = 64;
};

// Runs `steps` (sh; $L is loadcell, $M the mounted folder, $O the test's
// own folder outside the mount) on a fresh file system `fs` on a loop
// device with `sector`-byte sectors; the device's name goes to $O/device.
// Exit kNoLoopDevice: no loop device or mount here; kNoMkfs: the file
// system's mkfs is not installed (scripts/install-deps test installs it).
constexpr int kNoMkfs = 98;
ProcessResult OnLoopDevice(const TempDir& tmp, const std::string& steps, int sector = 512,
                           const LoopFileSystem& fs = {}) {
  const std::string script = fmt::format(
      "L={0}\nO={1}\nM=\"$O/mnt\"\ncommand -v {5} >/dev/null || exit {6}\n"
      "mkdir -p \"$M\" && truncate -s {7}M \"$O/disk.img\" || exit {2}\n"
      "D=$(losetup -f --show --sector-size {3} \"$O/disk.img\") || exit {2}\n"
      "trap 'umount \"$M\" 2>/dev/null; losetup -d \"$D\"' EXIT\n"
      "{8} \"$D\" >/dev/null 2>&1 || exit {2}\n"
      "mount -o {9} \"$D\" \"$M\" || exit {2}\necho \"${{D#/dev/}}\" > \"$O/device\"\n{4}\n",
      ShellQuoted(LOADCELL_BINARY), ShellQuoted(tmp.path()), kNoLoopDevice, sector, steps,
      fs.mkfs.substr(0, fs.mkfs.find(' ')), kNoMkfs, fs.size_mb, fs.mkfs, fs.mount_options);
  return testing::RunCommand({"unshare", "-m", "sh", "-c", script}, {});
}

// The small file set of the binary tests on the mount, then `extra`.
#define LC_LOOP_FILEIO "$L fileio --file-dir=\"$M\" --file-num=4 --file-total-size=4M "

// The check `id` of a JSON report's validity, or null.
nlohmann::json LoopCheckOf(const nlohmann::json& j, const std::string& id) {
  for (const nlohmann::json& c : j["validity"]["checks"]) {
    if (c["id"] == id) return c;
  }
  return nullptr;
}

// The alignment warning of buffered 512-byte requests on 4096-byte
// sectors in a text report, its advice naming the front end's `options`.
void ExpectSmallBufferedRequestsWarn(const std::string& text, const std::string& options) {
  EXPECT_NE(text.find("    WARN alignment: requests of 512 bytes on a device of 4096-byte "
                      "logical blocks: the page cache splits and merges them; change: a block "
                      "size that is a multiple of 4096 bytes (" +
                      options + ")"),
            std::string::npos)
      << text;
}

class VerdictOnLoopDevice : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() != 0) GTEST_SKIP() << "a loop device and a mount need root";
  }

  // Runs `steps`, skipping the test where no loop device can be made.
  ProcessResult Run(const std::string& steps, int sector = 512, const LoopFileSystem& fs = {}) {
    ProcessResult r = OnLoopDevice(tmp_, steps, sector, fs);
    if (r.exit_code == kNoLoopDevice) {
      skipped_ = true;
      return r;
    }
    device_ = tmp_.Read("device");
    while (!device_.empty() && device_.back() == '\n') device_.pop_back();
    return r;
  }

  nlohmann::json Json(const std::string& name) const {
    return nlohmann::json::parse(tmp_.Read(name), nullptr, false);
  }

  TempDir tmp_{testing::BuildTree()};
  bool skipped_ = false;
  std::string device_;  // "loop3"
};

TEST_F(VerdictOnLoopDevice, ReadsOfFilesJustWrittenNeverReachTheDevice) {
  const ProcessResult r =
      Run(LC_LOOP_FILEIO "--file-block-size=4K prepare >/dev/null && " LC_LOOP_FILEIO
                         "--file-block-size=4K --file-test-mode=rndrd "
                         "--events=2000 --format=json run > \"$O/read.json\"");
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  ASSERT_EQ(device_.rfind("loop", 0), 0u) << device_;
  const nlohmann::json j = Json("read.json");
  const nlohmann::json c = LoopCheckOf(j, "device-reads");
  ASSERT_FALSE(c.is_null()) << j.dump();
  EXPECT_EQ(c["level"], "invalid") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("the device (" + device_ + ") read "),
            std::string::npos)
      << c.dump();
  EXPECT_EQ(c["figures"]["bytes_read"], 2000 * 4096);
  EXPECT_LT(c["figures"]["device_read_bytes"].get<double>(), 2000 * 4096 / 2.0);
}

TEST_F(VerdictOnLoopDevice, WritesLeftInThePageCacheWarnFlushedOnesPass) {
  const ProcessResult r = Run(
      LC_LOOP_FILEIO "--file-block-size=4K prepare >/dev/null && sync \"$M\" && " LC_LOOP_FILEIO
                     "--file-block-size=4K --file-test-mode=rndwr --file-fsync-freq=0 "
                     "--file-fsync-end=off --events=1000 --format=json run > \"$O/unflushed.json\""
                     " && " LC_LOOP_FILEIO
                     "--file-block-size=4K --file-test-mode=rndwr --file-fsync-freq=10 "
                     "--events=1000 --format=json run > \"$O/flushed.json\"");
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  const nlohmann::json unflushed = LoopCheckOf(Json("unflushed.json"), "device-writes");
  ASSERT_FALSE(unflushed.is_null()) << tmp_.Read("unflushed.json");
  EXPECT_EQ(unflushed["level"], "warn") << unflushed.dump();
  EXPECT_NE(unflushed["seen"].get<std::string>().find("the device (" + device_ + ") wrote "),
            std::string::npos)
      << unflushed.dump();
  EXPECT_EQ(unflushed["figures"]["bytes_written"], 1000 * 4096);
  const nlohmann::json flushed = LoopCheckOf(Json("flushed.json"), "device-writes");
  ASSERT_FALSE(flushed.is_null()) << tmp_.Read("flushed.json");
  EXPECT_EQ(flushed["level"], "pass") << flushed.dump();
  EXPECT_GE(flushed["figures"]["device_written_bytes"].get<double>(), 1000 * 4096 / 2.0);
}

TEST_F(VerdictOnLoopDevice, RequestsSmallerThanA4KSectorWarnWholeSectorsPass) {
  const ProcessResult r = Run(
      LC_LOOP_FILEIO "--file-block-size=4K prepare >/dev/null && " LC_LOOP_FILEIO
                     "--file-block-size=512 --file-test-mode=rndrd --events=200 run "
                     "> \"$O/small.txt\" && " LC_LOOP_FILEIO
                     "--file-block-size=8K --file-test-mode=rndrd --events=200 --format=json run "
                     "> \"$O/whole.json\"",
      4096);
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  ExpectSmallBufferedRequestsWarn(tmp_.Read("small.txt"), "--file-block-size");
  const nlohmann::json whole = LoopCheckOf(Json("whole.json"), "alignment");
  ASSERT_FALSE(whole.is_null()) << tmp_.Read("whole.json");
  EXPECT_EQ(whole["level"], "pass") << whole.dump();
  EXPECT_EQ(whole["figures"]["logical_block_bytes"], 4096);
}

// Direct requests smaller than the device's 4096-byte logical block: the
// kernel refuses them, the run fails, and the verdict says why (alignment
// INVALID with direct I/O, not the buffered WARN above).
TEST_F(VerdictOnLoopDevice, DirectRequestsSmallerThanTheLogicalBlockAreInvalid) {
  const ProcessResult r =
      Run(LC_LOOP_FILEIO "--file-block-size=4K prepare >/dev/null && " LC_LOOP_FILEIO
                         "--file-block-size=512 --file-extra-flags=direct "
                         "--file-test-mode=rndrd --events=200 --format=json run "
                         "> \"$O/direct.json\"; echo $? > \"$O/rc\"",
          4096);
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  const nlohmann::json j = Json("direct.json");
  const nlohmann::json c = LoopCheckOf(j, "alignment");
  ASSERT_FALSE(c.is_null()) << tmp_.Read("direct.json") << ShowLoopRun(r);
  EXPECT_EQ(c["level"], "invalid") << c.dump();
  EXPECT_EQ(c["seen"],
            "requests of 512 bytes on a device of 4096-byte logical blocks: the device cannot "
            "take them as asked")
      << c.dump();
  EXPECT_EQ(c["figures"]["logical_block_bytes"], 4096) << c.dump();
  EXPECT_EQ(j["validity"]["overall"], "invalid") << j.dump();
}

// fio's and DiskSpd's requests against the 4096-byte sectors: fio's
// buffered 512-byte reads warn (the page cache takes them), its direct
// reads at offsets of 512-byte granularity (blockalign) are INVALID (the
// job fails on them, as the device refuses them), whole 8 KiB blocks pass;
// DiskSpd's -r512 unbuffered is INVALID and names its switches.
TEST_F(VerdictOnLoopDevice, FioAndDiskspdRequestsAreJudgedAgainstTheSector) {
  const ProcessResult r =
      Run("cd \"$M\" || exit 1\n"
          "$L fio --name=small --filename=\"$M/a.dat\" --rw=randread --bs=512 --size=1m "
          "--ioengine=psync --number_ios=200 > \"$O/small.txt\" || exit 1\n"
          "$L fio --name=odd --filename=\"$M/a.dat\" --rw=randread --bs=4k --blockalign=512 "
          "--direct=1 --size=1m --ioengine=psync --number_ios=200 --output-format=json "
          "> \"$O/odd.json\"\n"
          "$L fio --name=whole --filename=\"$M/a.dat\" --rw=randread --bs=8k --direct=1 --size=1m "
          "--ioengine=psync --number_ios=200 --output-format=json > \"$O/whole.json\" || exit 1\n"
          "$L diskspd -d1 -W0 -b4K -r512 -Sh -c1M \"$M/t.dat\" > \"$O/ds.txt\" 2>/dev/null\n"
          "exit 0",
          4096);
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  ExpectSmallBufferedRequestsWarn(tmp_.Read("small.txt"), "bs, blockalign and offset");
  const nlohmann::json odd = Json("odd.json");
  ASSERT_EQ(odd["jobs"].size(), 1u) << odd.dump();
  const nlohmann::json bad = LoopCheckOf(odd["jobs"][0]["loadcell"], "alignment");
  ASSERT_FALSE(bad.is_null()) << odd.dump();
  EXPECT_EQ(bad["level"], "invalid") << bad.dump();
  EXPECT_EQ(bad["seen"],
            "offsets at multiples of 512 bytes on a device of 4096-byte logical blocks: the "
            "device cannot take them as asked")
      << bad.dump();
  EXPECT_EQ(bad["figures"]["block_bytes"], 4096) << bad.dump();
  EXPECT_EQ(bad["figures"]["offset_align_bytes"], 512) << bad.dump();
  const nlohmann::json whole = LoopCheckOf(Json("whole.json")["jobs"][0]["loadcell"], "alignment");
  ASSERT_FALSE(whole.is_null()) << tmp_.Read("whole.json");
  EXPECT_EQ(whole["level"], "pass") << whole.dump();
  EXPECT_EQ(whole["figures"]["block_bytes"], 8192) << whole.dump();
  EXPECT_EQ(whole["figures"]["logical_block_bytes"], 4096) << whole.dump();
  const std::string ds = tmp_.Read("ds.txt");
  EXPECT_NE(ds.find("    INVALID alignment: offsets at multiples of 512 bytes on a device of "
                    "4096-byte logical blocks"),
            std::string::npos)
      << ds;
  EXPECT_NE(ds.find("(-b, -r<align> and -B)"), std::string::npos) << ds;
}

// The write-data check on a file system that compresses, made here: btrfs
// mounted with compress=, btrfs with the folder's compression attribute
// (chattr +c, inherited by the files made in it), and btrfs with neither.
// Zero-filled writes are what a compressing target stores for nothing.
// Each run of 200 writes of 16 KiB: a few seconds for the three file systems.
TEST_F(VerdictOnLoopDevice, ZeroWritesOnBtrfsNameHowItCompresses) {
  const LoopFileSystem btrfs{"mkfs.btrfs -q -f", "compress=zstd", 256};
  const LoopFileSystem plain{"mkfs.btrfs -q -f", "defaults", 256};
  const std::string zero_writes =
      LC_LOOP_FILEIO "prepare >/dev/null && " LC_LOOP_FILEIO
                     "--file-test-mode=rndwr --file-write-pattern=zero --events=200 "
                     "--format=json run > \"$O/$N.json\"";
  struct Case {
    const char* name;
    const LoopFileSystem& fs;
    const char* before;  // steps before the files are made
    int compresses;
    const char* how;
  };
  const Case cases[] = {
      {"mounted", btrfs, "", 1, "; the target compresses: btrfs mounted with compress=zstd"},
      {"attribute", plain, "chattr +c \"$M\" && ", 1,
       "; the target compresses: btrfs, the file's compression attribute set (chattr +c)"},
      {"neither", plain, "", 0,
       "; the file system does not compress (btrfs without compress= and without the file's "
       "compression attribute)"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const ProcessResult r =
        Run(std::string("N=") + c.name + "\n" + c.before + zero_writes, 512, c.fs);
    if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
    ASSERT_NE(r.exit_code, kNoMkfs) << "mkfs.btrfs is not installed: scripts/install-deps test";
    ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
    const nlohmann::json check = LoopCheckOf(Json(std::string(c.name) + ".json"), "write-data");
    ASSERT_FALSE(check.is_null()) << tmp_.Read(std::string(c.name) + ".json");
    EXPECT_EQ(check["level"], "warn") << check.dump();
    EXPECT_EQ(check["figures"]["target_compresses"], c.compresses) << check.dump();
    EXPECT_NE(check["seen"].get<std::string>().find(c.how), std::string::npos) << check.dump();
    // A btrfs file's device number is the subvolume's own, not a block
    // device's: the device checks find the loop device through the mount.
    const nlohmann::json device = LoopCheckOf(Json(std::string(c.name) + ".json"), "device-writes");
    ASSERT_FALSE(device.is_null());
    EXPECT_TRUE(device["figures"].contains("device_written_bytes")) << device.dump();
  }
}

// fio and DiskSpd run their files through the fio job's facts: the device
// checks read the device under the job's folders, each device once.
TEST_F(VerdictOnLoopDevice, FioCountsTheDeviceUnderEachOfItsFolders) {
  // One file on the loop device's mount, one in the test's own folder (a
  // filename list: fio puts a directory list's folders one per clone).
  const ProcessResult r =
      Run("$L fio --name=two --filename=\"$M/a.dat:$O/b.dat\" --rw=randread --bs=4k --size=4m "
          "--ioengine=psync --output-format=json > \"$O/two.json\"");
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  const nlohmann::json doc = Json("two.json");
  ASSERT_EQ(doc["jobs"].size(), 1u) << doc.dump();
  const nlohmann::json& own = doc["jobs"][0]["loadcell"];
  EXPECT_EQ(LoopCheckOf(own, "cache")["level"], "invalid") << own.dump();
  const nlohmann::json c = LoopCheckOf(own, "device-reads");
  ASSERT_FALSE(c.is_null()) << own.dump();
  const std::string outer = DiskNameOf(tmp_.path());
  if (outer.empty()) {
    // The other folder has no block device: the devices are not counted.
    EXPECT_EQ(c["level"], "not_checked") << c.dump();
    EXPECT_NE(c["seen"].get<std::string>().find(tmp_.path()), std::string::npos) << c.dump();
    return;
  }
  // Both devices summed (the other one's traffic decides the level).
  EXPECT_NE(c["level"], "not_checked") << c.dump();
  EXPECT_NE(c["seen"].get<std::string>().find("the device (" + device_ + ", " + outer),
            std::string::npos)
      << c.dump();
  EXPECT_EQ(c["figures"]["bytes_read"], 4 << 20) << c.dump();
}

// DiskSpd's target of 4 MiB read for a second: its cache dropped when the
// threads open it, the first pass reaches the device, the rest is the page
// cache's.
TEST_F(VerdictOnLoopDevice, DiskspdRereadsOfASmallTargetComeFromThePageCache) {
  const ProcessResult r =
      Run("$L diskspd -d1 -W0 -b4K -r -c4M -Rxml:\"$O/ds.xml\" \"$M/target.dat\" >/dev/null");
  if (skipped_) GTEST_SKIP() << "no loop device or mount here: " << ShowLoopRun(r);
  ASSERT_EQ(r.exit_code, 0) << ShowLoopRun(r);
  Result<diskspd::XmlElement> doc = diskspd::ReadXmlDocument(tmp_.Read("ds.xml"));
  ASSERT_TRUE(doc.ok()) << doc.status().ToString();
  const diskspd::XmlElement* span = testing::DiskspdXmlChild(&*doc, "TimeSpan");
  ASSERT_NE(span, nullptr);
  const auto verdicts = testing::DiskspdXmlChildren(span, "LoadcellVerdict");
  ASSERT_EQ(verdicts.size(), 1u);
  std::string reads_level;
  for (const diskspd::XmlElement* c : testing::DiskspdXmlChildren(verdicts[0], "Check")) {
    const std::string id = *c->Attribute("Id");
    if (id == "device-reads") reads_level = *c->Attribute("Level");
    if (id != "device-reads" && id != "other-io") continue;
    EXPECT_NE(c->Attribute("Seen")->find("device (" + device_ + ")"), std::string::npos)
        << id << ": " << *c->Attribute("Seen");
  }
  EXPECT_EQ(reads_level, "invalid") << tmp_.Read("ds.xml");
}

}  // namespace
}  // namespace loadcell
