#include "db/pgsql/pg_wire.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "core/status.h"
#include "db/socket_wait.h"
#include "os/tcp.h"

namespace loadcell {
namespace {

constexpr size_t kInitialInput = size_t{16} * 1024;
// The input buffer grows to the largest message read (a wide row, a long
// error). Above this size it is given back once a reply has been read and
// nothing is left in it, so that one large result does not hold its memory
// for the rest of the connection; below, it is kept, so that replies of
// ordinary size never reallocate.
constexpr size_t kMaxKeptInput = size_t{1024} * 1024;

uint32_t GetUInt32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
}

int GetInt16(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return static_cast<int16_t>((u[0] << 8) | u[1]);
}

// Appends `s` up to its first NUL, then a NUL (a protocol string).
void PutCString(std::string& out, std::string_view s) {
  out.append(s.substr(0, s.find('\0')));
  out += '\0';
}

// Reads a NUL-terminated string at `pos` of `body`; false when unterminated.
bool TakeCString(std::string_view body, size_t& pos, std::string_view& s) {
  const size_t end = body.find('\0', pos);
  if (end == std::string_view::npos) return false;
  s = body.substr(pos, end - pos);
  pos = end + 1;
  return true;
}

bool ParseError(std::string_view body, PgReply& reply) {
  size_t pos = 0;
  while (pos < body.size() && body[pos] != '\0') {
    const char field = body[pos++];
    std::string_view value;
    if (!TakeCString(body, pos, value)) return false;
    if (field == 'C') reply.sqlstate.assign(value);
    if (field == 'M') reply.message.assign(value);
  }
  return true;
}

bool ParseColumns(std::string_view body, std::vector<std::string>& columns) {
  if (body.size() < 2) return false;
  const int n = GetInt16(body.data());
  size_t pos = 2;
  columns.clear();
  for (int i = 0; i < n; ++i) {
    std::string_view name;
    if (!TakeCString(body, pos, name)) return false;
    columns.emplace_back(name);
    pos += 18;  // table oid, column number, type oid, size, modifier, format
    if (pos > body.size()) return false;
  }
  return true;
}

bool ParseRow(std::string_view body, DbRows& rows) {
  if (body.size() < 2) return false;
  const int n = GetInt16(body.data());
  size_t pos = 2;
  // AddRow/SetValue reuse the buffers of rows the caller cleared.
  DbRows::Row& row = rows.AddRow(static_cast<size_t>(std::max(n, 0)));
  for (size_t i = 0; i < row.size(); ++i) {
    if (pos + 4 > body.size()) return false;
    const int32_t len = static_cast<int32_t>(GetUInt32(body.data() + pos));
    pos += 4;
    if (len < 0) {
      row[i].reset();
      continue;
    }
    if (pos + static_cast<size_t>(len) > body.size()) return false;
    DbRows::SetValue(row[i], body.data() + pos, static_cast<size_t>(len));
    pos += static_cast<size_t>(len);
  }
  return true;
}

// A send or receive that found nothing to do within its time limit, or
// nothing at once on a non-blocking socket: Wait() decides which.
bool WouldBlock(const Status& s) {
  return s.err() == EAGAIN || s.err() == EWOULDBLOCK || s.err() == ETIMEDOUT;
}

}  // namespace

void PgReply::Clear() {
  rows_returned = 0;
  rows_affected = 0;
  error = false;
  sqlstate.clear();
  message.clear();
  broken = false;
  io_error.clear();
  refused = false;
  timed_out = nullptr;
  copy_refused = false;
  copy_in = false;
  txn_status = 'I';
}

