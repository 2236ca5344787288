// The mysql driver's own path without a server: which negotiated sessions
// it refuses to run statements on, the protocol's integers, the requests it
// builds, the replies it reads, and its socket I/O against a scripted peer
// on the other end of a socket pair.

#include "db/mysql/mysql_wire.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <mysql.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "testing/watched_socket_pair.h"

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

std::string Header(size_t payload_len, uint8_t seq) {
  std::string h(4, '?');
  MyPutPacketHeader(h.data(), payload_len, seq);
  return h;
}

TEST(MyPutPacketHeaderTest, WritesTheLengthLittleEndianThenTheSequenceId) {
  EXPECT_EQ(Header(0, 0), std::string("\x00\x00\x00\x00", 4));
  EXPECT_EQ(Header(5, 1), std::string("\x05\x00\x00\x01", 4));
  EXPECT_EQ(Header(0x1234, 0), std::string("\x34\x12\x00\x00", 4));
  EXPECT_EQ(Header(65536, 2), std::string("\x00\x00\x01\x02", 4));  // above 16 bits
  EXPECT_EQ(Header(0xABCDEF, 255), "\xEF\xCD\xAB\xFF");
  EXPECT_EQ(Header(0xFFFFFE, 7), std::string("\xFE\xFF\xFF\x07", 4));
}

std::string LenEnc(uint64_t v) {
  std::string o;
  MyPutLenEnc(o, v);
  return o;
}

TEST(MyLenEncTest, EachRangeTakesItsPrefixAndWidth) {
  EXPECT_EQ(LenEnc(0), std::string(1, '\0'));
  EXPECT_EQ(LenEnc(0xFA), "\xFA");
  EXPECT_EQ(LenEnc(0xFB), std::string("\xFC\xFB\x00", 3));  // 0xFB itself means NULL
  EXPECT_EQ(LenEnc(0xFFFF), "\xFC\xFF\xFF");
  EXPECT_EQ(LenEnc(0x10000), std::string("\xFD\x00\x00\x01", 4));
  EXPECT_EQ(LenEnc(0xFFFFFF), "\xFD\xFF\xFF\xFF");
  EXPECT_EQ(LenEnc(0x1000000), std::string("\xFE\x00\x00\x00\x01\x00\x00\x00\x00", 9));
}

TEST(MyLenEncTest, ReadsBackWhatWasWrittenAndAdvancesPastIt) {
  for (uint64_t v :
       {uint64_t{0}, uint64_t{0xFA}, uint64_t{0xFB}, uint64_t{0xFFFF}, uint64_t{0x10000},
        uint64_t{0xFFFFFF}, uint64_t{0x1000000}, std::numeric_limits<uint64_t>::max()}) {
    std::string p = "x";
    MyPutLenEnc(p, v);
    p += 'y';
    size_t i = 1;
    uint64_t got = 0;
    ASSERT_TRUE(MyLenEnc(p, i, got)) << v;
    EXPECT_EQ(got, v);
    EXPECT_EQ(i, p.size() - 1) << v;
  }
}

TEST(MyLenEncTest, RefusesNullMarkersAndIntegersCutShort) {
  uint64_t v = 0;
  for (const std::string& p :
       {std::string(), std::string("\xFB"), std::string("\xFF"), std::string("\xFC\x01"),
        std::string("\xFD\x01\x02"), std::string("\xFE\x01\x02\x03\x04\x05\x06\x07")}) {
    size_t i = 0;
    EXPECT_FALSE(MyLenEnc(p, i, v)) << ::testing::PrintToString(p);
  }
}

TEST(MyPutIntTest, WritesTheLowBytesLeastSignificantFirst) {
  std::string o;
  MyPutInt(o, 0x0102030405060708ULL, 8);
  MyPutInt(o, 0xABCD, 2);
  MyPutInt(o, 0x11223344, 3);  // the fourth byte is not written
  EXPECT_EQ(o, std::string("\x08\x07\x06\x05\x04\x03\x02\x01\xCD\xAB\x44\x33\x22", 13));
  EXPECT_EQ(MyU16(o, 8), 0xABCD);
}

uint8_t BindOf(enum_field_types type) { return static_cast<uint8_t>(type); }

