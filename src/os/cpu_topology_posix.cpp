// os/cpu_topology.h on Linux: the files under /sys/devices/system/.

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "os/cpu_topology.h"

namespace loadcell {

CpuTopology ReadCpuTopology() {
  return CpuTopologyOfSysfs([](const std::string& relative) {
    std::ifstream in("/sys/devices/system/" + relative);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.empty() && relative == "cpu/online") {
      // No sysfs (a bare container): the CPUs the system counts online.
      const long n = sysconf(_SC_NPROCESSORS_ONLN);
      if (n > 0) text = "0-" + std::to_string(n - 1);
    }
    return text;
  });
}

}  // namespace loadcell
