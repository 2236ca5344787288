#include "report/json/json_walker.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/status.h"

namespace loadcell::json_internal {
namespace {

// A figure beyond this (a time, rate or mean of a result) is no measurement:
// refused, named out of range, so no report or comparison prints inf.
constexpr double kMaxFigure = 1e18;
// A string from the document quoted in a message is cut to this many bytes.
constexpr size_t kMaxQuotedBytes = 64;
constexpr size_t kMaxMessageBytes = 400;

// Builds the DOM like nlohmann's own SAX DOM parser but records a syntax
// error (its byte offset and text) instead of throwing it.
class DomBuilder final : public nlohmann::detail::json_sax_dom_parser<Json> {
 public:
  explicit DomBuilder(Json& root) : json_sax_dom_parser<Json>(root, /*allow_exceptions_=*/false) {}

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& /*last_token*/, const Exception& ex) {
    failed_ = true;
    position_ = position;
    message_ = ex.what();
    return false;
  }
  // Hide the base's: each level is counted, and one too deep ends the parse.
  bool start_object(std::size_t len) { return Deeper() && json_sax_dom_parser::start_object(len); }
  bool start_array(std::size_t len) { return Deeper() && json_sax_dom_parser::start_array(len); }
  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }
  bool end_array() {
    --depth_;
    return json_sax_dom_parser::end_array();
  }
  bool too_deep() const { return too_deep_; }

  bool failed() const { return failed_; }
  size_t position() const { return position_; }
  // nlohmann's text without its "[json.exception.parse_error.101] parse
  // error at line 1, column 2: " prefix.
  std::string Message() const {
    std::string m = message_;
    size_t colon = m.find(": ");
    if (m.rfind("[json.exception", 0) == 0 && colon != std::string::npos) m = m.substr(colon + 2);
    return m;
  }

 private:
  bool Deeper() {
    if (++depth_ <= kMaxJsonDepth) return true;
    too_deep_ = true;
    return false;
  }
  bool failed_ = false;
  bool too_deep_ = false;
  size_t depth_ = 0;
  size_t position_ = 0;
  std::string message_;
};

// "line L, column C" of byte `offset` (1-based), as an editor counts.
std::string LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t col = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

}  // namespace

std::string ParseJsonDom(std::string_view text, Json& root) {
  DomBuilder builder(root);
  const bool parsed = Json::sax_parse(text.begin(), text.end(), &builder);
  if (!parsed && builder.too_deep()) {
    return "arrays and objects nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  }
  if (builder.failed()) {
    // nlohmann reports the offset just past the offending token.
    size_t at = builder.position() > 0 ? builder.position() - 1 : 0;
    return LineColumn(text, at) + ": " + builder.Message();
  }
  return "";
}

std::string TypeName(const Json& j) {
  switch (j.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "an integer";
    case Json::value_t::number_float:
      return "a number with a fraction";
    default:
      return "something else";
  }
}

std::string QuotedValue(const Json& j) {
  if (!j.is_string()) return TypeName(j);
  const std::string& text = j.get_ref<const std::string&>();
  bool cut = false;
  const std::string_view kept = CutAtCharacter(text, kMaxQuotedBytes, &cut);
  return "\"" + std::string(kept) + "\"" +
         (cut ? "... (" + std::to_string(text.size()) + " bytes)" : "");
}

void Walker::Fail(std::string message) {
  if (!error_.empty()) return;
  bool cut = false;
  const std::string_view kept = CutAtCharacter(message, kMaxMessageBytes, &cut);
  error_ = cut ? std::string(kept) + "..." : std::move(message);
}

const Json* Walker::Member(const Json& obj, const std::string& path, const char* key,
                           bool required) {
  if (!ok()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end()) {
    if (required) Fail("missing field '" + Join(path, key) + "'");
    return nullptr;
  }
  return &*it;
}

const Json* Walker::Object(const Json& obj, const std::string& path, const char* key,
                           bool required) {
  const Json* j = Member(obj, path, key, required);
  if (j != nullptr && !j->is_object()) {
    Expected(Join(path, key), "an object", *j);
    return nullptr;
  }
  return j;
}

const Json* Walker::Array(const Json& obj, const std::string& path, const char* key,
                          bool required) {
  const Json* j = Member(obj, path, key, required);
  if (j != nullptr && !j->is_array()) {
    Expected(Join(path, key), "an array", *j);
    return nullptr;
  }
  return j;
}

std::string Walker::String(const Json& obj, const std::string& path, const char* key,
                           bool required) {
  const Json* j = Member(obj, path, key, required);
  if (j == nullptr) return "";
  if (!j->is_string()) {
    Expected(Join(path, key), "a string", *j);
    return "";
  }
  return j->get<std::string>();
}

bool Walker::Bool(const Json& obj, const std::string& path, const char* key, bool required) {
  const Json* j = Member(obj, path, key, required);
  if (j == nullptr) return false;
  if (!j->is_boolean()) {
    Expected(Join(path, key), "true or false", *j);
    return false;
  }
  return j->get<bool>();
}

uint64_t Walker::Uint(const Json& j, const std::string& path) {
  if (!ok()) return 0;
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer() && j.get<int64_t>() >= 0)
    return static_cast<uint64_t>(j.get<int64_t>());
  Expected(path, "a non-negative integer", j);
  return 0;
}

uint64_t Walker::Uint(const Json& obj, const std::string& path, const char* key, bool required) {
  const Json* j = Member(obj, path, key, required);
  return j == nullptr ? 0 : Uint(*j, Join(path, key));
}

double Walker::Number(const Json& j, const std::string& path, bool null_ok) {
  if (!ok()) return 0;
  if (j.is_number()) {
    const double v = j.get<double>();
    if (std::abs(v) <= kMaxFigure) return v;
    Fail(fmt::format("{}: {:g} is out of range (a figure is at most {:g} in size)", path, v,
                     kMaxFigure));
    return 0;
  }
  if (null_ok && j.is_null()) return std::numeric_limits<double>::quiet_NaN();
  Expected(path, "a number", j);
  return 0;
}

double Walker::Number(const Json& obj, const std::string& path, const char* key, bool required) {
  const Json* j = Member(obj, path, key, required);
  return j == nullptr ? 0 : Number(*j, Join(path, key));
}

void Walker::Expected(const std::string& path, const char* what, const Json& found) {
  Fail(path + ": expected " + what + ", found " + TypeName(found));
}

}  // namespace loadcell::json_internal
