#include "db/mysql/mysql_wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace loadcell {

bool MyBuildStmtExecute(std::string& o, uint32_t stmt_id, std::span<const uint8_t> types,
                        std::span<const MyParamValue> values) {
  o.assign(4, '\0');
  o += '\x17';  // COM_STMT_EXECUTE
  MyPutInt(o, stmt_id, 4);
  o += '\0';          // no cursor
  MyPutInt(o, 1, 4);  // iteration count
  const size_t n = types.size();
  if (n > 0) {
    const size_t bitmap = o.size();
    o.append((n + 7) / 8, '\0');
    o += '\x01';  // types follow
    for (size_t k = 0; k < n; ++k) {
      const uint8_t t = types[k];
      if (t == kMyTypeNull) {
        o[bitmap + k / 8] = static_cast<char>(o[bitmap + k / 8] | (1 << (k % 8)));
      }
      o += static_cast<char>(t);
      o += '\0';
    }
    for (size_t k = 0; k < n; ++k) {
      const MyParamValue& v = values[k];
      switch (types[k]) {
        case kMyTypeLongLong:
          MyPutInt(o, static_cast<uint64_t>(v.i), 8);
          break;
        case kMyTypeDouble: {
          uint64_t bits = 0;
          std::memcpy(&bits, &v.d, sizeof(bits));
          MyPutInt(o, bits, 8);
          break;
        }
        case kMyTypeString:
          MyPutLenEnc(o, v.length);
          o.append(v.s.data(), v.length);
          break;
        default:
          break;
      }
    }
  }
  const size_t len = o.size() - 4;
  if (len >= 0xFFFFFF) return false;
  MyPutPacketHeader(o.data(), len, 0);  // a command starts at sequence id 0
  return true;
}

void MyBuildQuery(std::string& o, std::string_view sql) {
  o.assign(4, '\0');
  o += '\x03';  // COM_QUERY
  o.append(sql);
  MyPutPacketHeader(o.data(), sql.size() + 1, 0);
}

bool MyParseErrPacket(std::string_view p, MyServerError& out) {
  if (p.size() < 3) return false;
  out.code = MyU16(p, 1);
  out.sqlstate = {};
  out.message = p.substr(3);
  if (p.size() >= 9 && p[3] == '#') {
    out.sqlstate = p.substr(4, 5);
    out.message = p.substr(9);
  }
  return true;
}

namespace {

// Ends `reply` with `status`; `p` is the ERR packet for kServerError.
void End(MyCommandReply& reply, MyReplyStatus status, std::string_view p = {}) {
  reply.status = status;
  reply.error = p;
}

// End, for a step that then returns false.
bool Stop(MyCommandReply& reply, MyReplyStatus status, std::string_view p = {}) {
  End(reply, status, p);
  return false;
}

// Reads a result set whose first packet (the column count) is `p`, up to its
// closing EOF, counting the rows; sets *status to the server's status flags.
// False when the reply ended otherwise (`reply` then says how).
bool ReadResultSet(MyRawIo& io, std::string_view p, MyCommandReply& reply, uint16_t* status) {
  size_t i = 0;
  uint64_t ncols = 0;
  if (!MyLenEnc(p, i, ncols)) return Stop(reply, MyReplyStatus::kMalformed);
  if (ncols > kMyMaxColumns) {
    io.Refuse(TooManyColumnsText(ncols));
    return Stop(reply, MyReplyStatus::kLost);
  }
  // The columns, unless the server skips metadata it sent before; the
  // EOF after them comes either way.
  const bool metadata = i >= p.size() || p[i] != 0;
  for (uint64_t c = 0; c < (metadata ? ncols : 0) + 1; ++c) {
    if (!io.Next(p)) return Stop(reply, MyReplyStatus::kLost);
  }
  if (p.empty() || static_cast<unsigned char>(p[0]) != 0xFE) {
    return Stop(reply, MyReplyStatus::kMalformed);
  }
  for (;;) {
    if (!io.Next(p)) return Stop(reply, MyReplyStatus::kLost);
    if (p.empty()) return Stop(reply, MyReplyStatus::kMalformed);
    const auto r = static_cast<unsigned char>(p[0]);
    if (r == 0x00) {
      ++reply.rows_returned;
    } else if (r == 0xFF) {
      return Stop(reply, MyReplyStatus::kServerError, p);
    } else if (r == 0xFE && p.size() < 9) {
      *status = p.size() >= 5 ? MyU16(p, 3) : 0;
      return true;
    } else {
      return Stop(reply, MyReplyStatus::kMalformed);
    }
  }
}

}  // namespace

