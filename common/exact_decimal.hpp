#pragma once
// Writes a double as the shortest decimal text that reads back as the same
// double (std::to_chars without a precision): every bit of the value, as
// printf's "%.17g" keeps it, in fewer digits where they suffice (0.1, not
// 0.10000000000000001), about five times faster, and with a decimal point
// whatever locale the program set. inf, -inf and nan read as printf writes
// them. Header-only, for both programs and the libraries.

#include <charconv>
#include <string>

namespace graphsolve::exact_decimal {

// Enough for any double: "-2.2250738585072014e-308" has 24 characters.
constexpr int kMaxChars = 32;

inline char* write(char* first, double value) { return std::to_chars(first, first + kMaxChars, value).ptr; }

inline void append(std::string& text, double value) {
  char digits[kMaxChars];
  text.append(digits, write(digits, value));
}

}  // namespace graphsolve::exact_decimal
