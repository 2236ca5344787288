#pragma once
// A loop device over a 64 MiB image file (losetup; these machines allow it
// as root), detached when it goes out of scope. POSIX-only tests.

#include <fstream>
#include <string>

#include "testing/run_binary.h"

namespace loadcell::testing {

class LoopDevice {
 public:
  explicit LoopDevice(const std::string& image) {
    { std::ofstream(image, std::ios::binary).seekp((64 << 20) - 1).put('x'); }
    ProcessResult r = RunCommand({"losetup", "-f", "--show", image}, ChildWatch{});
    if (r.exit_code == 0 && !r.out.empty()) path_ = r.out.substr(0, r.out.find('\n'));
    why_ = r.err;
  }
  ~LoopDevice() {
    if (!path_.empty()) (void)RunCommand({"losetup", "-d", path_}, ChildWatch{});
  }
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }

 private:
  std::string path_;
  std::string why_;
};

}  // namespace loadcell::testing
