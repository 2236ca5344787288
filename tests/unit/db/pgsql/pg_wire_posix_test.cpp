// PgWire against a scripted server on the other end of a socket pair: the
// bytes it sends, and how it reads replies (split, interleaved with
// asynchronous messages, errors, a closed connection).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>

#include "db/pgsql/pg_wire.h"
#include "testing/pg_messages.h"
#include "testing/watched_socket_pair.h"

namespace loadcell {
namespace {

using testing::PgInt32;
using testing::PgMsg;
using testing::PgStr;

std::string Int16(int v) { return {static_cast<char>(v >> 8), static_cast<char>(v)}; }
// Concatenation by append (GCC 12 warns falsely on "x" + std::string chains).
template <typename... Parts>
std::string Cat(const Parts&... parts) {
  std::string s;
  (s.append(parts), ...);
  return s;
}

std::string Ready(char status) { return PgMsg('Z', std::string(1, status)); }
std::string Complete(const std::string& tag) { return PgMsg('C', PgStr(tag)); }
std::string DataRow(const std::vector<const char*>& values) {
  std::string b = Int16(static_cast<int>(values.size()));
  for (const char* v : values) {
    if (v == nullptr) {
      b += PgInt32(-1);
    } else {
      b += PgInt32(static_cast<int32_t>(std::strlen(v))) + v;
    }
  }
  return PgMsg('D', b);
}
std::string RowDescription(const std::vector<std::string>& names) {
  std::string b = Int16(static_cast<int>(names.size()));
  for (const auto& n : names) b += PgStr(n) + std::string(18, '\1');
  return PgMsg('T', b);
}
std::string Error(const std::string& severity, const std::string& state, const std::string& text) {
  return PgMsg('E', Cat("S", PgStr(severity), "V", PgStr(severity), "C", PgStr(state), "M",
                        PgStr(text), std::string(1, '\0')));
}

class PgWireTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(pair_.Open());
    wire_.Reset(client_);
  }
  void TearDown() override { pair_.Close(); }

  // MSG_NOSIGNAL: a write to a client the watchdog shut down fails the
  // assertion instead of killing the test binary with SIGPIPE.
  void Serve(const std::string& bytes) {
    ASSERT_EQ(send(server_, bytes.data(), bytes.size(), MSG_NOSIGNAL),
              static_cast<ssize_t>(bytes.size()));
  }
  // What the client sent so far.
  std::string Received() {
    std::string got;
    char buf[4096];
    const int flags = fcntl(server_, F_GETFL, 0);
    fcntl(server_, F_SETFL, flags | O_NONBLOCK);
    for (;;) {
      const ssize_t n = read(server_, buf, sizeof(buf));
      if (n <= 0) break;
      got.append(buf, static_cast<size_t>(n));
    }
    fcntl(server_, F_SETFL, flags);
    return got;
  }

  // Reads a reply holding one row of `bytes` bytes, served from a thread (a
  // reply larger than the socket's buffer blocks its writer until read).
  void ExchangeWideRow(size_t bytes) {
    const std::string value(bytes, 'x');
    const std::string reply =
        Cat(PgMsg('2', ""), DataRow({value.c_str()}), Complete("SELECT 1"), Ready('I'));
    std::thread server([&] { Serve(reply); });
    wire_.Exchange(1, reply_, nullptr);
    server.join();
  }

  // Exchange(1, ...) against `server`, a thread sending without end until
  // `stop`: stops and joins it after; the seconds the exchange took.
  double ExchangeThenStop(DbRows* rows, std::atomic<bool>& stop, std::thread& server) {
    const auto started = std::chrono::steady_clock::now();
    wire_.Exchange(1, reply_, rows);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    stop = true;
    shutdown(client_, SHUT_RD);  // ends a send the server is blocked in
    server.join();
    return took;
  }

  testing::WatchedSocketPair pair_;
  int& client_ = pair_.client;
  int& server_ = pair_.server;
  PgWire wire_;
  PgReply reply_;
};

