#pragma once
// `loadcell diskspd ARGS...` run in a test's folder, and the totals of its
// text report: the helpers the DiskSpd integration tests share.

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "diskspd/diskspd_xml_reader.h"
#include "testing/run_binary.h"
#include "testing/temp_dir.h"

namespace loadcell::testing {

inline ProcessResult RunDiskspd(const TempDir& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "diskspd");
  ChildWatch w;
  w.cwd = dir.path();
  w.timeout_s = 120;
  return RunLoadcell(args, w);
}

// The "total:" line of a section of the text report ("Total IO", "Read
// IO") at or after `from`: bytes and I/Os; zeros when there is none.
inline std::pair<uint64_t, uint64_t> DiskspdSectionTotal(const std::string& text,
                                                         const std::string& section,
                                                         size_t from = 0) {
  const size_t at = text.find("\n" + section + "\n", from);
  if (at == std::string::npos) return {0, 0};
  const size_t total = text.find("total:", at);
  if (total == std::string::npos) return {0, 0};
  std::istringstream in(text.substr(total + 6));
  uint64_t bytes = 0, ios = 0;
  char bar = 0;
  in >> bytes >> bar >> ios;
  return {bytes, ios};
}

// The first child of `e` named `name`, or nullptr (also for a null `e`).
inline const diskspd::XmlElement* DiskspdXmlChild(const diskspd::XmlElement* e,
                                                  const std::string& name) {
  if (e == nullptr) return nullptr;
  for (const diskspd::XmlElement& c : e->children) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

// Every child of `e` named `name`, in order.
inline std::vector<const diskspd::XmlElement*> DiskspdXmlChildren(const diskspd::XmlElement* e,
                                                                  const std::string& name) {
  std::vector<const diskspd::XmlElement*> out;
  if (e == nullptr) return out;
  for (const diskspd::XmlElement& c : e->children) {
    if (c.name == name) out.push_back(&c);
  }
  return out;
}

}  // namespace loadcell::testing
