#pragma once
// Reads a whole number in decimal only, with its sign: the programs' count
// options and graphsolve's block-size files take "010" as ten and "0x10" as
// no number (strtol in base 0 reads them as octal and hex), and a number past
// the type's range is said to be so, not clamped or called no number.
// read_decimal<double> reads a decimal floating-point number the same way
// (from_chars: no hexadecimal, whatever the locale). Header-only, for both
// programs and the libraries.

#include <charconv>
#include <string_view>
#include <system_error>

namespace graphsolve::decimal_number {

// Text without the blanks (spaces, tabs) around it.
inline std::string_view without_blanks(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

template <class Int>
struct Decimal {
  bool whole = false;         // the text is one decimal number ('+' or '-' allowed)
  bool out_of_range = false;  // ... whose value Int cannot hold
  bool negative = false;      // ... written with '-'
  Int value = 0;              // its value, if whole and in range
};

template <class Int>
Decimal<Int> read_decimal(std::string_view text) {
  const char* first = text.data();
  const char* last = first + text.size();
  if (last - first > 1 && *first == '+' && first[1] != '-') ++first;  // from_chars takes no '+'
  Decimal<Int> d;
  const auto [end, error] = std::from_chars(first, last, d.value);  // base 10 only
  d.out_of_range = error == std::errc::result_out_of_range;
  d.whole = first != last && end == last && (error == std::errc() || d.out_of_range);
  d.negative = first != last && *first == '-';
  return d;
}

}  // namespace graphsolve::decimal_number
