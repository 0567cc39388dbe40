// The LLT pair kernels of wide_kernels.hpp (see wide_pairs.hpp), in a
// file of their own so that a parallel build compiles the three methods side by side.
#include "wide_kernels.hpp"

#ifdef GS_HAS_WIDE_KERNELS
#include "wide_pairs.hpp"

graphsolve::kernels::wide::PairKernel graphsolve::kernels::wide::llt_pair_kernel(int b, int a_rows, int c_rows) {
  return vectors::sized_pair_kernel<PairMethod::Llt>(b, a_rows, c_rows);
}
#endif