uint64_t PgTagCount(std::string_view tag) {
  const size_t nul = tag.find('\0');
  if (nul != std::string_view::npos) tag = tag.substr(0, nul);
  const size_t space = tag.find(' ');
  if (space == std::string_view::npos) return 0;
  const std::string_view verb = tag.substr(0, space);
  if (verb != "INSERT" && verb != "DELETE" && verb != "UPDATE" && verb != "SELECT" &&
      verb != "MOVE" && verb != "FETCH" && verb != "COPY" && verb != "MERGE") {
    return 0;
  }
  const std::string_view count = tag.substr(tag.rfind(' ') + 1);
  uint64_t n = 0;
  auto r = std::from_chars(count.data(), count.data() + count.size(), n);
  if (r.ec != std::errc() || r.ptr != count.data() + count.size()) return 0;
  return n;
}

void PgWire::Reset(SocketHandle fd) {
  fd_ = fd;
  out_.clear();
  in_begin_ = in_end_ = 0;
  deadline_.Reset(fd, read_ms_, write_ms_);
}

size_t PgWire::Start(char type) {
  const size_t at = out_.size();
  out_ += type;
  out_.append(4, '\0');
  return at;
}

void PgWire::End(size_t at) {
  const uint32_t len = static_cast<uint32_t>(out_.size() - at - 1);
  out_[at + 1] = static_cast<char>(len >> 24);
  out_[at + 2] = static_cast<char>(len >> 16);
  out_[at + 3] = static_cast<char>(len >> 8);
  out_[at + 4] = static_cast<char>(len);
}

void PgWire::Parse(std::string_view name, std::string_view sql) {
  const size_t at = Start('P');
  PutCString(out_, name);
  PutCString(out_, sql);
  PgPutBigEndian(out_, 0, 2);
  End(at);
}

void PgWire::Bind(std::string_view statement, int n, const char* const* values,
                  const int* lengths) {
  const size_t at = Start('B');
  out_ += '\0';  // the unnamed portal
  PutCString(out_, statement);
  PgPutBigEndian(out_, 0, 2);  // every parameter in text
  PgPutBigEndian(out_, static_cast<uint64_t>(n), 2);
  for (int i = 0; i < n; ++i) {
    if (values[i] == nullptr) {
      PgPutBigEndian(out_, static_cast<uint64_t>(-1), 4);
    } else {
      PgPutBigEndian(out_, static_cast<uint64_t>(lengths[i]), 4);
      out_.append(values[i], static_cast<size_t>(lengths[i]));
    }
  }
  PgPutBigEndian(out_, 0, 2);  // every result column in text
  End(at);
}

void PgWire::DescribePortal() {
  const size_t at = Start('D');
  out_ += 'P';
  out_ += '\0';
  End(at);
}

void PgWire::Execute() {
  const size_t at = Start('E');
  out_ += '\0';
  PgPutBigEndian(out_, 0, 4);  // all rows
  End(at);
}

void PgWire::Sync() {
  End(Start('S'));
  ends_extended_ = true;
}

void PgWire::Query(std::string_view sql) {
  const size_t at = Start('Q');
  PutCString(out_, sql);
  End(at);
  ends_extended_ = false;
}

bool PgWire::SetTimeouts(int read_ms, int write_ms) {
  read_ms_ = read_ms;
  write_ms_ = write_ms;
  deadline_.Reset(fd_, read_ms, write_ms);
  return TcpSetTimeouts(fd_, read_ms, write_ms).ok();
}

namespace {

// Marks `reply` broken at a time limit: of its reply (`reading`) or its send.
void TimedOutAt(bool reading, PgReply& reply) {
  reply.broken = true;
  reply.timed_out = reading ? "read" : "write";
  reply.io_error =
      reading ? "no reply from the server in time" : "the server did not take the request in time";
}

}  // namespace

bool PgWire::Wait(short events, PgReply& reply) {
  const bool reading = (events & kSocketReadable) != 0;
  if (!reading && !deadline_.BeforeSend()) {  // the request's send limit
    TimedOutAt(reading, reply);
    return false;
  }
  switch (WaitForSocket(fd_, events,
                        reading ? deadline_.WaitMs(read_ms_) : deadline_.SendWaitMs(write_ms_))) {
    case SocketWait::kReady:
      return true;
    case SocketWait::kTimedOut:
      TimedOutAt(reading, reply);
      return false;
    case SocketWait::kFailed:
      break;
  }
  reply.broken = true;
  reply.io_error = "could not wait for the server";
  return false;
}

