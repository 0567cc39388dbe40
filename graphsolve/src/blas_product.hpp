#pragma once
// Large dense products through the system BLAS (Debian: OpenBLAS through the
// libblas.so.3 alternative), for the wide updates of supernodal panels: its
// blocked, runtime-dispatched kernels run several times faster there than the
// fixed-size block products, which are tuned for one 6x6 block at a time.

namespace graphsolve::kernels {

// C <- A * B   (A: m x k, B: k x n, C: m x n; column-major with leading dimensions).
void blas_product(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
// C <- A * B^T (A: m x k, B: n x k).
void blas_product_bt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);

}  // namespace graphsolve::kernels
