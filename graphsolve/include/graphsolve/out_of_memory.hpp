#pragma once
// Thrown when a structure the analysis sized (its own elimination pattern,
// the matrix's values, the factor) does not fit in memory. It is a
// std::bad_alloc, so handlers of that still catch it; what() names what was
// being allocated and, where known, how many values and bytes it needed.
#include <new>
#include <stdexcept>
#include <string>

namespace graphsolve {

class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(const std::string& message) : message_(message) {}
  const char* what() const noexcept override { return message_.what(); }

 private:
  std::runtime_error message_;  // its copies share the text and never throw
};

}  // namespace graphsolve
