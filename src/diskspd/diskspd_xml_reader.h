#pragma once
// A strict, small XML reader for DiskSpd's profiles (-X): elements,
// attributes, text, comments, the <?xml?> declaration and the five
// predefined entities and character references. No DTD, no namespaces'
// meaning (a prefix is part of the name), no processing instructions past
// the declaration. Bounded: at most kMaxXmlDepth nested elements and
// kMaxXmlElements elements. Pure: the caller reads the file.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace loadcell::diskspd {

inline constexpr size_t kMaxXmlDepth = 32;
inline constexpr size_t kMaxXmlElements = 100000;
inline constexpr size_t kMaxXmlBytes = size_t{4} << 20;

struct XmlElement {
  std::string name;
  int line = 0;  // where its start tag is (1-based)
  std::vector<std::pair<std::string, std::string>> attributes;
  std::string text;  // its character data, entities replaced (children's not included)
  std::vector<XmlElement> children;

  // The attribute's value, or nullptr.
  const std::string* Attribute(const std::string& name) const;
};

// Reads `text` (a whole document) into its root element. InvalidArgument,
// "line N: what is wrong", when it is not well formed or past the bounds.
Result<XmlElement> ReadXmlDocument(const std::string& text);

}  // namespace loadcell::diskspd
