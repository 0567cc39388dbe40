#pragma once
// A CLI11 validator for the programs' real-number options (--dt, --tol,
// --shift, --max-backward-error, ...). CLI11 2.1 converts them with strtold,
// which takes hexadecimal ("0x1p-7"), refuses blanks around the number and
// reports an infinity or a NaN as no error. This reads the text as the model
// files' and --q0's numbers are read (decimal_number::parse_finite), checks
// its sign, and writes it back in full precision for CLI11 to convert, or
// says what is wrong. A limit that infinity switches off (graphsolve's
// --max-backward-error) takes "inf" and numbers beyond the double range too.
// Give it with Option::transform: Option::check hands a validator a copy of
// the text. Header-only, for the two programs.

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "decimal_number.hpp"

namespace graphsolve::cli_real_number {

enum class Sign { any, zero_or_positive, positive };

enum class Infinity { refused, allowed };

inline CLI::Validator real_number(Sign sign, Infinity infinity = Infinity::refused) {
  return CLI::Validator(
      [sign, infinity](std::string& text) -> std::string {
        const std::string_view trimmed = decimal_number::without_blanks(text);
        std::optional<double> value = decimal_number::parse_finite(trimmed);
        if (!value && decimal_number::beyond_double_range(trimmed)) {
          if (infinity == Infinity::refused) return "must be finite, got " + text;
          value = trimmed.front() == '-' ? -HUGE_VAL : HUGE_VAL;
        }
        if (!value) return "'" + text + "' is not a number";
        if (sign == Sign::positive && !(*value > 0.0)) return "must be positive, got " + text;
        if (sign == Sign::zero_or_positive && !(*value >= 0.0)) return "must be zero or positive, got " + text;
        char exact[32];
        std::snprintf(exact, sizeof exact, "%.17g", *value);
        text = exact;
        return {};
      },
      sign == Sign::any ? "NUMBER" : sign == Sign::positive ? "POSITIVE" : "NONNEGATIVE");
}

}  // namespace graphsolve::cli_real_number
