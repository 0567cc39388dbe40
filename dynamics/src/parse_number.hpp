#pragma once
// A whole string as a finite decimal number, read the same whatever locale
// the program set: std::from_chars ignores it, where strtod under a
// decimal-comma locale (a GUI toolkit's setlocale(LC_ALL, "")) would stop at
// the point of "0.5". No blanks, no hexadecimal; a leading '+' is allowed.
// Values that overflow or underflow the double range are refused too (internal).

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <system_error>

namespace dynamics::detail {

inline std::optional<double> parse_finite(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return std::nullopt;
  }
  double value = 0.0;
  const char* last = text.data() + text.size();
  const auto [end, error] = std::from_chars(text.data(), last, value);
  if (error != std::errc() || end != last || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace dynamics::detail
