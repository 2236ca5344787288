#include <fmt/format.h>

#include <algorithm>

#include "validity/check.h"

namespace loadcell::validity {

std::string BytesText(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(kUnits)) {
    v /= 1024;
    ++u;
  }
  return v == static_cast<double>(static_cast<uint64_t>(v))
             ? fmt::format("{:.0f} {}", v, kUnits[u])
             : fmt::format("{:.2f} {}", v, kUnits[u]);
}

std::string DevicesText(const std::vector<DeviceWindow>& devices) {
  std::string out;
  for (const DeviceWindow& d : devices) {
    if (!out.empty()) out += ", ";
    out += d.device;
    for (size_t i = 0; i < d.under.size(); ++i) out += (i == 0 ? " (over " : ", ") + d.under[i];
    if (!d.under.empty()) out += ")";
  }
  return out;
}

std::string OptionsText(const std::vector<std::string>& names) {
  const auto first_word = [](const std::string& n) { return n.substr(0, n.find(' ')); };
  std::vector<std::string> kept;
  for (const std::string& n : names) {
    if (n.empty()) continue;
    const bool again = std::any_of(kept.begin(), kept.end(), [&](const std::string& k) {
      return first_word(k) == first_word(n);
    });
    if (!again) kept.push_back(n);
  }
  std::string out;
  for (size_t i = 0; i < kept.size(); ++i) {
    if (i > 0) out += i + 1 == kept.size() ? " or " : ", ";
    out += kept[i];
  }
  return out;
}

}  // namespace loadcell::validity