TEST_F(PgWireTest, EncodesBindExecuteSyncAsTheProtocolSays) {
  const char* values[] = {"42", nullptr, "it's"};
  const int lengths[] = {2, 0, 4};
  wire_.Bind("lc7", 3, values, lengths);
  wire_.Execute();
  wire_.Sync();
  const std::string bind_body = PgStr("") + PgStr("lc7") + Int16(0) + Int16(3) + PgInt32(2) + "42" +
                                PgInt32(-1) + PgInt32(4) + "it's" + Int16(0);
  EXPECT_EQ(wire_.pending(),
            PgMsg('B', bind_body) + PgMsg('E', PgStr("") + PgInt32(0)) + PgMsg('S', ""));
}

TEST_F(PgWireTest, EncodesParseQueryAndDescribe) {
  wire_.Parse("lc1", "SELECT $1");
  wire_.Query(std::string_view("BEGIN\0ignored", 13));  // text ends at a NUL, as in libpq
  wire_.DescribePortal();
  EXPECT_EQ(wire_.pending(), PgMsg('P', PgStr("lc1") + PgStr("SELECT $1") + Int16(0)) +
                                 PgMsg('Q', PgStr("BEGIN")) + PgMsg('D', Cat("P", PgStr(""))));
}

TEST_F(PgWireTest, CountsRowsOfAResultAndSendsTheRequest) {
  const char* values[] = {"1"};
  const int lengths[] = {1};
  wire_.Bind("s", 1, values, lengths);
  wire_.Execute();
  wire_.Sync();
  const std::string request = wire_.pending();
  Serve(PgMsg('2', "") + DataRow({"a"}) + DataRow({"b"}) + Complete("SELECT 2") + Ready('T'));
  wire_.Exchange(1, reply_, nullptr);
  EXPECT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_FALSE(reply_.error);
  EXPECT_EQ(reply_.rows_returned, 2u);
  EXPECT_EQ(reply_.rows_affected, 0u);
  EXPECT_EQ(reply_.txn_status, 'T');
  EXPECT_EQ(Received(), request);
  EXPECT_TRUE(wire_.pending().empty());
}

TEST_F(PgWireTest, TakesTheCountOfTheLastCommandAfterADeferredBegin) {
  wire_.Query("BEGIN");
  wire_.Sync();
  Serve(Complete("BEGIN") + Ready('T') + PgMsg('2', "") +
        PgMsg('N', Cat("S", PgStr("WARNING"), std::string(1, '\0'))) +
        PgMsg('S', PgStr("TimeZone") + PgStr("UTC")) + Complete("UPDATE 3") + Ready('T'));
  wire_.Exchange(2, reply_, nullptr);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_EQ(reply_.rows_affected, 3u);
  EXPECT_EQ(reply_.rows_returned, 0u);
}

TEST_F(PgWireTest, KeepsRowsAndColumnNamesWhenAsked) {
  Serve(PgMsg('2', "") + RowDescription({"id", "c"}) + DataRow({"1", "x"}) +
        DataRow({"2", nullptr}) + Complete("SELECT 2") + Ready('I'));
  DbRows rows;
  wire_.Exchange(1, reply_, &rows);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_EQ(rows.columns, (std::vector<std::string>{"id", "c"}));
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[0][1], "x");
  EXPECT_FALSE(rows.rows[1][1].has_value());
  EXPECT_EQ(reply_.rows_returned, 2u);
}

