// Outputs that share memory with inputs. Solving and refining in place (one
// matrix passed as both B and X) gives what separate matrices give; a partial
// overlap, and y = A x written over x, are refused with an error that says so
// (each would read an input after writing over it).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "graphsolve/families.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

template <class F>
void expect_overlap_error(F&& f) {
  try {
    f();
    FAIL() << "overlapping arguments were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("overlap"), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(OverlappingArguments, RefiningInPlaceMatchesSeparateMatrices) {
  const gs::Symbolic sym = gs::analyze(fam::ladder(12, 6));
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    gs::BlockMatrix a(sym);
    fam::fill_values(a, method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite,
                     5);
    gs::Factorization f(sym, method);
    ASSERT_EQ(f.factorize(a), gs::Status::Success);
    for (int columns : {1, 3})
      for (bool transposed : {false, true})
        for (int steps : {0, 1, 3}) {
          SCOPED_TRACE(std::string(gs::to_string(method)) + ", " + std::to_string(columns) + " columns, " +
                       (transposed ? "transposed, " : "") + std::to_string(steps) + " rounds");
          const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), columns, 7);
          const auto refine = [&](const Eigen::Ref<const Eigen::MatrixXd>& rhs, Eigen::Ref<Eigen::MatrixXd> x) {
            return transposed ? f.solve_transposed_refined(a, rhs, x, steps) : f.solve_refined(a, rhs, x, steps);
          };
          Eigen::MatrixXd apart(a.rows(), columns), in_place = b;
          ASSERT_EQ(refine(b, apart), gs::Status::Success);
          ASSERT_EQ(refine(in_place, in_place), gs::Status::Success);
          const Eigen::MatrixXd dense = transposed ? Eigen::MatrixXd(a.to_dense().transpose()) : a.to_dense();
          EXPECT_LT(gs_test::dense_residual(dense, in_place, b), 1e-12);
          EXPECT_LT((in_place - apart).norm() / apart.norm(), 1e-13);
        }
    // The plain solves in place: the same operations, bit for bit.
    const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 9);
    Eigen::MatrixXd apart(a.rows(), 2), in_place = b;
    ASSERT_EQ(f.solve(b, apart), gs::Status::Success);
    ASSERT_EQ(f.solve(in_place, in_place), gs::Status::Success);
    EXPECT_EQ(in_place, apart);
  }
}

TEST(OverlappingArguments, PartialOverlapsAndProductsInPlaceAreRefused) {
  const gs::Symbolic sym = gs::analyze(fam::chain(10, 3));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::SymmetricPositiveDefinite, 2);
  gs::Factorization f(sym, gs::Method::LDLT);
  ASSERT_EQ(f.factorize(a), gs::Status::Success);
  const int n = static_cast<int>(a.rows());
  Eigen::VectorXd buffer = Eigen::VectorXd::LinSpaced(n + 1, 1.0, 2.0);
  Eigen::Map<Eigen::VectorXd> first(buffer.data(), n), shifted(buffer.data() + 1, n);
  expect_overlap_error([&] { f.solve(first, shifted); });
  expect_overlap_error([&] { f.solve_transposed(first, shifted); });
  expect_overlap_error([&] { f.solve_refined(a, first, shifted, 1); });
  expect_overlap_error([&] { f.solve_transposed_refined(a, shifted, first, 2); });
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
  expect_overlap_error([&] { a.multiply(x, x); });
  expect_overlap_error([&] { a.multiply(first, shifted); });
  expect_overlap_error([&] { a.multiply_transposed(x, x); });
  expect_overlap_error([&] { a.multiply_symmetric_lower(x, x); });
  // Two columns of one matrix do not overlap.
  Eigen::MatrixXd two(n, 2);
  two.col(0) = x;
  a.multiply(two.col(0), two.col(1));
  EXPECT_LT((two.col(1) - a.to_dense() * x).norm(), 1e-12 * (a.to_dense() * x).norm());
}
