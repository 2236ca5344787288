#include "core/line_buffer.h"

#include <utility>
#include <vector>

namespace loadcell {

WholeLineBuffer::WholeLineBuffer(Sink sink) : sink_(std::move(sink)) {}

WholeLineBuffer::~WholeLineBuffer() {
  const std::lock_guard<std::mutex> lock(mutex_);
  HandOnAll();
}

WholeLineBuffer::int_type WholeLineBuffer::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  const char c = traits_type::to_char_type(ch);
  const std::lock_guard<std::mutex> lock(mutex_);
  Append(std::string_view(&c, 1));
  return ch;
}

std::streamsize WholeLineBuffer::xsputn(const char* s, std::streamsize n) {
  if (n <= 0) return 0;
  const std::lock_guard<std::mutex> lock(mutex_);
  Append(std::string_view(s, static_cast<size_t>(n)));
  return n;
}

int WholeLineBuffer::sync() {
  const std::lock_guard<std::mutex> lock(mutex_);
  HandOnAll();
  return 0;
}

void WholeLineBuffer::Append(std::string_view text) {
  pending_.append(text);
  const size_t end = pending_.rfind('\n');
  if (end != std::string::npos) {
    sink_(std::string_view(pending_).substr(0, end + 1));
    pending_.erase(0, end + 1);
  }
  while (pending_.size() >= kMaxPending) {
    sink_(std::string_view(pending_).substr(0, kMaxPending));
    pending_.erase(0, kMaxPending);
  }
}

void WholeLineBuffer::HandOnAll() {
  if (pending_.empty()) return;
  sink_(pending_);
  pending_.clear();
}

namespace {

// Every buffer WriteInWholeLines made: never destroyed (see the header),
// and reachable, so that a leak checker does not count them.
std::vector<WholeLineBuffer*>& Installed() {
  static auto* installed = new std::vector<WholeLineBuffer*>();
  return *installed;
}

}  // namespace

void WriteInWholeLines(std::ostream& stream, std::FILE* file) {
  auto* buffer = new WholeLineBuffer([file](std::string_view text) {
    (void)std::fwrite(text.data(), 1, text.size(), file);
    (void)std::fflush(file);
  });
  Installed().push_back(buffer);
  stream.rdbuf(buffer);
  stream.unsetf(std::ios_base::unitbuf);
}

}  // namespace loadcell