std::string TooManyResultsText() {
  return fmt::format("more than {} results for one statement", kDbMaxResultsPerReply);
}

std::string TooManyColumnsText(uint64_t columns) {
  return fmt::format("a result set of {} columns (more than {}, the most MySQL allows)", columns,
                     kMyMaxColumns);
}

void MyReadExecuteReply(MyRawIo& io, MyCommandReply& reply) {
  std::string_view p;
  for (uint64_t results = 0;; ++results) {
    if (results == kDbMaxResultsPerReply) {
      io.Refuse(TooManyResultsText());
      return End(reply, MyReplyStatus::kLost);
    }
    if (!io.Next(p)) return End(reply, MyReplyStatus::kLost);
    if (p.empty()) return End(reply, MyReplyStatus::kMalformed);
    const auto head = static_cast<unsigned char>(p[0]);
    if (head == 0xFF) return End(reply, MyReplyStatus::kServerError, p);
    uint16_t status = 0;
    if (head == 0x00) {
      size_t i = 1;
      uint64_t affected = 0;
      uint64_t insert_id = 0;
      if (!MyLenEnc(p, i, affected) || !MyLenEnc(p, i, insert_id) || i + 2 > p.size()) {
        return End(reply, MyReplyStatus::kMalformed);
      }
      reply.rows_affected += affected;
      status = MyU16(p, i);
    } else if (!ReadResultSet(io, p, reply, &status)) {
      return;
    }
    if ((status & kMyServerMoreResultsExist) == 0) return End(reply, MyReplyStatus::kOk);
  }
}

void MyReadOkReply(MyRawIo& io, MyCommandReply& reply) {
  std::string_view p;
  if (!io.Next(p)) return End(reply, MyReplyStatus::kLost);
  if (!p.empty() && static_cast<unsigned char>(p[0]) == 0x00) return End(reply, MyReplyStatus::kOk);
  if (!p.empty() && static_cast<unsigned char>(p[0]) == 0xFF) {
    return End(reply, MyReplyStatus::kServerError, p);
  }
  End(reply, MyReplyStatus::kMalformed);
}

bool MyRawIo::Reset(SocketHandle fd, int read_ms, int write_ms) {
  fd_ = fd;
  pos_ = end_ = 0;
  timed_out_ = nullptr;
  refused_.clear();
  read_ms_ = read_ms;
  fixed_deadline_ = false;
  next_seq_ = 0;
  deadline_.Reset(fd, read_ms, write_ms);
  return (read_ms == 0 && write_ms == 0) || TcpSetTimeouts(fd, read_ms, write_ms).ok();
}

void MyRawIo::SetDeadline(ReplyDeadline::Clock::time_point at) {
  fixed_deadline_ = true;
  deadline_.ArmUntil(at);
}

void MyRawIo::NoteFailure(const Status& failed, const char* which) {
  if (failed.err() == ETIMEDOUT) timed_out_ = which;
}

