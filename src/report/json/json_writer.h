#pragma once
// A small streaming JSON writer. It cannot produce invalid JSON for any
// input: strings are escaped (control characters, quotes, backslashes; bytes
// that are not valid UTF-8 become U+FFFD), and non-finite numbers (NaN,
// +/-Inf) are written as null. Output is pretty-printed with two-space
// indentation so that documents diff well.
//
// Usage:
//   JsonWriter w(out);
//   w.BeginObject();
//   w.Key("events"); w.Uint(42);
//   w.EndObject();
//
// Misuse (a value where a key is expected, unbalanced End calls) is a
// programming error; it is caught by assertions in debug builds and never
// produces a crash in release builds. Not thread-safe.

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace loadcell {

class JsonWriter final {
 public:
  explicit JsonWriter(std::ostream& out, int base_indent = 0)
      : out_(out), base_indent_(base_indent) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  // Inside an object: the name of the next value (w.Key("n").Uint(1)).
  JsonWriter& Key(std::string_view key);

  void String(std::string_view s);
  void Double(double v);  // shortest round-trip form; null when not finite
  void Uint(uint64_t v);
  void Int(int64_t v);
  void Bool(bool v);
  void Null();

  // Arrays written on one line ([1, 2, 3]) for short numeric tuples.
  void BeginInlineArray();
  void EndInlineArray();

  // True once the top-level value is complete.
  bool Done() const { return stack_.empty() && wrote_root_; }

  // The JSON text for a string (with quotes); exposed for tests.
  static std::string Quote(std::string_view s);
  // The JSON text for a number; "null" when not finite.
  static std::string Number(double v);

 private:
  enum class Scope { kObject, kArray, kInlineArray };
  struct Frame {
    Scope scope;
    bool empty = true;
    bool after_key = false;
  };
  void BeforeValue();
  void Newline(size_t depth);
  void End(Scope scope, char close);

  std::ostream& out_;
  int base_indent_;
  std::vector<Frame> stack_;
  bool wrote_root_ = false;
};

}  // namespace loadcell
