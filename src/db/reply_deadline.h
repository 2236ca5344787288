#pragma once
// The total time limit of one request on loadcell's own wire clients
// (pg_wire, pg_startup, mysql_wire), shared by them. Driver-private.
//
// A socket's read limit (SO_RCVTIMEO, TcpSetTimeouts) starts again with every
// recv(), so a server that trickles a byte at a time, or sends notices or
// rows without end, would never meet it. A ReplyDeadline is armed once per
// request, once it is sent, and checked before each recv() (a read of a
// coarse clock and a comparison, inline: no system call): past it, the
// request fails. The reply's first recv() is bounded by the socket's own
// limit when that is no longer than the deadline's, so Arm reads no clock
// and a reply that comes whole in one recv() costs no clock read at all
// (one read per query was measurable in the client's user CPU); the deadline
// then runs from the second recv() on. A reply is whole within the socket's
// limit plus the deadline: twice --db-read-timeout at most. The clock is
// core/coarse_clock.h's (a few ms of resolution, no TSC read). Near the
// deadline, the socket's own limit is shortened to what is left (a system
// call at most once a second, only in a request that has run for longer than
// the slack), so that a recv() that blocks cannot outlast the deadline by
// more than the slack; the next Arm gives the socket its limit back. A gap
// between two looks that no recv() could take is a pause of the process,
// and the deadline moves on by it (a stopped client is not a slow server).
//
// A request's send has a total limit of its own, the same way: the socket's
// write limit (SO_SNDTIMEO) also starts again with each send(), and a server
// that reads a few bytes at a time took a long request, a COPY's data or
// LOAD DATA's file for as long as it liked. ArmSend before the request's
// first send() (no clock read: the socket's limit bounds that send(), which
// takes all of a request that fits the socket's buffer); a second send() (or
// a wait for the socket to take more) starts the limit, and every later one
// is checked against it, with the socket's write limit shortened near it. A request is taken whole
// within twice the write limit at most. Not thread-safe.

#include <algorithm>
#include <chrono>

#include "core/coarse_clock.h"
#include "os/tcp.h"

namespace loadcell {

class ReplyDeadline {
 public:
  using Clock = CoarseSteadyClock;

  // A new socket whose limits TcpSetTimeouts set to `read_ms` and
  // `write_ms` (0: none); disarmed.
  void Reset(SocketHandle fd, int read_ms, int write_ms);
  // The request was sent: its reply must be whole within `total_ms` (0: no
  // limit) from its first recv()'s return, which the socket's own limit
  // bounds. Call it right before that recv(). Reads no clock when the
  // socket's limit is no longer than `total_ms` (the clients arm their read
  // limit); else starts the deadline now. Gives the socket its own read limit
  // back when it was shortened.
  void Arm(int total_ms) {
    if (socket_ms_ != read_ms_) Restore();
    armed_ = total_ms > 0;
    first_ = false;
    if (!armed_) return;
    total_ms_ = total_ms;
    pause_after_ = std::chrono::milliseconds(std::max(read_ms_, total_ms) + kPauseMs);
    if (socket_ms_ > 0 && socket_ms_ <= total_ms) {
      first_ = true;  // the next recv() is bounded by the socket alone
      unset_ = true;  // and the one after starts the deadline
      calm_until_ = Clock::time_point::min();
      return;
    }
    unset_ = false;
    last_look_ = Clock::now();
    SetEnd(last_look_ + std::chrono::milliseconds(total_ms));
  }
  // The same, ending at `at` (the login's limit over several exchanges).
  void ArmUntil(Clock::time_point at);
  bool armed() const { return armed_; }
  // Before a recv() that may block: false once the deadline has passed.
  bool BeforeRecv() {
    if (first_) {  // the first since Arm: the socket's limit bounds it
      first_ = false;
      return true;
    }
    if (!armed_) return true;
    const Clock::time_point now = Clock::now();
    if (now - last_look_ > pause_after_) Paused(now);
    last_look_ = now;
    return now < calm_until_ || NearTheEnd();
  }
  // A wait of at most `limit_ms` (0: none) cut to what is left of the
  // deadline (at least 1 ms while it has not passed).
  int WaitMs(int limit_ms) const;