bool PgWire::SendAll(PgReply& reply) {
  size_t done = 0;
  deadline_.ArmSend();  // the whole request within the write limit, not each send()
  while (done < out_.size()) {
    if (!deadline_.BeforeSend()) {
      TimedOutAt(/*reading=*/false, reply);
      return false;
    }
    Result<size_t> n = TcpSend(fd_, out_.data() + done, out_.size() - done);
    if (n.ok() && *n > 0) {
      done += *n;
      continue;
    }
    if (!n.ok() && WouldBlock(n.status())) {
      if (!Wait(kSocketWritable, reply)) return false;
      continue;
    }
    reply.broken = true;
    reply.io_error = n.ok() ? "could not send to the server: nothing sent"
                            : "could not send to the server: " + n.status().message();
    out_.clear();
    return false;
  }
  out_.clear();
  return true;
}

bool PgWire::Fill(size_t need, PgReply& reply) {
  if (in_end_ - in_begin_ >= need) return true;
  if (in_begin_ > 0) {
    std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
    in_end_ -= in_begin_;
    in_begin_ = 0;
  }
  while (in_end_ < need) {
    // Grown as bytes arrive (doubling), never to what a header claims.
    if (in_end_ == in_.size()) in_.resize(std::max(kInitialInput, std::min(need, in_.size() * 2)));
    if (!deadline_.BeforeRecv()) {
      TimedOutAt(/*reading=*/true, reply);
      return false;
    }
    Result<size_t> n = TcpRecv(fd_, in_.data() + in_end_, in_.size() - in_end_);
    if (n.ok() && *n > 0) {
      in_end_ += *n;
      continue;
    }
    if (!n.ok() && WouldBlock(n.status())) {
      if (!Wait(kSocketReadable, reply)) return false;
      continue;
    }
    reply.broken = true;
    reply.io_error = n.ok() ? std::string("server closed the connection unexpectedly")
                            : "could not receive from the server: " + n.status().message();
    return false;
  }
  return true;
}

// Marks `reply` broken by a message of `type` that makes no sense.
void PgWire::Malformed(char type, PgReply& reply) {
  reply.broken = true;
  reply.io_error = std::string("malformed message '") + type + "' from the server";
}

void PgWire::Refuse(std::string what, PgReply& reply) {
  reply.broken = true;
  reply.refused = true;
  reply.io_error = std::move(what);
}

bool PgWire::NextMessage(PgReply& reply, char& type, std::string_view& body) {
  if (!Fill(5, reply)) return false;
  type = in_[in_begin_];
  const uint32_t len = GetUInt32(in_.data() + in_begin_ + 1);
  if (len < 4) {
    Malformed(type, reply);
    return false;
  }
  if (len > limits_.max_bytes) {
    Refuse(ReplyLimitText("bytes", limits_.max_bytes), reply);
    return false;
  }
  if (!Fill(1 + size_t{len}, reply)) return false;
  body = std::string_view(in_.data() + in_begin_ + 5, len - 4);
  in_begin_ += 1 + size_t{len};
  return true;
}

bool PgWire::RefuseCopy(bool extended, PgReply& reply) {
  reply.copy_refused = true;
  const size_t at = Start('f');
  PutCString(out_, "COPY is only available through bulk insert");
  End(at);
  // A COPY of an extended-query request ignored the Sync sent with it
  // (the server ignores Sync in copy mode): it waits for another.
  if (extended) End(Start('S'));
  return SendAll(reply);
}

void PgWire::ShrinkInput() {
  if (in_.size() > kMaxKeptInput && in_begin_ == in_end_) {
    std::vector<char>(kInitialInput).swap(in_);
    in_begin_ = in_end_ = 0;
  }
}

