#include "db/reply_deadline.h"

#include <algorithm>

namespace loadcell {
namespace {

// Milliseconds left until `at`, rounded up; 0 once it passed.
int LeftMs(ReplyDeadline::Clock::time_point at) {
  const auto left = at - ReplyDeadline::Clock::now();
  if (left <= ReplyDeadline::Clock::duration::zero()) return 0;
  return static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count());
}

}  // namespace

void ReplyDeadline::Reset(SocketHandle fd, int read_ms, int write_ms) {
  fd_ = fd;
  read_ms_ = socket_ms_ = read_ms;
  write_ms_ = socket_write_ms_ = write_ms;
  armed_ = false;
  first_ = false;
  unset_ = false;
  send_ = SendState::kUnset;
}

void ReplyDeadline::SetSocket(int read_ms, int write_ms) {
  if (!TcpSetTimeouts(fd_, read_ms, write_ms).ok()) return;
  socket_ms_ = read_ms;
  socket_write_ms_ = write_ms;
}

void ReplyDeadline::Restore() {
  if (socket_ms_ != read_ms_) SetSocket(read_ms_, write_ms_);
}

void ReplyDeadline::RestoreWrite() { SetSocket(socket_ms_, write_ms_); }

bool ReplyDeadline::LaterSend() {
  const Clock::time_point now = Clock::now();
  if (send_ == SendState::kUnset) {  // the request's second send(): its limit starts
    send_ = SendState::kRunning;
    send_look_ = now;
    send_at_ = now + std::chrono::milliseconds(write_ms_);
    return true;
  }
  // A gap no send() or wait could take: the process was paused.
  if (now - send_look_ > std::chrono::milliseconds(write_ms_ + kPauseMs)) {
    send_at_ += now - send_look_;
  }
  send_look_ = now;
  const int left = LeftMs(send_at_);
  if (left == 0) return false;
  if (left + kSlackMs < socket_write_ms_) SetSocket(socket_ms_, left);
  return true;
}

int ReplyDeadline::SendWaitMs(int limit_ms) const {
  if (send_ != SendState::kRunning) return limit_ms;
  const int left = std::max(LeftMs(send_at_), 1);
  return limit_ms == 0 ? left : std::min(limit_ms, left);
}

void ReplyDeadline::ArmUntil(Clock::time_point at) {
  Restore();
  armed_ = true;
  first_ = false;
  unset_ = false;
  last_look_ = Clock::now();
  pause_after_ = std::max<Clock::duration>(at - last_look_, std::chrono::milliseconds(read_ms_)) +
                 std::chrono::milliseconds(kPauseMs);
  SetEnd(at);
}

bool ReplyDeadline::NearTheEnd() {
  if (unset_) {  // the reply's second recv(): its deadline starts now
    unset_ = false;
    SetEnd(last_look_ + std::chrono::milliseconds(total_ms_));
    return true;
  }
  const int left = LeftMs(at_);
  if (left == 0) return false;
  // A limit of 0 (none) is longer than any time left.
  if (socket_ms_ == 0 || left + kSlackMs < socket_ms_) SetSocket(left, write_ms_);
  SetEnd(at_);  // the next look when the socket's limit may be too long again
  return true;
}

int ReplyDeadline::WaitMs(int limit_ms) const {
  // Unset: the wait before the second recv(), which the socket's limit bounds.
  if (!armed_ || unset_) return limit_ms;
  const int left = std::max(LeftMs(at_), 1);
  return limit_ms == 0 ? left : std::min(limit_ms, left);
}

}  // namespace loadcell
