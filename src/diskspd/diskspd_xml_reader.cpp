#include "diskspd/diskspd_xml_reader.h"

#include <fmt/format.h>

#include <cstdint>

namespace loadcell::diskspd {
namespace {

bool NameStart(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':' ||
         (static_cast<unsigned char>(c) >= 0x80);
}
bool NameChar(char c) { return NameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.'; }
bool Blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// UTF-8 of a code point (a character reference).
void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class XmlScanner {
 public:
  explicit XmlScanner(const std::string& s) : s_(s) {}

  Result<XmlElement> Document();

 private:
  Status Error(const std::string& what) const {
    return Status::InvalidArgument(fmt::format("line {}: {}", line_, what));
  }
  bool At(const char* lit) const {
    return s_.compare(pos_, std::char_traits<char>::length(lit), lit) == 0;
  }
  void Advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < s_.size(); ++i) {
      if (s_[pos_] == '\n') ++line_;
      ++pos_;
    }
  }
  void SkipBlanks() {
    while (pos_ < s_.size() && Blank(s_[pos_])) Advance(1);
  }
  Status SkipPast(const char* end, const char* what) {
    const size_t at = s_.find(end, pos_);
    if (at == std::string::npos) return Error(fmt::format("{} is not closed", what));
    Advance(at + std::char_traits<char>::length(end) - pos_);
    return Status::Ok();
  }
  // Comments, blanks and (before the root) the declaration.
  Status Misc(bool prolog);
  Result<std::string> Name();
  Status Reference(std::string& out);
  Result<std::string> AttributeValue();
  Status Element(XmlElement& e, size_t depth);
  Status Content(XmlElement& e, size_t depth);

