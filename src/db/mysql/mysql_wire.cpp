#include "db/mysql/mysql_wire.h"

#include <mysql.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace loadcell {

// Waits for the socket to be ready for `events`; false when it cannot.
bool MyRawIo::Wait(short events) {
  pollfd p{fd_, events, 0};
  for (;;) {
    if (::poll(&p, 1, -1) >= 0) return true;
    if (errno != EINTR) return false;
  }
}

bool MyRawIo::Send() {
  size_t done = 0;
  while (done < out_.size()) {
    const ssize_t n = ::send(fd_, out_.data() + done, out_.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && Wait(POLLOUT)) continue;
    return false;
  }
  return true;
}

bool MyRawIo::Next(std::string_view& payload) {
  if (!Fill(4)) return false;
  size_t len = Len();
  pos_ += 4;
  if (len < 0xFFFFFF) {
    if (!Fill(len)) return false;
    payload = std::string_view(buf_.data() + pos_, len);
    pos_ += len;
    return true;
  }
  big_.clear();
  for (;;) {  // a payload of 16 MB or more comes in several packets
    if (!Fill(len)) return false;
    big_.append(buf_.data() + pos_, len);
    pos_ += len;
    if (len < 0xFFFFFF) break;
    if (!Fill(4)) return false;
    len = Len();
    pos_ += 4;
  }
  payload = big_;
  return true;
}

size_t MyRawIo::Len() const {
  const auto* b = reinterpret_cast<const unsigned char*>(buf_.data() + pos_);
  return static_cast<size_t>(b[0]) | static_cast<size_t>(b[1]) << 8 |
         static_cast<size_t>(b[2]) << 16;
}

// Makes `n` bytes from pos_ available.
bool MyRawIo::Fill(size_t n) {
  if (end_ - pos_ >= n) return true;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  if (buf_.size() < n) buf_.resize(std::max<size_t>(n, 64 * 1024));
  while (end_ < n) {
    const ssize_t r = ::recv(fd_, buf_.data() + end_, buf_.size() - end_, 0);
    if (r > 0) {
      end_ += static_cast<size_t>(r);
      continue;
    }
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && Wait(POLLIN)) continue;
    return false;
  }
  return true;
}

const char* MyOwnPathObstacle(uint64_t client_flags, uint64_t server_capabilities, bool tls) {
  const uint64_t agreed = client_flags & server_capabilities;
  if (tls || (agreed & CLIENT_SSL) != 0) return "the connection uses TLS";
  if ((agreed & (CLIENT_COMPRESS | CLIENT_ZSTD_COMPRESSION)) != 0) {
    return "the connection is compressed";
  }
  if ((agreed & CLIENT_PROTOCOL_41) == 0) return "the server speaks a protocol older than 4.1";
  if ((agreed & kMyClientDeprecateEof) != 0) {
    return "the session ends results without EOF packets (CLIENT_DEPRECATE_EOF)";
  }
  return nullptr;
}

}  // namespace loadcell
