#pragma once
// AVX2 + FMA versions of the kernels that dominate factorizations with 5x5
// and 6x6 blocks (block_kernels.cpp keeps the portable SSE2 ones and calls
// these when enabled()). A column of 5 or 6 rows is two 4-wide vectors, so
// a whole 6x6 block fits in 12 of the 16 vector registers, where SSE2 needs
// 18 and spills; fused multiply-adds halve the arithmetic on top. Each
// kernel computes what its portable twin does, in the same order of
// operations up to the rounding of the fused multiply-adds. The fused
// forest-edge and pair kernels take blocks of every size up to 6; the
// products and U <- -P U blocks of 3 to 6 rows, a column of 3 or 4 rows
// being one vector where SSE2 takes two.
//
// Stores and later loads of the same values come in pieces of the same
// size wherever the loads could follow closely: a load that spans two
// stores cannot take its value from them and waits until both retire (the
// first wide edge kernels lost 5-6% on LDLT chains so).
//
// The library itself is built for any x86-64: these functions alone carry
// AVX2 code, and run only on a CPU that reports AVX2 and FMA.
#include <array>
#include <atomic>

// Where the wide kernels are built: x86-64 with GCC's target attribute.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GS_HAS_WIDE_KERNELS 1
// On the declaration of a member function defined in wide code: clang takes
// a template's target from its declaration, not from its definition.
#define GS_WIDE_MEMBER __attribute__((target("avx2,fma")))
#else
#define GS_WIDE_MEMBER
#endif

