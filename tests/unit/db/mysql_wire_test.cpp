// The mysql driver's own path without a server: which negotiated sessions
// it refuses to run statements on.

#include "db/mysql_wire.h"

#include <mysql.h>

#include <gtest/gtest.h>

#include <string>

namespace loadcell {
namespace {

// What libmariadb agrees with a MariaDB 10.11 server over a plain socket.
constexpr uint64_t kClient = CLIENT_CAPABILITIES | CLIENT_LOCAL_FILES | CLIENT_CONNECT_WITH_DB;
constexpr uint64_t kServer = CLIENT_SUPPORTED_FLAGS | CLIENT_ALLOWED_FLAGS | kMyClientDeprecateEof;

std::string Obstacle(uint64_t client, uint64_t server, bool tls = false) {
  const char* why = MyOwnPathObstacle(client, server, tls);
  return why != nullptr ? why : "";
}

TEST(MyOwnPathObstacleTest, APlainUncompressedSessionWithEofPacketsIsUsed) {
  EXPECT_EQ(Obstacle(kClient, kServer), "");
  // A flag only one side has is not in effect.
  EXPECT_EQ(Obstacle(kClient | CLIENT_COMPRESS, kServer & ~CLIENT_COMPRESS), "");
  EXPECT_EQ(Obstacle(kClient, kServer | CLIENT_COMPRESS | CLIENT_SSL), "");
}

TEST(MyOwnPathObstacleTest, EveryBrokenAssumptionIsNamed) {
  EXPECT_NE(Obstacle(kClient, kServer, true).find("TLS"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_SSL, kServer).find("TLS"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_COMPRESS, kServer).find("compressed"), std::string::npos);
  EXPECT_NE(Obstacle(kClient | CLIENT_ZSTD_COMPRESSION, kServer).find("compressed"),
            std::string::npos);
  EXPECT_NE(Obstacle(kClient | kMyClientDeprecateEof, kServer).find("DEPRECATE_EOF"),
            std::string::npos);
  EXPECT_NE(Obstacle(kClient, kServer & ~CLIENT_PROTOCOL_41).find("4.1"), std::string::npos);
  EXPECT_NE(Obstacle(kClient & ~CLIENT_PROTOCOL_41, kServer).find("4.1"), std::string::npos);
}

}  // namespace
}  // namespace loadcell
