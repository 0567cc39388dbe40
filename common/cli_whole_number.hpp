#pragma once
// A CLI11 validator for the programs' whole-number options (--steps,
// --refine, --block-size, ...). CLI11 2.1 converts integers with strtoll in
// base 0 and without a range check, so "--steps 010" ran 8 steps, "0x10" 16,
// and a count past the range of long became LONG_MAX: a run that never ends.
// This reads the text as a decimal number in [min, max] and writes back its
// plain form for CLI11 to convert, or says what is wrong; blanks around it
// read as without. Give it with Option::transform: Option::check hands a
// validator a copy of the text. Header-only, for the two programs.

#include <limits>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "decimal_number.hpp"

namespace graphsolve::cli_whole_number {

template <class Int>
CLI::Validator whole_number(Int min, Int max = std::numeric_limits<Int>::max()) {
  return CLI::Validator(
      [min, max](std::string& text) -> std::string {
        // Blanks around the number read as without.
        const auto d = decimal_number::read_decimal<Int>(decimal_number::without_blanks(text));
        if (!d.whole) return "'" + text + "' is not a whole number";
        const Int value = d.value;
        const bool below = d.out_of_range ? d.negative : value < min;
        if (below) {
          if (min == 0) return "must be zero or positive, got " + text;
          if (min == 1) return "must be positive, got " + text;
          return "must be at least " + std::to_string(min) + ", got " + text;
        }
        if (d.out_of_range || value > max) return "must be at most " + std::to_string(max) + ", got " + text;
        text = std::to_string(value);  // what CLI11 converts: no leading zero it could read as octal
        return {};
      },
      min > 0 ? "POSITIVE" : "NONNEGATIVE");
}

}  // namespace graphsolve::cli_whole_number
