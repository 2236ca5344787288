#include "fio/expression.h"

#include <cctype>
#include <limits>
#include <string>
#include <utility>

namespace loadcell::fio {
namespace {

// A recursive-descent reader of one expression:
//   sum     := product (('+' | '-') product)*
//   product := power (('*' | '/' | '%') power)*
//   power   := unary ('^' power)?
//   unary   := '-' unary | '+' unary | atom
//   atom    := digits | '(' sum ')'
class ExpressionReader {
 public:
  explicit ExpressionReader(std::string_view text) : text_(text) {}

  Result<int64_t> ReadAll() {
    LC_ASSIGN_OR_RETURN(int64_t value, Sum(0));
    SkipSpace();
    if (pos_ != text_.size()) return Fail(Unexpected(text_[pos_], "was not expected"));
    return value;
  }

 private:
  static constexpr int kMaxNesting = 64;

  Status Fail(std::string_view why) const {
    std::string message = "expression '";
    message.append(text_).append("': ").append(why);
    return Status::InvalidArgument(std::move(message));
  }
  // "'C' " + `rest`, for what stands where it should not.
  static std::string Unexpected(char c, std::string_view rest) {
    std::string text = "'";
    text.push_back(c);
    text.append("' ").append(rest);
    return text;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0) {
      ++pos_;
    }
  }
  bool Take(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  Result<int64_t> Checked(__int128 value) const {
    if (value > std::numeric_limits<int64_t>::max() ||
        value < std::numeric_limits<int64_t>::min()) {
      return Fail("the result does not fit in 64 bits");
    }
    return static_cast<int64_t>(value);
  }

  Result<int64_t> Sum(int depth) {
    LC_ASSIGN_OR_RETURN(int64_t value, Product(depth));
    while (true) {
      if (Take('+')) {
        LC_ASSIGN_OR_RETURN(int64_t rhs, Product(depth));
        LC_ASSIGN_OR_RETURN(value, Checked(static_cast<__int128>(value) + rhs));
      } else if (Take('-')) {
        LC_ASSIGN_OR_RETURN(int64_t rhs, Product(depth));
        LC_ASSIGN_OR_RETURN(value, Checked(static_cast<__int128>(value) - rhs));
      } else {
        return value;
      }
    }
  }

  Result<int64_t> Product(int depth) {
    LC_ASSIGN_OR_RETURN(int64_t value, Power(depth));
    while (true) {
      if (Take('*')) {
        LC_ASSIGN_OR_RETURN(int64_t rhs, Power(depth));
        LC_ASSIGN_OR_RETURN(value, Checked(static_cast<__int128>(value) * rhs));
      } else if (Take('/') || Take('%')) {
        const bool modulo = text_[pos_ - 1] == '%';
        LC_ASSIGN_OR_RETURN(int64_t rhs, Power(depth));
        if (rhs == 0) return Fail("division by zero");
        if (value == std::numeric_limits<int64_t>::min() && rhs == -1) {
          return Fail("the result does not fit in 64 bits");
        }
        value = modulo ? value % rhs : value / rhs;
      } else {
        return value;
      }
    }
  }

  Result<int64_t> Power(int depth) {
    LC_ASSIGN_OR_RETURN(int64_t base, Unary(depth));
    if (!Take('^')) return base;
    LC_ASSIGN_OR_RETURN(int64_t exponent, Power(depth + 1));
    if (exponent < 0) return Fail("a negative power is not a whole number");
    if (base == 0 || base == 1) return exponent == 0 ? int64_t{1} : base;
    if (base == -1) return exponent % 2 == 0 ? int64_t{1} : int64_t{-1};
    // |base| >= 2: the loop overflows within 64 steps.
    __int128 result = 1;
    for (int64_t i = 0; i < exponent; ++i) {
      result *= base;
      LC_ASSIGN_OR_RETURN(int64_t step, Checked(result));
      result = step;
    }
    return Checked(result);
  }

  Result<int64_t> Unary(int depth) {
    if (depth > kMaxNesting) return Fail("nested too deeply");
    if (Take('-')) {
      LC_ASSIGN_OR_RETURN(int64_t value, Unary(depth + 1));
      return Checked(-static_cast<__int128>(value));
    }
    if (Take('+')) return Unary(depth + 1);
    return Atom(depth);
  }

  Result<int64_t> Atom(int depth) {
    if (Take('(')) {
      LC_ASSIGN_OR_RETURN(int64_t value, Sum(depth + 1));
      if (!Take(')')) return Fail("a '(' is not closed");
      return value;
    }
    SkipSpace();
    const size_t start = pos_;
    __int128 value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])) != 0) {
      value = value * 10 + (text_[pos_] - '0');
      if (value > std::numeric_limits<int64_t>::max())
        return Fail("a number does not fit in 64 bits");
      ++pos_;
    }
    if (pos_ == start) {
      if (pos_ == text_.size()) return Fail("it ends where a number was expected");
      return Fail(Unexpected(text_[pos_], "where a number was expected"));
    }
    return static_cast<int64_t>(value);
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

Result<int64_t> EvaluateIntegerExpression(std::string_view text) {
  return ExpressionReader(text).ReadAll();
}

bool HasArithmetic(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && (std::isspace(static_cast<unsigned char>(text[i])) != 0 ||
                             text[i] == '-' || text[i] == '+')) {
    ++i;
  }
  return text.find_first_of("+-*/%^", i) != std::string_view::npos;
}

}  // namespace loadcell::fio
