#pragma once
// A PostgreSQL server played on 127.0.0.1 for the binary's tests: reading
// the client's start and messages, and answering what an OLTP run asks (its
// checks of the tables, its settings, the prepared point select).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "testing/loopback_server.h"
#include "testing/pg_messages.h"

namespace loadcell::testing {

// The first message of a type from the client: its body ("" when it is gone).
inline std::string ReadTyped(LoopbackServer& s, SocketHandle fd) {
  const std::string head = s.Read(fd, 5);
  if (head.size() < 5) return "";
  const auto* u = reinterpret_cast<const unsigned char*>(head.data()) + 1;
  const uint32_t n = (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
  return n < 4 ? "" : s.Read(fd, n - 4);
}

inline bool ReadStartup(LoopbackServer& s, SocketHandle fd) {
  const std::string len = s.Read(fd, 4);
  if (len.size() < 4) return false;
  const auto* u = reinterpret_cast<const unsigned char*>(len.data());
  const uint32_t n = (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
  return n >= 4 && s.Read(fd, n - 4).size() == n - 4;
}

// A server that answers what an OLTP run asks: its checks of the tables, its
// settings, and the prepared point select, each with one plain row.
inline std::vector<std::vector<std::string>> PgOltpAnswer(const std::string& sql) {
  if (sql.find("pg_class c JOIN") != std::string::npos) return {{"16384", ""}};
  if (sql.find("information_schema.columns") != std::string::npos) {
    return {{"id"}, {"k"}, {"c"}, {"pad"}};
  }
  if (sql.find("pg_size_bytes") != std::string::npos ||
      sql.find("SUM(pg_total_relation_size") != std::string::npos) {
    return {{"1"}};
  }
  return {};
}

inline std::string PgRowsReply(const std::vector<std::vector<std::string>>& rows) {
  const size_t columns = rows.empty() ? 1 : rows[0].size();
  std::string description = std::string(1, '\0') + static_cast<char>(columns);
  for (size_t i = 0; i < columns; ++i) description += PgStr("a") + std::string(18, '\0');
  std::string out = PgMsg('T', description);
  for (const auto& row : rows) {
    std::string body = std::string(1, '\0') + static_cast<char>(row.size());
    for (const std::string& v : row) body += PgInt32(static_cast<uint32_t>(v.size())) + v;
    out += PgMsg('D', body);
  }
  return out + PgMsg('C', PgStr("SELECT " + std::to_string(rows.size())));
}

// `version` is its server_version; `send` (when set) sends each reply in
// place of Send: a test's way to cut one in parts. `query` (when set) sees
// each simple query's text first and may answer it itself: false ends the
// connection there (a test's way to misbehave at one request).
inline void ServeAnOltpRun(
    LoopbackServer& s, SocketHandle fd, const std::string& version,
    const std::function<bool(LoopbackServer&, SocketHandle, const std::string&)>& send = {},
    const std::function<bool(LoopbackServer&, SocketHandle, const std::string&)>& query = {}) {
  if (!ReadStartup(s, fd)) return;
  if (!s.Send(fd, PgMsg('R', PgInt32(0)) + PgMsg('S', PgStr("server_version") + PgStr(version)) +
                      PgMsg('Z', "I"))) {
    return;
  }
  while (!s.stopping()) {
    const std::string head = s.Read(fd, 5);
    if (head.size() < 5) return;
    const auto* u = reinterpret_cast<const unsigned char*>(head.data()) + 1;
    const uint32_t n =
        (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
    const std::string body = n < 4 ? "" : s.Read(fd, n - 4);
    std::string reply;
    switch (head[0]) {
      case 'Q':
        if (query && !query(s, fd, body)) return;
        reply = PgRowsReply(PgOltpAnswer(body)) + PgMsg('Z', "I");
        break;
      case 'P':
        reply = PgMsg('1', "");
        break;
      case 'B':
        reply = PgMsg('2', "");
        break;
      case 'D':
        reply = PgMsg('n', "");
        break;
      case 'E':
        reply = PgMsg('C', PgStr("SELECT 0"));
        break;
      case 'S':
        reply = PgMsg('Z', "I");
        break;
      case 'X':
        return;
      default:
        break;
    }
    if (!reply.empty() && !(send ? send(s, fd, reply) : s.Send(fd, reply))) return;
  }
}

}  // namespace loadcell::testing
