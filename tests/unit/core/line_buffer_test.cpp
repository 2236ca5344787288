#include "core/line_buffer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "testing/temp_dir.h"

namespace loadcell {
namespace {

// The calls a WholeLineBuffer made to its sink, one string each.
struct Calls {
  std::vector<std::string> seen;
  WholeLineBuffer::Sink Sink() {
    return [this](std::string_view text) { seen.emplace_back(text); };
  }
};

TEST(WholeLineBufferTest, ALineWrittenInPiecesIsHandedOnInOneCall) {
  Calls calls;
  WholeLineBuffer buffer(calls.Sink());
  std::ostream out(&buffer);
  out << "loadcell: error: "
      << "rank " << 2 << " (vm) did not answer";
  EXPECT_TRUE(calls.seen.empty());
  out << '\n';
  EXPECT_EQ(calls.seen, std::vector<std::string>{"loadcell: error: rank 2 (vm) did not answer\n"});
}

TEST(WholeLineBufferTest, AChunkHandsOnItsWholeLinesAndKeepsTheRest) {
  Calls calls;
  WholeLineBuffer buffer(calls.Sink());
  std::ostream out(&buffer);
  out << "one\ntwo\nthr";
  EXPECT_EQ(calls.seen, std::vector<std::string>{"one\ntwo\n"});
  out << "ee\n";
  EXPECT_EQ(calls.seen, (std::vector<std::string>{"one\ntwo\n", "three\n"}));
}

TEST(WholeLineBufferTest, AFlushHandsOnAPartialLine) {
  Calls calls;
  WholeLineBuffer buffer(calls.Sink());
  std::ostream out(&buffer);
  out << "\rprepare: 30%" << std::flush;
  EXPECT_EQ(calls.seen, std::vector<std::string>{"\rprepare: 30%"});
  out << std::flush;  // nothing pending: no empty call
  EXPECT_EQ(calls.seen.size(), 1u);
}

TEST(WholeLineBufferTest, TheDestructorHandsOnAnUnfinishedLine) {
  Calls calls;
  {
    WholeLineBuffer buffer(calls.Sink());
    std::ostream out(&buffer);
    out << "no newline";
  }
  EXPECT_EQ(calls.seen, std::vector<std::string>{"no newline"});
}

TEST(WholeLineBufferTest, ALineLongerThanTheLimitIsHandedOnInPieces) {
  Calls calls;
  WholeLineBuffer buffer(calls.Sink());
  std::ostream out(&buffer);
  const std::string long_line(WholeLineBuffer::kMaxPending + 10, 'x');
  out << long_line;
  ASSERT_EQ(calls.seen.size(), 1u);
  EXPECT_EQ(calls.seen[0].size(), WholeLineBuffer::kMaxPending);
  out << "\n";
  ASSERT_EQ(calls.seen.size(), 2u);
  EXPECT_EQ(calls.seen[1], std::string(10, 'x') + "\n");
}

// Lines written from several threads at once each arrive whole.
TEST(WholeLineBufferTest, LinesFromSeveralThreadsArriveWhole) {
  Calls calls;
  WholeLineBuffer buffer(calls.Sink());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&buffer, t] {
      for (int i = 0; i < 200; ++i) {
        const std::string line =
            "thread " + std::to_string(t) + " line " + std::to_string(i) + "\n";
        buffer.sputn(line.data(), static_cast<std::streamsize>(line.size()));
      }
    });
  }
  for (std::thread& th : threads) th.join();
  size_t lines = 0;
  for (const std::string& s : calls.seen) {
    ASSERT_FALSE(s.empty());
    EXPECT_EQ(s.back(), '\n') << s;
    for (char c : s) lines += c == '\n' ? 1 : 0;
  }
  EXPECT_EQ(lines, 800u);
}

// Through a FILE: what the stream wrote arrives in the file, and the stream
// no longer flushes after every output.
TEST(WholeLineBufferTest, WriteInWholeLinesWritesThroughTheFile) {
  const testing::TempDir dir;
  const std::string path = dir / "err.txt";
  std::FILE* file = std::fopen(path.c_str(), "wb");
  ASSERT_NE(file, nullptr);
  std::ostream out(nullptr);
  out.setf(std::ios_base::unitbuf);
  WriteInWholeLines(out, file);
  EXPECT_FALSE(out.flags() & std::ios_base::unitbuf);
  out << "loadcell: warning: " << 1 << " thing\n"
      << "partial" << std::flush;
  std::fclose(file);
  EXPECT_EQ(testing::ReadFile(path), "loadcell: warning: 1 thing\npartial");
}

}  // namespace
}  // namespace loadcell
