#pragma once
// Numbers in error messages: six significant digits in %g form, so that
// 1e-12 reads as 1e-12 and not as std::to_string's 0.000000 (internal).

#include <cstdio>
#include <string>

namespace dynamics::detail {

inline std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace dynamics::detail
