#pragma once
// Status codes of the numeric phase (factorize, solve). The pattern phase
// (building a graph, analysis) throws std::invalid_argument instead.

namespace graphsolve {

enum class Status {
  Success,
  SingularPivot,        // a pivot block is singular or its rcond is below the tolerance
  NotPositiveDefinite,  // LLT met a pivot block that is not positive definite
  NonFiniteValue,       // NaN or Inf in the matrix or right-hand side
  NotFactorized,        // solve called before a successful factorize
  DimensionMismatch,    // a vector or matrix does not fit the analysed pattern
  NonFiniteSolution,    // finite A and b, but the solution overflowed to NaN or Inf
  InvalidOption,        // a FactorOptions field is NaN, infinite or out of its range
  UnsupportedMethod,    // the factorization's method cannot answer this query (inertia of LDU)
};

const char* to_string(Status status);

}  // namespace graphsolve
