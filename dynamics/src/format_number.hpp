#pragma once
// Numbers in error messages: six significant digits in %g form, so that
// 1e-12 reads as 1e-12 and not as std::to_string's 0.000000 (internal).

#include <charconv>
#include <string>

namespace dynamics::detail {

// std::to_chars writes what printf's %g writes in the "C" locale, whatever
// locale the program set.
inline std::string format_number(double value) {
  char text[32];
  const auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::general, 6);
  return std::string(text, written.ptr);
}

}  // namespace dynamics::detail
