// The LDU pair kernels of wide_kernels.hpp (see wide_pairs.hpp).
#include "wide_kernels.hpp"

#ifdef GS_HAS_WIDE_KERNELS
#include "wide_pairs.hpp"

namespace graphsolve::kernels::wide {

PairKernel ldu_pair_kernel(int b, int a_rows, int c_rows) {
  return vectors::choose_pair_kernel(b, a_rows, c_rows, [](auto bs, auto as, auto cs) -> PairKernel {
    return &vectors::pair_ldu_sized<bs(), as(), cs()>;
  });
}

}  // namespace graphsolve::kernels::wide
#endif
