// The documented sharing rule: one Symbolic (immutable) may serve several
// factorizations on several threads at once, each with its own Factorization
// and BlockMatrix. Every thread must get exactly the answer a serial run gets;
// a data race in the shared analysis (or in the BLAS panels) would show as a
// differing bit, and under -DGS_SANITIZE=thread as a report.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "graphsolve/families.hpp"
#include "graphsolve/kernels.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

constexpr int kThreadCount = 4;
constexpr int kRoundsPerThread = 3;

// Solutions of `rounds` systems with values from seeds first_seed, ...: the
// factorization is reused (refactorized) as a Newton loop would.
std::vector<Eigen::MatrixXd> solve_rounds(const gs::Symbolic& sym, gs::Method method, fam::Values values,
                                          unsigned first_seed) {
  gs::BlockMatrix a(sym);
  gs::Factorization f(sym, method);
  std::vector<Eigen::MatrixXd> solutions;
  for (int round = 0; round < kRoundsPerThread; ++round) {
    const unsigned seed = first_seed + static_cast<unsigned>(round);
    fam::fill_values(a, values, seed);
    const Eigen::MatrixXd b = gs_test::random_rhs(sym.pattern().dimension, 2, seed);
    Eigen::MatrixXd x(b.rows(), b.cols());
    if (f.factorize(a) != gs::Status::Success || f.solve(b, x) != gs::Status::Success) {
      solutions.emplace_back();  // an empty result fails the comparison below
      continue;
    }
    EXPECT_LT(gs::relative_residual(a, x, b), 1e-10);
    solutions.push_back(x);
  }
  return solutions;
}

void expect_threads_reproduce_serial(const gs::Symbolic& sym, gs::Method method, fam::Values values) {
  std::vector<std::vector<Eigen::MatrixXd>> serial(kThreadCount), parallel(kThreadCount);
  for (int t = 0; t < kThreadCount; ++t) serial[t] = solve_rounds(sym, method, values, 100u * (t + 1));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadCount; ++t)
    threads.emplace_back([&, t] {
      const gs::Symbolic copy = sym;  // a copy is the same shared analysis
      parallel[t] = solve_rounds(copy, method, values, 100u * (t + 1));
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreadCount; ++t) {
    ASSERT_EQ(parallel[t].size(), serial[t].size());
    for (int round = 0; round < kRoundsPerThread; ++round) {
      ASSERT_GT(serial[t][round].size(), 0) << "thread " << t << ", round " << round;
      EXPECT_EQ(parallel[t][round], serial[t][round]) << "thread " << t << ", round " << round;
    }
  }
}

}  // namespace

TEST(Threads, LadderFactorizationsShareOneAnalysis) {
  const gs::Symbolic sym = gs::analyze(fam::ladder(200, 6));
  expect_threads_reproduce_serial(sym, gs::Method::LDU, fam::Values::Unsymmetric);
  expect_threads_reproduce_serial(sym, gs::Method::LDLT, fam::Values::SymmetricPositiveDefinite);
}

TEST(Threads, CrystalPanelsShareOneAnalysis) {
  const gs::Symbolic sym = gs::analyze(fam::crystal(6, 3));
  gs::Factorization probe(sym);
  ASSERT_GT(probe.supernodal_panels(), 0);  // the BLAS panel products run on every thread
  expect_threads_reproduce_serial(sym, gs::Method::LDU, fam::Values::Unsymmetric);
  expect_threads_reproduce_serial(sym, gs::Method::LLT, fam::Values::SymmetricPositiveDefinite);
}

TEST(Threads, MechanismFactorizationsShareOneAnalysis) {
  const gs::Symbolic sym = gs::analyze(fam::mechanism(fam::random_tree(300, 6, 7), 5, true));
  expect_threads_reproduce_serial(sym, gs::Method::LDU, fam::Values::SaddleUnsymmetric);
}

// graphsolve/kernels.hpp: switching the kernels while other threads
// factorize is allowed, and each factorization may then mix both. Chains of
// 6x6 and 3x3 blocks take the fused tree edges, whose wide kernels alone
// take 6x6 blocks: an edge chosen with the wide kernels on must not be sent
// to the portable ones because the switch flipped in between.
TEST(Threads, KernelsSwitchWhileFactorizing) {
  if (!gs::wide_kernels_available()) GTEST_SKIP() << "this CPU has no AVX2 and FMA: only the portable kernels run";
  const gs::Kernels before = gs::active_kernels();
  std::atomic<bool> done{false};
  std::thread switcher([&] {
    for (long i = 0; !done.load(); ++i) gs::use_kernels(i % 2 ? gs::Kernels::Wide : gs::Kernels::Portable);
  });
  std::vector<std::thread> solvers;
  std::vector<double> worst(2, 0.0);
  for (int t = 0; t < 2; ++t)
    solvers.emplace_back([&, t] {
      const gs::Symbolic sym = gs::analyze(fam::chain(60, t == 0 ? 6 : 3));
      gs::BlockMatrix a(sym);
      fam::fill_values(a, fam::Values::Unsymmetric, 5);
      const Eigen::MatrixXd b = gs_test::random_rhs(sym.pattern().dimension, 1, 5);
      Eigen::MatrixXd x(b.rows(), b.cols());
      gs::Factorization f(sym, gs::Method::LDU);
      for (int round = 0; round < 300; ++round) {
        const bool solved = f.factorize(a) == gs::Status::Success && f.solve(b, x) == gs::Status::Success;
        worst[t] = std::max(worst[t], solved ? gs::relative_residual(a, x, b) : 1.0);
      }
    });
  for (std::thread& solver : solvers) solver.join();
  done = true;
  switcher.join();
  gs::use_kernels(before);
  EXPECT_LT(worst[0], 1e-12);
  EXPECT_LT(worst[1], 1e-12);
}
