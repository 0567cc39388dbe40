#pragma once
// A whole string as a finite decimal number, read the same whatever locale
// the program set: std::from_chars ignores it, where strtod under a
// decimal-comma locale (a GUI toolkit's setlocale(LC_ALL, "")) would stop at
// the point of "0.5". No blanks, no hexadecimal; a leading '+' is allowed.
// A value too close to zero for a double rounds to (signed) zero, as strtod
// and every other reader round it; one beyond the double range is refused
// (internal).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <system_error>

namespace dynamics::detail {

// For text from_chars matched whole but found out of range: whether its
// magnitude is below 1 (an underflow) rather than above (an overflow), from
// the power of ten of its first nonzero digit. Both counts saturate far
// beyond any double's range, so no digit string overflows them.
inline bool below_one(std::string_view text) {
  constexpr long kFar = 1000000000;
  long power = 0;  // of the first nonzero digit, exponent aside
  bool seen_point = false, seen_nonzero = false;
  std::size_t i = text.empty() || text.front() != '-' ? 0 : 1;
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

// Text without the blanks (spaces, tabs) around it.
inline std::string_view without_blanks(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

inline std::optional<double> parse_finite(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return std::nullopt;
  }
  double value = 0.0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (end != last) return std::nullopt;
  if (error == std::errc::result_out_of_range && below_one(text)) return text.front() == '-' ? -0.0 : 0.0;
  if (error != std::errc() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Whether parse_finite refused text for its size alone: a decimal number
// beyond the double range ("1e400"), or an infinity ("inf", "-infinity").
inline bool beyond_double_range(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (!text.empty() && text.front() == '+') return false;
  double value = 0.0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (end != last || text.empty()) return false;
  if (error == std::errc::result_out_of_range) return !below_one(text);
  return error == std::errc() && std::isinf(value);
}

}  // namespace dynamics::detail
