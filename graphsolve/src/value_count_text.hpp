#pragma once
// "N values (X GB)" for a count of doubles: how OutOfMemory's messages size
// what they could not allocate.
#include <cstdio>
#include <string>

namespace graphsolve::detail {

inline std::string value_count_text(double count) {
  char text[64];
  std::snprintf(text, sizeof text, "%.0f values (%.3g GB)", count, count * sizeof(double) / 1e9);
  return text;
}

}  // namespace graphsolve::detail
