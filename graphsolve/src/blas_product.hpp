#pragma once
// Large dense products through the system BLAS (Debian: OpenBLAS through the
// libblas.so.3 alternative), for the wide updates of supernodal panels: its
// blocked, runtime-dispatched kernels run several times faster there than the
// fixed-size block products, which are tuned for one 6x6 block at a time.

namespace graphsolve::kernels {

// C <- C + A * B   (A: m x k, B: k x n, C: m x n; column-major with leading
// dimensions). Accumulating (beta = 1) spares OpenBLAS a pass that clears C
// first (dgemm_beta) where the caller keeps C zero anyway.
void blas_add_product(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
// C <- C + A * B^T (A: m x k, B: n x k).
void blas_add_product_bt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);

// Triangular solves in place with a unit-diagonal triangle T (n x n; only its
// strict triangle named below is read):
// B <- B * T^{-1}, T upper  (B: m x n).
void blas_solve_right_unit_upper(int m, int n, const double* t, int ldt, double* b, int ldb);
// B <- B * T^{-T}, T lower  (B: m x n).
void blas_solve_right_unit_lower_transposed(int m, int n, const double* t, int ldt, double* b, int ldb);
// B <- T^{-1} * B, T lower  (B: n x m).
void blas_solve_left_unit_lower(int n, int m, const double* t, int ldt, double* b, int ldb);

}  // namespace graphsolve::kernels
