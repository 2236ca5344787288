#pragma once
// PostgreSQL protocol bytes for the unit tests that play a server (or check
// what a client sent): big-endian integers, NUL-terminated strings, and a
// message with its type and length.

#include <cstdint>
#include <string>

namespace loadcell::testing {

// A 32-bit integer, big-endian.
inline std::string PgInt32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// A NUL-terminated string.
inline std::string PgStr(const std::string& s) { return s + '\0'; }

// One protocol message: type, big-endian length (itself included), body.
inline std::string PgMsg(char type, const std::string& body) {
  return std::string(1, type) + PgInt32(static_cast<uint32_t>(body.size() + 4)) + body;
}

}  // namespace loadcell::testing