TEST_F(PgWireTest, ReadsAReplyThatArrivesInPieces) {
  std::string reply = PgMsg('2', "");
  for (int i = 0; i < 500; ++i) reply += DataRow({"a fairly long value of a column, repeated"});
  reply += Complete("SELECT 500") + Ready('I');
  // A non-blocking socket as libpq leaves it: the reader waits with poll().
  fcntl(client_, F_SETFL, fcntl(client_, F_GETFL, 0) | O_NONBLOCK);
  std::thread server([&] {
    for (size_t i = 0; i < reply.size(); i += 7) {
      const std::string piece = reply.substr(i, 7);
      ASSERT_EQ(write(server_, piece.data(), piece.size()), static_cast<ssize_t>(piece.size()));
      if (i % 700 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  wire_.Exchange(1, reply_, nullptr);
  server.join();
  EXPECT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_EQ(reply_.rows_returned, 500u);
}

// A reply with a message of several MiB grows the input buffer; once read,
// the buffer is given back and the next reply is read as usual.
TEST_F(PgWireTest, GivesBackTheInputBufferAfterALargeMessage) {
  ExchangeWideRow(3 << 20);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_EQ(reply_.rows_returned, 1u);
  EXPECT_LE(wire_.input_capacity(), size_t{64} << 10);
  Serve(PgMsg('2', "") + DataRow({"a"}) + Complete("SELECT 1") + Ready('I'));
  wire_.Exchange(1, reply_, nullptr);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_EQ(reply_.rows_returned, 1u);
}

// Below the bound the grown buffer is kept: replies of the same size do not
// allocate again.
TEST_F(PgWireTest, KeepsAnInputBufferOfOrdinarySize) {
  ExchangeWideRow(256 << 10);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_GE(wire_.input_capacity(), size_t{256} << 10);
}

TEST_F(PgWireTest, KeepsTheFirstErrorAndTheFailedTransactionState) {
  Serve(Error("ERROR", "40P01", "deadlock detected") + Error("ERROR", "25P02", "aborted") +
        Ready('E'));
  wire_.Exchange(1, reply_, nullptr);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_TRUE(reply_.error);
  EXPECT_EQ(reply_.sqlstate, "40P01");
  EXPECT_EQ(reply_.message, "deadlock detected");
  EXPECT_EQ(reply_.txn_status, 'E');
}

TEST_F(PgWireTest, AClosedConnectionKeepsTheServersLastWord) {
  Serve(Error("FATAL", "57P01", "terminating connection due to administrator command"));
  close(server_);
  server_ = -1;
  wire_.Exchange(1, reply_, nullptr);
  EXPECT_TRUE(reply_.broken);
  EXPECT_TRUE(reply_.error);
  EXPECT_EQ(reply_.sqlstate, "57P01");
  EXPECT_NE(reply_.io_error.find("closed"), std::string::npos) << reply_.io_error;
}

TEST_F(PgWireTest, ASendToAClosedPeerIsReportedNotASignal) {
  close(server_);
  server_ = -1;
  wire_.Sync();
  wire_.Exchange(1, reply_, nullptr);
  EXPECT_TRUE(reply_.broken);
  EXPECT_FALSE(reply_.io_error.empty());
}

TEST_F(PgWireTest, AnUnknownMessageBreaksTheConnection) {
  Serve(PgMsg('?', "") + Ready('I'));
  wire_.Exchange(1, reply_, nullptr);
  EXPECT_TRUE(reply_.broken);
  EXPECT_NE(reply_.io_error.find("malformed"), std::string::npos) << reply_.io_error;
  // A length shorter than itself too.
  PgWire other(client_);
  Serve(std::string("Z") + PgInt32(2));
  other.Exchange(1, reply_, nullptr);
  EXPECT_TRUE(reply_.broken);
}

TEST_F(PgWireTest, RefusesACopyWithCopyFail) {
  Serve(PgMsg('G', std::string(1, '\0') + Int16(0)) +
        Error("ERROR", "57014", "COPY from stdin failed") + Ready('I'));
  wire_.Exchange(1, reply_, nullptr);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_TRUE(reply_.copy_refused);
  const std::string sent = Received();
  ASSERT_FALSE(sent.empty());
  EXPECT_EQ(sent[0], 'f');
  EXPECT_EQ(sent.find('S'), std::string::npos);  // a simple query needs no Sync
}

TEST_F(PgWireTest, RefusesACopyOfAPreparedStatementWithCopyFailAndSync) {
  wire_.Bind("lc1", 0, nullptr, nullptr);
  wire_.Execute();
  wire_.Sync();
  const std::string request = wire_.pending();
  Serve(PgMsg('2', "") + PgMsg('G', std::string(1, '\0') + Int16(0)) +
        Error("ERROR", "57014", "COPY from stdin failed") + Ready('I'));
  wire_.Exchange(1, reply_, nullptr);
  ASSERT_FALSE(reply_.broken) << reply_.io_error;
  EXPECT_TRUE(reply_.copy_refused);
  const std::string sent = Received();
  ASSERT_GT(sent.size(), request.size());
  const std::string after = sent.substr(request.size());
  ASSERT_FALSE(after.empty());
  EXPECT_EQ(after[0], 'f');
  EXPECT_EQ(after.substr(after.size() - 5), PgMsg('S', ""));
}

// A server that answers the request and then misbehaves: `head` once, then
// `unit` again and again, `chunk` bytes per send with `pause_ms` between
// sends, until the test stops it.
struct PgHostileReply {
  const char* name;
  std::string head;
  std::string unit;
  size_t chunk;
  int pause_ms;
  bool keep_rows;
  DbReplyLimits limits;
  // What ends the exchange: a bound ("--db-max-reply-..."), or the read
  // deadline (nullptr).
  const char* refused_with;
};

std::string PgLength(uint32_t len) { return PgInt32(len); }

// Sends `unit` again and again on `fd`, `chunk` bytes per send with
// `pause_ms` between sends, until `stop` or the peer is gone.
void SendWithoutEnd(int fd, const std::string& unit, size_t chunk, int pause_ms,
                    const std::atomic<bool>& stop) {
  std::string stream;
  while (stream.size() < chunk) stream += unit;
  size_t at = 0;
  while (!stop.load()) {
    const size_t n = std::min(chunk, stream.size() - at);
    if (send(fd, stream.data() + at, n, MSG_NOSIGNAL) < 0 && errno != EAGAIN) return;
    at = (at + n) % stream.size();
    if (pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(pause_ms));
  }
}

// Every reply bounded: the rows and bytes kept, a message's length, the
// results of one request, and the time, which bytes that trickle in or
// notices without end do not extend. The read limit is 1 s; a client that
// took each byte's arrival as a new start would run into the pair's 5 s
// watchdog. Bounds on time have room for a loaded machine.
TEST_F(PgWireTest, AHostileReplyEndsAtItsBoundInTimeAndMemory) {
  DbReplyLimits few_rows;
  few_rows.max_rows = 1000;
  DbReplyLimits few_bytes;
  few_bytes.max_bytes = 64 * 1024;
  DbReplyLimits two_gib;
  two_gib.max_bytes = uint64_t{2} << 30;
  const std::string wide(1000, 'w');
  const std::string notice = PgMsg('N', Cat("SNOTICE", std::string(1, '\0'), "Mhello",
                                            std::string(1, '\0'), std::string(1, '\0')));
  const PgHostileReply cases[] = {
      {"endless DataRows, kept", RowDescription({"a"}), DataRow({"1"}), 64 * 1024, 0, true,
       few_rows, "--db-max-reply-rows=1000"},
      {"endless wide DataRows, kept", RowDescription({"a"}), DataRow({wide.c_str()}), 64 * 1024, 0,
       true, few_bytes, "--db-max-reply-size=65536"},
      {"endless DataRows, counted only",
       RowDescription({"a"}),
       DataRow({"1"}),
       64 * 1024,
       0,
       false,
       {},
       nullptr},
      {"endless NoticeResponse mid-query", "", notice, 64 * 1024, 0, false, {}, nullptr},
      {"endless CommandComplete",
       "",
       Complete("SELECT 0"),
       64 * 1024,
       0,
       false,
       {},
       "more than 100000 results"},
      {"one byte per 100 ms", "", notice, 1, 100, false, {}, nullptr},
      {"a header claiming 1 GiB",
       Cat("D", PgLength(1U << 30)),
       "x",
       1,
       100,
       true,
       {},
       "--db-max-reply-size=67108864"},
      {"a header claiming 1 GiB under a 2 GiB limit", Cat("D", PgLength(1U << 30)), "x", 1, 100,
       true, two_gib, nullptr},
  };
  for (const PgHostileReply& c : cases) {
    SCOPED_TRACE(c.name);
    wire_.Reset(client_);
    ASSERT_TRUE(wire_.SetTimeouts(1000, 1000));
    wire_.set_limits(c.limits);
    std::atomic<bool> stop{false};
    std::thread server([&] {
      const std::string first = Cat(PgMsg('1', ""), c.head);
      if (send(server_, first.data(), first.size(), MSG_NOSIGNAL) < 0) return;
      SendWithoutEnd(server_, c.unit, c.chunk, c.pause_ms, stop);
    });
    DbRows rows;
    wire_.Parse("", "SELECT 1");
    wire_.Sync();
    const double took = ExchangeThenStop(c.keep_rows ? &rows : nullptr, stop, server);
    EXPECT_TRUE(reply_.broken);
    if (c.refused_with != nullptr) {
      EXPECT_TRUE(reply_.refused);
      EXPECT_NE(reply_.io_error.find(c.refused_with), std::string::npos) << reply_.io_error;
      EXPECT_LT(took, 3.0);
    } else {
      EXPECT_STREQ(reply_.timed_out, "read") << reply_.io_error;
      EXPECT_GE(took, 0.9);
      EXPECT_LT(took, 3.5);
    }
    EXPECT_LE(rows.rows.size(), static_cast<size_t>(c.limits.max_rows));
    // The buffer holds what arrived, never what a header claimed.
    EXPECT_LT(wire_.input_capacity(), size_t{8} << 20);
    // A fresh pair for the next case: this one holds the rest of a stream.
    pair_.Close();
    ASSERT_NO_FATAL_FAILURE(pair_.Open());
  }
}

// COPY's outcome after CopyDone is a reply like any other: notices without
// end, or one byte per 100 ms, end at the read limit (1 s) in one line.
TEST_F(PgWireTest, AHostileCopyOutcomeEndsAtTheReadLimit) {
  const std::string notice = PgMsg('N', Cat("SNOTICE", std::string(1, '\0'), "Mhello",
                                            std::string(1, '\0'), std::string(1, '\0')));
  struct Case {
    const char* name;
    size_t chunk;
    int pause_ms;
  };
  for (const Case& c : {Case{"endless NoticeResponse after CopyDone", 64 * 1024, 0},
                        Case{"one byte per 100 ms after CopyDone", 1, 100}}) {
    SCOPED_TRACE(c.name);
    wire_.Reset(client_);
    ASSERT_TRUE(wire_.SetTimeouts(1000, 1000));
    Serve(PgMsg('G', Cat(std::string(1, '\0'), Int16(1), Int16(0))));
    wire_.StartCopyIn("COPY t FROM STDIN", reply_);
    ASSERT_TRUE(reply_.copy_in) << reply_.io_error;
    ASSERT_TRUE(wire_.CopyData("1\n", 2, reply_)) << reply_.io_error;
    std::atomic<bool> stop{false};
    std::thread server([&] { SendWithoutEnd(server_, notice, c.chunk, c.pause_ms, stop); });
    wire_.CopyEnd(nullptr);
    const double took = ExchangeThenStop(nullptr, stop, server);
    EXPECT_TRUE(reply_.broken);
    EXPECT_STREQ(reply_.timed_out, "read") << reply_.io_error;
    EXPECT_EQ(reply_.io_error.find('\n'), std::string::npos) << reply_.io_error;
    EXPECT_GE(took, 0.9);
    EXPECT_LT(took, 3.5);
    EXPECT_LT(wire_.input_capacity(), size_t{8} << 20);
    pair_.Close();
    ASSERT_NO_FATAL_FAILURE(pair_.Open());
  }
}

TEST(PgTagCountTest, ReadsTheCountAsLibpqDoes) {
  EXPECT_EQ(PgTagCount(std::string_view("INSERT 0 3\0", 11)), 3u);
  EXPECT_EQ(PgTagCount("UPDATE 12"), 12u);
  EXPECT_EQ(PgTagCount("DELETE 0"), 0u);
  EXPECT_EQ(PgTagCount("SELECT 5"), 5u);
  EXPECT_EQ(PgTagCount("MERGE 2"), 2u);
  EXPECT_EQ(PgTagCount("BEGIN"), 0u);
  EXPECT_EQ(PgTagCount("CREATE TABLE"), 0u);
  EXPECT_EQ(PgTagCount("UPDATE x"), 0u);
}

}  // namespace
}  // namespace loadcell