TEST(MyBuildStmtExecuteTest, SendsTheNullBitmapTheTypesThenTheValues) {
  const std::vector<uint8_t> binds = {BindOf(MYSQL_TYPE_LONGLONG), BindOf(MYSQL_TYPE_NULL),
                                      BindOf(MYSQL_TYPE_STRING), BindOf(MYSQL_TYPE_DOUBLE)};
  std::vector<MyParamValue> values(4);
  values[0].i = -2;
  values[1].i = 99;  // not sent: the parameter is NULL
  values[2].s = "abc";
  values[2].length = 2;  // the bound length, not the buffer's
  values[3].d = 1.5;
  std::string o = "left over";
  ASSERT_TRUE(MyBuildStmtExecute(o, 0x01020304, binds, values));
  const std::string payload = std::string("\x17\x04\x03\x02\x01", 5) +  // command, statement id
                              std::string("\x00\x01\x00\x00\x00", 5) +  // no cursor, 1 iteration
                              std::string("\x02\x01", 2) +              // NULL bitmap, types follow
                              std::string("\x08\x00\x06\x00\xFE\x00\x05\x00", 8) +  // the types
                              std::string("\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF", 8) +  // -2
                              std::string(
                                  "\x02"
                                  "ab",
                                  3) +                                             // "ab"
                              std::string("\x00\x00\x00\x00\x00\x00\xF8\x3F", 8);  // 1.5
  EXPECT_EQ(o, Header(payload.size(), 0) + payload);
}

TEST(MyBuildStmtExecuteTest, TheNullBitmapTakesAByteForEveryEightParameters) {
  std::vector<uint8_t> binds(9, BindOf(MYSQL_TYPE_LONGLONG));
  binds[0] = BindOf(MYSQL_TYPE_NULL);
  binds[8] = BindOf(MYSQL_TYPE_NULL);
  const std::vector<MyParamValue> values(9);
  std::string o;
  ASSERT_TRUE(MyBuildStmtExecute(o, 1, binds, values));
  // Header, command, statement id, flags, iteration count: 14 bytes.
  ASSERT_GT(o.size(), 17u);
  EXPECT_EQ(o.substr(14, 3), std::string("\x01\x01\x01", 3));  // bits 0 and 8, types follow
  // 9 types of 2 bytes, then 7 values of 8 bytes (the NULLs send none).
  EXPECT_EQ(o.size(), 17u + 18u + 7u * 8u);
}

TEST(MyBuildStmtExecuteTest, AStatementWithoutParametersSendsNoBitmap) {
  std::string o;
  ASSERT_TRUE(MyBuildStmtExecute(o, 7, {}, {}));
  const std::string payload("\x17\x07\x00\x00\x00\x00\x01\x00\x00\x00", 10);
  EXPECT_EQ(o, Header(payload.size(), 0) + payload);
}

TEST(MyBuildStmtExecuteTest, ARequestLongerThanOnePacketIsLeftToTheLibrary) {
  const std::vector<uint8_t> binds = {BindOf(MYSQL_TYPE_STRING)};
  std::vector<MyParamValue> values(1);
  // The payload: 10 bytes before the parameters, 1 of NULL bitmap, 1 of
  // flag, 2 of type, 4 of length, then the string: up to 0xFFFFFE in all.
  for (const size_t n : {size_t{0xFFFFFF - 19}, size_t{0xFFFFFF - 18}}) {
    values[0].s.assign(n, 's');
    values[0].length = static_cast<unsigned long>(n);
    std::string o;
    EXPECT_EQ(MyBuildStmtExecute(o, 1, binds, values), n == 0xFFFFFF - 19) << n;
  }
}

TEST(MyBuildQueryTest, IsTheCommandByteThenTheText) {
  std::string o = "left over";
  MyBuildQuery(o, "BEGIN");
  EXPECT_EQ(o, std::string("\x06\x00\x00\x00\x03"
                           "BEGIN",
                           10));
}

TEST(MyParseErrPacketTest, ReadsTheCodeTheSqlstateAndTheMessage) {
  MyServerError err;
  ASSERT_TRUE(MyParseErrPacket("\xFF\xBD\x04#40001Deadlock found", err));
  EXPECT_EQ(err.code, 1213);
  EXPECT_EQ(err.sqlstate, "40001");
  EXPECT_EQ(err.message, "Deadlock found");
}

TEST(MyParseErrPacketTest, APacketWithoutSqlstateHasOnlyTheMessage) {
  MyServerError err;
  ASSERT_TRUE(
      MyParseErrPacket("\xFF\x15\x04"
                       "Access denied",
                       err));
  EXPECT_EQ(err.code, 1045);
  EXPECT_EQ(err.sqlstate, "");
  EXPECT_EQ(err.message, "Access denied");
  ASSERT_TRUE(MyParseErrPacket("\xFF\x15\x04#4200", err));  // too short for a SQLSTATE
  EXPECT_EQ(err.sqlstate, "");
  EXPECT_EQ(err.message, "#4200");
  EXPECT_FALSE(MyParseErrPacket("\xFF\x15", err));
}

// How long the peer waits before it answers: the client's blocking recv()
// (or send()) has long been waiting.
constexpr std::chrono::milliseconds kLate{100};

class MyRawIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(pair_.Open());
    client_ = pair_.client;
    server_ = pair_.server;
    io_.Reset(client_);
  }
  void TearDown() override {
    if (peer_.joinable()) peer_.join();
    pair_.Close();
  }

  // The peer sends `bytes` after kLate, in two parts kLate apart.
  void ServeLate(std::string bytes) {
    peer_ = std::thread([this, bytes = std::move(bytes)] {
      const size_t half = bytes.size() / 2;
      std::this_thread::sleep_for(kLate);
      EXPECT_EQ(send(server_, bytes.data(), half, MSG_NOSIGNAL), static_cast<ssize_t>(half));
      std::this_thread::sleep_for(kLate);
      EXPECT_EQ(send(server_, bytes.data() + half, bytes.size() - half, MSG_NOSIGNAL),
                static_cast<ssize_t>(bytes.size() - half));
    });
  }

  testing::WatchedSocketPair pair_;
  int client_ = -1;
  int server_ = -1;
  MyRawIo io_;
  std::thread peer_;  // the scripted server, joined before the sockets close
};

TEST_F(MyRawIoTest, ARecvThatFindsNothingWaitsForThePacketInParts) {
  ServeLate(std::string("\x05\x00\x00\x00hello", 9));  // the first packet: sequence id 0
  std::string_view payload;
  ASSERT_TRUE(io_.Next(payload));
  EXPECT_EQ(payload, "hello");
}

TEST_F(MyRawIoTest, ASendThatFindsTheSocketFullWaitsForRoom) {
  // Far more than a socket pair buffers: the client's send() fills it and
  // finds no room until the peer reads.
  const std::string request(4 * 1024 * 1024, 'r');
  io_.out() = request;
  peer_ = std::thread([this, size = request.size()] {
    std::this_thread::sleep_for(kLate);
    std::string got(size, '\0');
    size_t have = 0;
    while (have < size) {
      const ssize_t n = recv(server_, got.data() + have, size - have, 0);
      if (n <= 0) break;
      have += static_cast<size_t>(n);
    }
    EXPECT_EQ(have, size);
    EXPECT_TRUE(got == std::string(size, 'r'));
  });
  EXPECT_TRUE(io_.Send());
}

TEST_F(MyRawIoTest, APeerThatClosesWhileWaitedForEndsTheConnection) {
  peer_ = std::thread([this] {
    std::this_thread::sleep_for(kLate);
    shutdown(server_, SHUT_WR);
  });
  std::string_view payload;
  EXPECT_FALSE(io_.Next(payload));
}

// A packet: header (sequence id `seq`) and `payload`.
std::string Packet(uint8_t seq, std::string_view payload) {
  return Header(payload.size(), seq) + std::string(payload);
}

// An OK packet: affected rows, insert id, the status flags, no warnings.
std::string Ok(uint8_t seq, uint8_t affected, uint16_t status = 0) {
  return Packet(
      seq, std::string{'\0', static_cast<char>(affected), '\0', static_cast<char>(status & 0xFF),
                       static_cast<char>(status >> 8), '\0', '\0'});
}

// An EOF packet with the status flags.
std::string Eof(uint8_t seq, uint16_t status = 0) {
  return Packet(seq, std::string{'\xFE', '\0', '\0', static_cast<char>(status & 0xFF),
                                 static_cast<char>(status >> 8)});
}

// A binary row of one value.
std::string Row(uint8_t seq) { return Packet(seq, std::string("\x00\x00\x01x", 4)); }

// Replies are read from a socket the scripted server has already written to
// (all fit in the socket's buffer), or closed.
class MyReplyTest : public MyRawIoTest {
 protected:
  void Serve(const std::string& bytes, bool then_close = false) {
    ASSERT_EQ(send(server_, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
    if (then_close) shutdown(server_, SHUT_WR);
  }
  // Sends a command (sequence id 0): its reply starts at sequence id 1.
  void Request() {
    io_.out() = Packet(0, "\x03");
    ASSERT_TRUE(io_.Send());
  }
  MyCommandReply Execute() {
    Request();
    MyCommandReply reply;
    MyReadExecuteReply(io_, reply);
    return reply;
  }
};

TEST_F(MyReplyTest, AnOkCountsTheAffectedRows) {
  Serve(Ok(1, 3));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kOk);
  EXPECT_EQ(r.rows_affected, 3u);
  EXPECT_EQ(r.rows_returned, 0u);
}

TEST_F(MyReplyTest, AResultSetCountsItsRowsPastTheColumns) {
  Serve(Packet(1, "\x02") + Packet(2, "column a") + Packet(3, "column b") + Eof(4) + Row(5) +
        Row(6) + Row(7) + Eof(8));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kOk);
  EXPECT_EQ(r.rows_returned, 3u);
  // Nothing of the reply is left to be taken for the next one's.
  Serve(Ok(1, 1));
  EXPECT_EQ(Execute().rows_affected, 1u);
}

