#pragma once
#include <optional>
#include <string>

namespace graphsolve {

enum class Method {
  LDU,   // unsymmetric values: A = L D U with block-diagonal D (the papers' algorithm)
  LDLT,  // symmetric values, possibly indefinite: A = L D L^T with block-diagonal D
  LLT,   // symmetric positive definite: A = L L^T (block Cholesky)
};

const char* to_string(Method method);
std::optional<Method> parse_method(const std::string& name);

}  // namespace graphsolve
