#include "report/json/json_writer.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace loadcell {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t len = 0;
  uint32_t cp = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;
  if (cp > 0x10FFFF) return 0;
  return len;
}

}  // namespace

std::string JsonWriter::Quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"':
        out += "\\\"";
        ++i;
        continue;
      case '\\':
        out += "\\\\";
        ++i;
        continue;
      case '\n':
        out += "\\n";
        ++i;
        continue;
      case '\r':
        out += "\\r";
        ++i;
        continue;
      case '\t':
        out += "\\t";
        ++i;
        continue;
      case '\b':
        out += "\\b";
        ++i;
        continue;
      case '\f':
        out += "\\f";
        ++i;
        continue;
      default:
        break;
    }
    if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
      continue;
    }
    const size_t len = Utf8SequenceLength(s, i);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  out.push_back('"');
  return out;
}

std::string JsonWriter::Number(double v) {
  if (!std::isfinite(v)) return "null";
  // Shortest text that reads back as the same double; plain decimal (no
  // exponent) for magnitudes people read, such as 308000000 or 0.000125.
  const double mag = std::fabs(v);
  const bool plain = mag == 0 || (mag >= 1e-6 && mag < 1e16);
  char buf[400];
  auto [end, ec] = plain ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                         : std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return "null";
  return std::string(buf, end);
}

void JsonWriter::Newline(size_t depth) {
  out_ << '\n';
  for (size_t i = 0; i < depth + static_cast<size_t>(base_indent_); ++i) out_ << "  ";
}

void JsonWriter::BeforeValue() {
  if (stack_.empty()) {
    assert(!wrote_root_);
    wrote_root_ = true;
    return;
  }
  Frame& f = stack_.back();
  if (f.scope == Scope::kObject) {
    assert(f.after_key && "JSON value inside an object needs a key");
    f.after_key = false;
    return;
  }
  if (!f.empty) out_ << (f.scope == Scope::kInlineArray ? ", " : ",");
  if (f.scope == Scope::kArray) Newline(stack_.size());
  f.empty = false;
}

JsonWriter& JsonWriter::Key(std::string_view key) {
  assert(!stack_.empty() && stack_.back().scope == Scope::kObject);
  if (stack_.empty() || stack_.back().scope != Scope::kObject) return *this;
  Frame& f = stack_.back();
  assert(!f.after_key);
  if (!f.empty) out_ << ',';
  Newline(stack_.size());
  out_ << Quote(key) << ": ";
  f.empty = false;
  f.after_key = true;
  return *this;
}

void JsonWriter::BeginObject() {
  BeforeValue();
  out_ << '{';
  stack_.push_back({Scope::kObject});
}

void JsonWriter::BeginArray() {
  BeforeValue();
  out_ << '[';
  stack_.push_back({Scope::kArray});
}

void JsonWriter::BeginInlineArray() {
  BeforeValue();
  out_ << '[';
  stack_.push_back({Scope::kInlineArray});
}

void JsonWriter::End(Scope scope, char close) {
  assert(!stack_.empty() && stack_.back().scope == scope);
  if (stack_.empty()) return;
  const bool empty = stack_.back().empty;
  stack_.pop_back();
  if (!empty && scope != Scope::kInlineArray) Newline(stack_.size());
  out_ << close;
  if (stack_.empty()) out_ << '\n';
}

void JsonWriter::EndObject() { End(Scope::kObject, '}'); }
void JsonWriter::EndArray() { End(Scope::kArray, ']'); }
void JsonWriter::EndInlineArray() { End(Scope::kInlineArray, ']'); }

void JsonWriter::String(std::string_view s) {
  BeforeValue();
  out_ << Quote(s);
}

void JsonWriter::Double(double v) {
  BeforeValue();
  out_ << Number(v);
}

void JsonWriter::Uint(uint64_t v) {
  BeforeValue();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.write(buf, end - buf);
}

void JsonWriter::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.write(buf, end - buf);
}

void JsonWriter::Bool(bool v) {
  BeforeValue();
  out_ << (v ? "true" : "false");
}

void JsonWriter::Null() {
  BeforeValue();
  out_ << "null";
}

}  // namespace loadcell
