#pragma once
// Round-off decides which steps of a hard landing stall, and the landings
// the stall tests replay were found with graphsolve's portable kernels: the
// wide ones (AVX2 and FMA, graphsolve/kernels.hpp) round differently and
// stall elsewhere. A test that needs a step to stall pins the portable
// kernels while it runs, in this process and in the programs it starts.

#include <cstdlib>
#include <string>

#include <graphsolve/kernels.hpp>

namespace dynamics::test {

class PortableKernels {
 public:
  PortableKernels() : before_(graphsolve::active_kernels()) {
    if (const char* value = std::getenv(kVariable)) {
      had_variable_ = true;
      variable_ = value;
    }
    graphsolve::use_kernels(graphsolve::Kernels::Portable);
    setenv(kVariable, "1", 1);
  }
  ~PortableKernels() {
    graphsolve::use_kernels(before_);
    if (had_variable_)
      setenv(kVariable, variable_.c_str(), 1);
    else
      unsetenv(kVariable);
  }
  PortableKernels(const PortableKernels&) = delete;
  PortableKernels& operator=(const PortableKernels&) = delete;

 private:
  static constexpr const char* kVariable = "GRAPHSOLVE_PORTABLE_KERNELS";
  graphsolve::Kernels before_;
  bool had_variable_ = false;
  std::string variable_;
};

}  // namespace dynamics::test