void PgWire::StartCopyIn(std::string_view sql, PgReply& reply) {
  Query(sql);
  accept_copy_ = true;
  Exchange(1, reply, nullptr);
  accept_copy_ = false;
}

bool PgWire::CopyData(const char* data, size_t size, PgReply& reply) {
  reply.Clear();
  const size_t at = Start('d');
  out_.append(data, size);
  End(at);
  return SendAll(reply);
}

void PgWire::CopyEnd(const char* error) {
  if (error == nullptr) {
    End(Start('c'));
  } else {
    const size_t at = Start('f');
    PutCString(out_, error);
    End(at);
  }
  ends_extended_ = false;
}

void PgWire::Terminate() {
  End(Start('X'));
  PgReply ignored;
  SendAll(ignored);
}

void PgWire::Exchange(int ready, PgReply& reply, DbRows* rows) {
  reply.Clear();
  const bool extended = ends_extended_;
  if (!SendAll(reply)) return;
  deadline_.Arm(read_ms_);  // the reply's limit, from the request's send
  DbReplyBudget budget(limits_);
  uint64_t results = 0;
  const size_t rows_base = rows != nullptr ? rows->rows.size() : 0;
  const bool set_columns = rows != nullptr && rows->columns.empty();
  uint64_t data_rows = 0;
  bool described = false;  // the current result began with a RowDescription
  char type = 0;
  std::string_view body;
  while (ready > 0) {
    if (!NextMessage(reply, type, body)) return;
    switch (type) {
      case 'Z':  // ReadyForQuery
        if (body.empty()) return Malformed(type, reply);
        reply.txn_status = body[0];
        --ready;
        break;
      case 'T':  // RowDescription: a result with rows follows
        described = true;
        data_rows = 0;
        if (rows != nullptr) {
          rows->rows.resize(rows_base);
          if (set_columns && !ParseColumns(body, rows->columns)) return Malformed(type, reply);
        }
        break;
      case 'D':  // DataRow
        ++data_rows;
        if (rows != nullptr) {
          if (!budget.Take(body.size())) return Refuse(budget.Text(), reply);
          if (!ParseRow(body, *rows)) return Malformed(type, reply);
        }
        break;
      case 'C':  // CommandComplete: ends a result
        if (++results > kDbMaxResultsPerReply) {
          return Refuse(fmt::format("more than {} results for one request", kDbMaxResultsPerReply),
                        reply);
        }
        reply.rows_returned = data_rows;
        reply.rows_affected = described || data_rows > 0 ? 0 : PgTagCount(body);
        if (rows != nullptr && !described && data_rows == 0) rows->rows.resize(rows_base);
        data_rows = 0;
        described = false;
        break;
      case 'I':  // EmptyQueryResponse
        reply.rows_returned = 0;
        reply.rows_affected = 0;
        described = false;
        break;
      case 'E':  // ErrorResponse; the server skips to the next Sync
        if (!reply.error) {
          reply.error = true;
          if (!ParseError(body, reply)) return Malformed(type, reply);
        }
        break;
      // CopyInResponse: what StartCopyIn waits for; else refused (the server
      // then reports an error).
      case 'G':
        if (accept_copy_) {
          reply.copy_in = true;
          return;
        }
        if (!RefuseCopy(extended, reply)) return;
        break;
      case 'H':  // CopyOutResponse, its data and end: skipped
      case 'd':
      case 'c':
        reply.copy_refused = true;
        break;
      case '1':  // ParseComplete
      case '2':  // BindComplete
      case '3':  // CloseComplete
      case 'n':  // NoData
      case 's':  // PortalSuspended
      case 'N':  // NoticeResponse
      case 'S':  // ParameterStatus
      case 'A':  // NotificationResponse
        break;
      default:
        return Malformed(type, reply);
    }
  }
  // Once per reply, not per message: the loop above stays as it was.
  ShrinkInput();
}

}  // namespace loadcell