namespace graphsolve::kernels::wide {

// Whether the kernels below run: graphsolve::active_kernels() == Kernels::Wide
// (graphsolve/kernels.hpp). Never true where this build has no wide kernels
// (not x86-64, or a compiler without GCC's target attribute) or the CPU
// lacks AVX2 or FMA.
extern std::atomic<bool> in_use;
inline bool enabled() { return in_use.load(std::memory_order_relaxed); }

// The pivot inverses of block_kernels.hpp for k = 5 or 6, with the same
// contract: -D^{-1} (Gauss-Jordan with partial pivoting) or -C^{-1} (D = C
// C^T), the pivot ratio returned, D untouched below the tolerance.
double gauss_jordan(int k, double* d, int ldd, double input_scale, double tolerance);
double cholesky(int k, double* d, int ldd, double input_scale, double tolerance);

// The column updates of the run-time sized pivots (large_pivot.cpp):
// y_c -= x * (coefficients[c * stride] * scale) on rows [first, rows) of the
// `count` columns y_c = y + c * ld, first and rows multiples of four. Each
// coefficient is read before its column changes.
void update_columns(int first, int rows, const double* x, const double* coefficients, long stride, double scale,
                    double* y, long ld, int count);

// C -= A B, or A B^T when b_transposed: minus_products[b_transposed][m -
// 3][k - 1] for an m x k A and an m x n C, 3 <= m <= 6 and 1 <= k <= 6. A
// table rather than a function of m and k: its switches cost a 6x6 product
// about 30 instructions. Columns of 1 or 2 rows stay with the portable
// kernels: built into a vector from scalars and split back, they made
// scalar LDLT nets and crystals 2-4% slower.
using ProductKernel = void (*)(int n, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
using ProductsOfHeight = std::array<ProductKernel, 6>;
using ProductTable = std::array<std::array<ProductsOfHeight, 4>, 2>;
extern const ProductTable minus_products;

// The updates a pivot with many later neighbours makes to one neighbour's
// row and column (a net's or crystal's pivot, outside the fused edge and
// pair kernels): every block S x S (3 <= S <= 6), one operand fixed for the
// whole call, the other and the target given per item. For i < count:
//   fixed_left:             targets[i] -= fixed * factors[i]
//   fixed_right:            targets[i] -= factors[i] * fixed
//   fixed_right_transposed: targets[i] -= factors[i] * fixed^T
// Each item computes what minus_products[.][S - 3][S - 1] does for it, in
// the same order, so the results are those of one call per block. One call
// per row instead of two dispatched ones per block (each reloading the fixed
// block) cut a refactorization's instructions (callgrind) by 24% on the 8^3
// crystal of 3x3 blocks (LDU; LLT 18%), by 16% on the 32^2 net of 3x3
// blocks, and by 2% with 6x6 blocks, whose products had less to save.
using FrontKernel = void (*)(int count, const double* fixed, int ld_fixed, const double* const* factors,
                             int ld_factors, double* const* targets, int ld_targets);
struct FrontKernels {
  FrontKernel fixed_left = nullptr, fixed_right = nullptr, fixed_right_transposed = nullptr;
};
// The kernels for blocks of s rows; every member null where s is outside
// 3..6 or this build has no wide kernels. Callers check enabled().
const FrontKernels& front_kernels(int s);

// C <- -A C for a square k x k A (3 <= k <= 6) and a contiguous k x n C.
void negate_product_in_place(int k, int n, const double* a, double* c);

// Rows [0, 6) of an m x k C (leading dimension ldc, 1 <= k <= 6) become
// -C P^T for a square k x k P; the old rows go to keep when it is given. A
// lower_triangular P skips its upper zeros.
void negate_strip_transposed(int k, const double* p, double* c, int ldc, double* keep, int ldkeep,
                             bool lower_triangular);

// block_kernels.hpp's eliminate_edge_ldu and eliminate_edge_symmetric (the
// whole elimination of a pivot whose only later neighbour is one block) for
// any b and c from 1 to 6: a column of at most four rows is one vector.
void edge_ldu(int b, int c, const double* p, double* u, const double* l, double* d, double* rows);
void edge_symmetric(int b, int c, const double* p, double* l, double* d, bool cholesky, double* rows);

// Elimination by a pivot k whose only later neighbours are a and c (a first
// in the order): a ladder's pivot (the next node on its rail and the rung's
// other end), a ring's, and a saddle-point ladder's body and joint pivots,
// whose neighbours differ in size. k has b rows, a and c have a_rows and
// c_rows, each from 1 to 6. One call for what the general path does in
// about ten dispatched ones, each left factor loaded once for two products:
// ladders of 3x3 blocks 19-23% faster, of 6x6 blocks 7-11% (LDU, LLT) and
// 3-5% (LDLT), scalar ones 26%, saddle-point ladders 10-11%. There are no
// portable twins: without these kernels the general path runs. The panels
// are contiguous as the factor stores them: u = [U_ka U_kc] (b x (a_rows +
// c_rows)), l = [L_ak; L_ck] ((a_rows + c_rows) x b, leading dimension
// a_rows + c_rows).
//   LDU : u <- -p u; then d_a -= L_ak U_ka, ac -= L_ak U_kc, ca -= L_ck U_ka,
//         d_c -= L_ck U_kc.
//   LDLT / LLT: l <- -l p^T; then d_a -= L_ak R_ak^T, ca -= L_ck R_ak^T,
//         d_c -= L_ck R_ck^T, with R the old l (LDLT) or the new one (LLT).
// rows_a and rows_c are widened by the updated d_a and d_c, as on the
// general path. Once the caller saw enabled(), the pair runs here even if
// another thread has just switched to the portable kernels: these still run
// on this CPU.
struct PairTargets {
  double* d_a;
  double* d_c;
  double* ca;  // A_ca, leading dimension ld_ca
  int ld_ca;
  double* ac;  // A_ac, leading dimension ld_ac (LDU only)
  int ld_ac;
  double* rows_a;
  double* rows_c;
};
// The kernel for a pivot of b rows with neighbours of a_rows and c_rows,
// chosen once per pivot when the factorization is set up (a call through it
// costs less than dispatching on three sizes per pivot: scalar ladders lost
// 3-7% to that); null where a size is outside 1..6 or this build has no
// wide kernels. Callers check enabled() before each call. u is unused by LDLT and
// LLT, and l only read by LDU.
enum class PairMethod { Ldu, Ldlt, Llt };
using PairKernel = void (*)(const double* p, double* u, double* l, const PairTargets& t);
PairKernel pair_kernel(int b, int a_rows, int c_rows, PairMethod method);

// The same, chosen once per pivot, for the pivots with one later neighbour:
// edge_ldu or edge_symmetric for sizes b and c (and LLT or LDLT) fixed, null
// where a size is outside 1..6 or this build has no wide kernels. Through
// it, a forest pivot skips three calls that dispatch on its sizes (3x3
// chains and trees: 8-10% of a refactorization's instructions). u is unused
// by LDLT and LLT, and l only read by LDU. Callers check enabled() before
// each call.
using EdgeKernel = void (*)(const double* p, double* u, double* l, double* d, double* rows);
EdgeKernel edge_kernel(int b, int c, PairMethod method);

// C <- A: checked_copies[m - 1][n - 1] for an m x n block (1 <= m, n <= 6),
// column by column in the pieces the kernels above read back; returns the
// sum of every value times zero (NaN if any is not finite). A table: its
// callers know m and n at compile time.
using CopyKernel = double (*)(const double* a, int lda, double* c, int ldc);
using CopiesOfHeight = std::array<CopyKernel, 6>;
using CopyTable = std::array<CopiesOfHeight, 6>;
extern const CopyTable checked_copies;

}  // namespace graphsolve::kernels::wide