bool MyRawIo::Send(bool more_of_request) {
  // The reply goes on from the sequence id of the last packet sent.
  for (size_t at = 0; at + 4 <= out_.size(); at += 4 + Len(out_, at)) {
    next_seq_ = static_cast<uint8_t>(out_[at + 3] + 1);
  }
  size_t done = 0;
  deadline_.ArmSend();  // the whole request within the write limit, not each send()
  while (done < out_.size()) {
    if (!deadline_.BeforeSend()) {
      timed_out_ = "write";
      return false;
    }
    Result<size_t> n = TcpSend(fd_, out_.data() + done, out_.size() - done);
    if (!n.ok()) {
      NoteFailure(n.status(), "write");
      return false;
    }
    if (*n == 0) return false;
    done += *n;
  }
  if (!fixed_deadline_ && !more_of_request) deadline_.Arm(read_ms_);  // the reply's limit
  return true;
}

bool MyRawIo::Refuse(std::string why) {
  refused_ = std::move(why);
  return false;
}

bool MyRawIo::TakeSequence() {
  const auto seq = static_cast<uint8_t>(buf_[pos_ + 3]);
  if (seq != next_seq_) {
    return Refuse(
        fmt::format("a packet out of order (sequence id {}, expected {})", seq, next_seq_));
  }
  ++next_seq_;
  pos_ += 4;
  return true;
}

bool MyRawIo::Next(std::string_view& payload) {
  if (!Fill(4)) return false;
  size_t len = Len(buf_, pos_);
  if (!TakeSequence()) return false;
  if (len < 0xFFFFFF) {
    if (len > max_payload_) return Refuse(ReplyLimitText("bytes", max_payload_));
    if (!Fill(len)) return false;
    payload = std::string_view(buf_.data() + pos_, len);
    pos_ += len;
    return true;
  }
  big_.clear();
  for (;;) {  // a payload of 16 MB or more comes in several packets
    if (big_.size() + len > max_payload_) return Refuse(ReplyLimitText("bytes", max_payload_));
    if (!Fill(len)) return false;
    big_.append(buf_.data() + pos_, len);
    pos_ += len;
    if (len < 0xFFFFFF) break;
    if (!Fill(4)) return false;
    len = Len(buf_, pos_);
    if (!TakeSequence()) return false;
  }
  payload = big_;
  return true;
}

size_t MyRawIo::Len(const std::string& b, size_t at) {
  const auto* u = reinterpret_cast<const unsigned char*>(b.data() + at);
  return static_cast<size_t>(u[0]) | static_cast<size_t>(u[1]) << 8 |
         static_cast<size_t>(u[2]) << 16;
}

// Makes `n` bytes from pos_ available. The buffer grows as bytes arrive
// (doubling), never to what a header claims before they do.
bool MyRawIo::Fill(size_t n) {
  if (end_ - pos_ >= n) return true;
  if (pos_ == end_) {
    pos_ = end_ = 0;  // all read (the usual case at a reply's start): nothing to move
  } else if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  while (end_ < n) {
    if (end_ == buf_.size()) buf_.resize(std::min(n, std::max(buf_.size() * 2, size_t{64} * 1024)));
    if (!deadline_.BeforeRecv()) {
      timed_out_ = "read";
      return false;
    }
    Result<size_t> r = TcpRecv(fd_, buf_.data() + end_, buf_.size() - end_);
    if (!r.ok()) {
      NoteFailure(r.status(), "read");
      return false;
    }
    if (*r == 0) return false;  // the server closed the connection
    end_ += *r;
  }
  return true;
}

const char* MyOwnPathObstacle(uint64_t client_flags, uint64_t server_capabilities, bool tls) {
  const uint64_t agreed = client_flags & server_capabilities;
  if (tls || (agreed & kMyClientSsl) != 0) return "the connection uses TLS";
  if ((agreed & (kMyClientCompress | kMyClientZstdCompression)) != 0) {
    return "the connection is compressed";
  }
  if ((agreed & kMyClientProtocol41) == 0) return "the server speaks a protocol older than 4.1";
  if ((agreed & kMyClientDeprecateEof) != 0) {
    return "the session ends results without EOF packets (CLIENT_DEPRECATE_EOF)";
  }
  return nullptr;
}

}  // namespace loadcell