  const std::string& s_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t elements_ = 0;
};

Status XmlScanner::Misc(bool prolog) {
  for (;;) {
    SkipBlanks();
    if (At("<!--")) {
      LC_RETURN_IF_ERROR(SkipPast("-->", "a comment"));
    } else if (At("<?xml") && prolog && pos_ <= 3) {
      LC_RETURN_IF_ERROR(SkipPast("?>", "the XML declaration"));
    } else if (At("<?")) {
      return Error("processing instructions are not read (only the <?xml ...?> declaration first)");
    } else if (At("<!")) {
      return Error("a DTD or <!...> declaration is not read in a profile");
    } else {
      return Status::Ok();
    }
  }
}

Result<std::string> XmlScanner::Name() {
  if (pos_ >= s_.size() || !NameStart(s_[pos_])) return Error("expected a name");
  const size_t start = pos_;
  while (pos_ < s_.size() && NameChar(s_[pos_])) ++pos_;
  return s_.substr(start, pos_ - start);
}

Status XmlScanner::Reference(std::string& out) {
  const size_t semi = s_.find(';', pos_);
  if (semi == std::string::npos || semi - pos_ > 12)
    return Error("'&' starts no entity (&amp; for '&')");
  const std::string ref = s_.substr(pos_ + 1, semi - pos_ - 1);
  static const std::pair<const char*, char> kNamed[] = {
      {"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"quot", '"'}, {"apos", '\''}};
  for (const auto& [name, c] : kNamed) {
    if (ref == name) {
      out += c;
      Advance(semi + 1 - pos_);
      return Status::Ok();
    }
  }
  if (ref.size() > 1 && ref[0] == '#') {
    const bool hex = ref[1] == 'x';
    const std::string digits = ref.substr(hex ? 2 : 1);
    uint32_t cp = 0;
    bool ok = !digits.empty();
    for (char c : digits) {
      int d = -1;
      if (c >= '0' && c <= '9') d = c - '0';
      if (hex && c >= 'a' && c <= 'f') d = c - 'a' + 10;
      if (hex && c >= 'A' && c <= 'F') d = c - 'A' + 10;
      if (d < 0 || cp > 0x10FFFF) {
        ok = false;
        break;
      }
      cp = cp * (hex ? 16 : 10) + static_cast<uint32_t>(d);
    }
    if (ok && cp != 0 && cp <= 0x10FFFF) {
      AppendUtf8(cp, out);
      Advance(semi + 1 - pos_);
      return Status::Ok();
    }
  }
  return Error(fmt::format("unknown entity '&{};' (&lt; &gt; &amp; &quot; &apos; or &#N;)", ref));
}

Result<std::string> XmlScanner::AttributeValue() {
  if (pos_ >= s_.size() || (s_[pos_] != '"' && s_[pos_] != '\'')) {
    return Error("an attribute's value must be quoted");
  }
  const char quote = s_[pos_];
  Advance(1);
  std::string v;
  while (pos_ < s_.size() && s_[pos_] != quote) {
    if (s_[pos_] == '<') return Error("'<' in an attribute's value");
    if (s_[pos_] == '&') {
      LC_RETURN_IF_ERROR(Reference(v));
      continue;
    }
    v += s_[pos_];
    Advance(1);
  }
  if (pos_ >= s_.size()) return Error("an attribute's value is not closed");
  Advance(1);
  return v;
}

Status XmlScanner::Element(XmlElement& e, size_t depth) {
  if (depth > kMaxXmlDepth) return Error(fmt::format("elements nest deeper than {}", kMaxXmlDepth));
  if (++elements_ > kMaxXmlElements) {
    return Error(fmt::format("more than {} elements", kMaxXmlElements));
  }
  e.line = line_;
  Advance(1);  // '<'
  LC_ASSIGN_OR_RETURN(e.name, Name());
  for (;;) {
    const size_t before = pos_;
    SkipBlanks();
    if (At("/>")) {
      Advance(2);
      return Status::Ok();
    }
    if (At(">")) {
      Advance(1);
      return Content(e, depth);
    }
    if (pos_ == before) return Error(fmt::format("unexpected text in the tag <{}>", e.name));
    LC_ASSIGN_OR_RETURN(std::string name, Name());
    SkipBlanks();
    if (!At("=")) return Error(fmt::format("attribute '{}' of <{}> has no value", name, e.name));
    Advance(1);
    SkipBlanks();
    LC_ASSIGN_OR_RETURN(std::string value, AttributeValue());
    if (e.Attribute(name) != nullptr) {
      return Error(fmt::format("attribute '{}' of <{}> is given twice", name, e.name));
    }
    e.attributes.emplace_back(std::move(name), std::move(value));
  }
}

Status XmlScanner::Content(XmlElement& e, size_t depth) {
  for (;;) {
    if (pos_ >= s_.size()) return Error(fmt::format("<{}> is not closed", e.name));
    if (At("</")) {
      Advance(2);
      LC_ASSIGN_OR_RETURN(std::string name, Name());
      SkipBlanks();
      if (!At(">")) return Error(fmt::format("the end tag </{}> is not closed", name));
      Advance(1);
      if (name != e.name) {
        return Error(fmt::format("</{}> closes <{}> (opened at line {})", name, e.name, e.line));
      }
      return Status::Ok();
    }
    if (At("<!--")) {
      LC_RETURN_IF_ERROR(SkipPast("-->", "a comment"));
    } else if (At("<![CDATA[")) {
      Advance(9);
      const size_t end = s_.find("]]>", pos_);
      if (end == std::string::npos) return Error("a CDATA section is not closed");
      e.text += s_.substr(pos_, end - pos_);
      Advance(end + 3 - pos_);
    } else if (At("<?") || At("<!")) {
      return Error(fmt::format("unexpected markup in <{}>", e.name));
    } else if (At("<")) {
      XmlElement child;
      LC_RETURN_IF_ERROR(Element(child, depth + 1));
      e.children.push_back(std::move(child));
    } else if (At("&")) {
      LC_RETURN_IF_ERROR(Reference(e.text));
    } else {
      e.text += s_[pos_];
      Advance(1);
    }
  }
}

Result<XmlElement> XmlScanner::Document() {
  if (s_.size() > kMaxXmlBytes) {
    return Status::InvalidArgument(
        fmt::format("the profile is {} bytes, more than {} bytes", s_.size(), kMaxXmlBytes));
  }
  if (s_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;  // a UTF-8 byte order mark
  LC_RETURN_IF_ERROR(Misc(true));
  if (pos_ >= s_.size() || s_[pos_] != '<') return Error("expected the root element");
  XmlElement root;
  LC_RETURN_IF_ERROR(Element(root, 1));
  LC_RETURN_IF_ERROR(Misc(false));
  if (pos_ < s_.size()) return Error("text after the root element's end");
  return root;
}

}  // namespace

const std::string* XmlElement::Attribute(const std::string& attr) const {
  for (const auto& [k, v] : attributes) {
    if (k == attr) return &v;
  }
  return nullptr;
}

Result<XmlElement> ReadXmlDocument(const std::string& text) { return XmlScanner(text).Document(); }

}  // namespace loadcell::diskspd
