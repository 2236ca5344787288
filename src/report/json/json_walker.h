#pragma once
// What report/json/json_reader.cpp reads a saved result with: the parse of
// the text into a DOM, which names a syntax error's line and column and
// refuses deep nesting, and the Walker, typed accessors over the DOM that
// keep the first problem, named by its path in the document. Internal to
// report/json.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace loadcell::json_internal {

// ordered_json keeps the document's key order (counters, metrics, percentiles).
using Json = nlohmann::ordered_json;

// Arrays and objects nested deeper than this are no loadcell result (one
// nests 5 levels): refused while parsing, so nothing after the parse
// (messages, the walk, a render) ever recurses far.
inline constexpr size_t kMaxJsonDepth = 64;

// Parses `text` into `root`. "" when it parsed, else the problem in one
// line: "line L, column C: " and the parser's words, or "arrays and objects
// nested deeper than 64 levels".
std::string ParseJsonDom(std::string_view text, Json& root);

// "an object", "a string", "an integer", ...: a value's type in a message.
std::string TypeName(const Json& j);

// How a message quotes a value of the document: a string in quotes, cut to
// 64 bytes (at a character's start) with "..." after it; anything else by
// its type (a value may be large).
std::string QuotedValue(const Json& j);

// Walks the DOM with typed accessors; the first problem is kept in error()
// and later calls return defaults, so a caller checks once at the end.
class Walker {
 public:
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  // A message longer than 400 bytes (a path through keys of the document
  // may be long) is cut at a character's start with "...".
  void Fail(std::string message);

  // The member `key` of object `obj` (at `path`), or nullptr. A missing
  // required member is an error.
  const Json* Member(const Json& obj, const std::string& path, const char* key, bool required);

  const Json* Object(const Json& obj, const std::string& path, const char* key,
                     bool required = true);
  const Json* Array(const Json& obj, const std::string& path, const char* key,
                    bool required = true);
  std::string String(const Json& obj, const std::string& path, const char* key,
                     bool required = true);
  bool Bool(const Json& obj, const std::string& path, const char* key, bool required = true);
  uint64_t Uint(const Json& j, const std::string& path);
  uint64_t Uint(const Json& obj, const std::string& path, const char* key, bool required = true);
  // A number; null reads as NaN when `null_ok`. A figure beyond 1e18 (a
  // time, rate or mean of a result) is no measurement: refused, named out
  // of range, so no report or comparison prints inf.
  double Number(const Json& j, const std::string& path, bool null_ok = false);
  double Number(const Json& obj, const std::string& path, const char* key, bool required = true);

  static std::string Join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

 private:
  void Expected(const std::string& path, const char* what, const Json& found);
  std::string error_;
};

}  // namespace loadcell::json_internal