  // A request is about to be sent: its first send() is bounded by the
  // socket's write limit alone, the whole request by the write limit from
  // that send()'s return. Gives the socket its write limit back when a
  // request before shortened it.
  void ArmSend() {
    if (socket_write_ms_ != write_ms_) RestoreWrite();
    send_ = SendState::kFirst;
  }
  // Before each send() of the request, and each wait for the socket to
  // take more: false once its limit has passed.
  bool BeforeSend() {
    if (send_ == SendState::kFirst) {  // the socket's limit bounds it
      send_ = SendState::kUnset;
      return true;
    }
    return write_ms_ == 0 || LaterSend();
  }
  // A wait for the socket to take more, of at most `limit_ms` (0: none),
  // cut to what is left of the request's send limit (at least 1 ms).
  int SendWaitMs(int limit_ms) const;

 private:
  // How far a blocking recv() may outlast the deadline before the socket's
  // limit is shortened: so that a request that ends well within the limit
  // costs no system call.
  static constexpr int kSlackMs = 1000;
  // Two looks further apart than any recv() or wait between them may block
  // (the socket's limit or the deadline's, the longer) and this much more:
  // the process was stopped (SIGSTOP, a suspended VM, a debugger), as the
  // runner's own pause check sees it, and the gap does not count.
  static constexpr int kPauseMs = 1000;

  void Restore();
  void RestoreWrite();
  // BeforeSend past the request's first send(): starts the limit at the
  // second; false once it passed; else shortens the socket's write limit to
  // what is left when it is longer than that by more than the slack.
  bool LaterSend();
  // Sets the socket's limits (kept as they were when it refuses them).
  void SetSocket(int read_ms, int write_ms);
  // The deadline is `at`; sets calm_until_ from it and the socket's limit.
  void SetEnd(Clock::time_point at) {
    at_ = at;
    // Until then, a recv() that blocks for the socket's whole limit ends
    // within the slack after `at`: nothing to do but compare. A socket
    // without a limit (0) must be given one at the first recv().
    calm_until_ = socket_ms_ > 0
                      ? std::min(at, at - std::chrono::milliseconds(socket_ms_ - kSlackMs))
                      : Clock::time_point::min();
  }
  // BeforeRecv past calm_until_: starts the deadline when Arm left it
  // unset; false once it passed; else shortens the socket's limit to what
  // is left when it is longer than that by more than the slack.
  bool NearTheEnd();
  // A gap since the last look longer than pause_after_: the deadline moves
  // on by the whole gap (nothing to move before it starts).
  void Paused(Clock::time_point now) {
    if (!unset_) SetEnd(at_ + (now - last_look_));
  }

  // Where a request's send is: its first send() to come, past it (the
  // limit starts at the next), or the limit running.
  enum class SendState { kFirst, kUnset, kRunning };

  SocketHandle fd_ = kNoSocket;
  int read_ms_ = 0;          // the socket's own read limit
  int write_ms_ = 0;         // and write limit
  int socket_ms_ = 0;        // the read limit the socket has now
  int socket_write_ms_ = 0;  // and its write limit
  SendState send_ = SendState::kUnset;
  Clock::time_point send_at_{};    // the request's send limit, kRunning
  Clock::time_point send_look_{};  // the last LaterSend's clock read
  bool armed_ = false;
  bool first_ = false;  // armed, no recv() since, the socket's limit bounds the next
  bool unset_ = false;  // armed without a clock read: at_ is not set yet
  int total_ms_ = 0;    // the armed limit
  Clock::time_point at_{};
  Clock::time_point calm_until_{};
  Clock::time_point last_look_{};  // the last BeforeRecv (or Arm) that read the clock
  Clock::duration pause_after_ = Clock::duration::max();
};

}  // namespace loadcell
