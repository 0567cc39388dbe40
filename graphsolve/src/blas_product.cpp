#include "blas_product.hpp"

#include <cstddef>

// The Fortran BLAS interface, which every BLAS provides (the C interface's
// header differs between implementations). The trailing lengths are the
// hidden character-argument lengths of gfortran's calling convention.
extern "C" {
void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* a, const int* lda, const double* b, const int* ldb, const double* beta, double* c,
            const int* ldc, std::size_t transa_length, std::size_t transb_length);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m, const int* n,
            const double* alpha, const double* a, const int* lda, double* b, const int* ldb, std::size_t side_length,
            std::size_t uplo_length, std::size_t transa_length, std::size_t diag_length);
}

namespace graphsolve::kernels {

namespace {
void add_product(const char* transb, int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c,
                 int ldc) {
  if (m == 0 || n == 0) return;
  const double one = 1.0;
  dgemm_("N", transb, &m, &n, &k, &one, a, &lda, b, &ldb, &one, c, &ldc, 1, 1);
}

// B (m x n) <- op(T)^{-1} B or B op(T)^{-1}, T unit-diagonal.
void unit_solve(const char* side, const char* uplo, const char* trans, int m, int n, const double* t, int ldt, double* b,
                int ldb) {
  if (m == 0 || n == 0) return;
  const double one = 1.0;
  dtrsm_(side, uplo, trans, "U", &m, &n, &one, t, &ldt, b, &ldb, 1, 1, 1, 1);
}
}  // namespace

void blas_add_product(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  add_product("N", m, k, n, a, lda, b, ldb, c, ldc);
}

void blas_add_product_bt(int m, int k, int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc) {
  add_product("T", m, k, n, a, lda, b, ldb, c, ldc);
}

void blas_solve_right_unit_upper(int m, int n, const double* t, int ldt, double* b, int ldb) {
  unit_solve("R", "U", "N", m, n, t, ldt, b, ldb);
}

void blas_solve_right_unit_lower_transposed(int m, int n, const double* t, int ldt, double* b, int ldb) {
  unit_solve("R", "L", "T", m, n, t, ldt, b, ldb);
}

void blas_solve_left_unit_lower(int n, int m, const double* t, int ldt, double* b, int ldb) {
  unit_solve("L", "L", "N", n, m, t, ldt, b, ldb);
}

}  // namespace graphsolve::kernels