TEST_F(MyReplyTest, AResultSetWithoutMetadataGoesStraightToTheEof) {
  // The column count, then 0: the server skips the columns it sent before.
  Serve(Packet(1, std::string("\x02\x00", 2)) + Eof(2) + Row(3) + Eof(4));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kOk);
  EXPECT_EQ(r.rows_returned, 1u);
}

TEST_F(MyReplyTest, MoreResultsAreReadWhileTheStatusSaysTheyFollow) {
  constexpr uint16_t kMore = SERVER_MORE_RESULTS_EXIST;
  Serve(Packet(1, "\x01") + Packet(2, "c") + Eof(3) + Row(4) + Eof(5, kMore) + Ok(6, 2, kMore) +
        Ok(7, 5));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kOk);
  EXPECT_EQ(r.rows_returned, 1u);
  EXPECT_EQ(r.rows_affected, 7u);
}

TEST_F(MyReplyTest, AnErrHandsBackItsPacket) {
  const std::string err("\xFF\xBD\x04#40001Deadlock found");
  Serve(Packet(1, err));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kServerError);
  EXPECT_EQ(r.error, err);
}

TEST_F(MyReplyTest, AnErrInsteadOfARowEndsTheResultSet) {
  const std::string err("\xFF\x0D\x05#22003Out of range");
  Serve(Packet(1, "\x01") + Packet(2, "c") + Eof(3) + Row(4) + Packet(5, err));
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kServerError);
  EXPECT_EQ(r.error, err);
  EXPECT_EQ(r.rows_returned, 1u);
}

TEST_F(MyReplyTest, PacketsThatMakeNoSenseAreMalformed) {
  Serve(Packet(1, ""));
  EXPECT_EQ(Execute().status, MyReplyStatus::kMalformed);
  Serve(Packet(1, std::string("\x00\x01", 2)));  // an OK cut short
  EXPECT_EQ(Execute().status, MyReplyStatus::kMalformed);
  Serve(Packet(1, "\xFB"));  // a NULL for a column count
  EXPECT_EQ(Execute().status, MyReplyStatus::kMalformed);
  Serve(Packet(1, "\x01") + Packet(2, "c") + Packet(3, "not an EOF"));
  EXPECT_EQ(Execute().status, MyReplyStatus::kMalformed);
  Serve(Packet(1, "\x01") + Packet(2, "c") + Eof(3) + Packet(4, "\x05"));  // not a row
  EXPECT_EQ(Execute().status, MyReplyStatus::kMalformed);
}

TEST_F(MyReplyTest, AServerThatClosesMidReplyLosesTheConnection) {
  Serve(Packet(1, "\x01") + Packet(2, "c") + Eof(3) + Row(4), true);
  const MyCommandReply r = Execute();
  EXPECT_EQ(r.status, MyReplyStatus::kLost);
  EXPECT_EQ(r.rows_returned, 1u);
}

TEST_F(MyReplyTest, AnOkReplyIsAnOkOrAnErrAndNothingElse) {
  MyCommandReply r;
  Serve(Ok(1, 9));
  Request();
  MyReadOkReply(io_, r);
  EXPECT_EQ(r.status, MyReplyStatus::kOk);
  EXPECT_EQ(r.rows_affected, 0u);  // its fields are not read
  r = {};
  Serve(Packet(1, "\xFF\x15\x04#28000denied"));
  Request();
  MyReadOkReply(io_, r);
  EXPECT_EQ(r.status, MyReplyStatus::kServerError);
  EXPECT_EQ(r.error, "\xFF\x15\x04#28000denied");
  r = {};
  Serve(Packet(1, "\x01"));  // a result set
  Request();
  MyReadOkReply(io_, r);
  EXPECT_EQ(r.status, MyReplyStatus::kMalformed);
  r = {};
  Serve("", true);
  Request();
  MyReadOkReply(io_, r);
  EXPECT_EQ(r.status, MyReplyStatus::kLost);
}

// A reply's packets follow the request's sequence ids; one out of order
// ends the reply (the connection is then closed) with the ids in words.
TEST_F(MyReplyTest, APacketOutOfOrderEndsTheReply) {
  for (const uint8_t wrong : {0, 2, 200}) {
    Serve(Ok(wrong, 1));
    const MyCommandReply r = Execute();
    EXPECT_EQ(r.status, MyReplyStatus::kLost);
    EXPECT_NE(io_.refused().find("sequence id " + std::to_string(wrong) + ", expected 1"),
              std::string::npos)
        << io_.refused();
    io_.Reset(client_);
  }
  Serve(Packet(1, "\x01") + Packet(2, "c") + Eof(4));  // out of order inside a result
  EXPECT_EQ(Execute().status, MyReplyStatus::kLost);
  EXPECT_NE(io_.refused().find("sequence id 4, expected 3"), std::string::npos) << io_.refused();
}

}  // namespace
}  // namespace loadcell
