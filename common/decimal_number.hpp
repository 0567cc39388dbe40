#pragma once
// Reads a whole number in decimal only, with its sign: the programs' count
// options and graphsolve's block-size files take "010" as ten and "0x10" as
// no number (strtol in base 0 reads them as octal and hex), and a number past
// the type's range is said to be so, not clamped or called no number.
// read_decimal<double> reads a decimal floating-point number the same way
// (from_chars: no hexadecimal, whatever the locale), and parse_finite on top
// of it what the programs and model files take as a real number. Header-only,
// for both programs and the libraries.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
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

// For text from_chars matched whole but found out of range: whether its
// magnitude is below 1 (an underflow) rather than above (an overflow), from
// the power of ten of its first nonzero digit. Both counts saturate far
// beyond any double's range, so no digit string overflows them.
inline bool below_one(std::string_view text) {
  constexpr long kFar = 1000000000;
  long power = 0;  // of the first nonzero digit, exponent aside
  bool seen_point = false, seen_nonzero = false;
  std::size_t i = !text.empty() && (text.front() == '-' || text.front() == '+') ? 1 : 0;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      seen_point = true;
    } else if (!seen_nonzero) {
      seen_nonzero = text[i] != '0';
      if (seen_point) power = std::max(power - 1, -kFar);
    } else if (!seen_point) {
      power = std::min(power + 1, kFar);
    }
  }
  long exponent = 0;
  const bool negative = i + 1 < text.size() && text[i + 1] == '-';
  for (std::size_t k = i + 1; k < text.size(); ++k)
    if (text[k] >= '0' && text[k] <= '9') exponent = std::min(exponent * 10 + (text[k] - '0'), kFar);
  return power + (negative ? -exponent : exponent) < 0;
}

// A whole string as a finite decimal number, read the same whatever locale
// the program set: std::from_chars ignores it, where strtod under a
// decimal-comma locale (a GUI toolkit's setlocale(LC_ALL, "")) would stop at
// the point of "0.5". No blanks, no hexadecimal; a leading '+' is allowed.
// A value too close to zero for a double rounds to (signed) zero, as strtod
// and every other reader round it; one beyond the double range is refused.
inline std::optional<double> parse_finite(std::string_view text) {
  const auto d = read_decimal<double>(text);
  if (!d.whole) return std::nullopt;
  if (d.out_of_range) return below_one(text) ? std::optional<double>(d.negative ? -0.0 : 0.0) : std::nullopt;
  if (!std::isfinite(d.value)) return std::nullopt;
  return d.value;
}

// Whether parse_finite refused text for its size alone: a decimal number
// beyond the double range ("1e400"), or an infinity ("inf", "-infinity").
inline bool beyond_double_range(std::string_view text) {
  const auto d = read_decimal<double>(text);
  return d.whole && (d.out_of_range ? !below_one(text) : std::isinf(d.value));
}

}  // namespace graphsolve::decimal_number
