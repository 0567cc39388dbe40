// factorize() and the solves must not touch the heap, memory_bytes() must
// account for what a factorization holds there, and a graph that finds no
// room for a node or an edge stays as it was (see allocation_counter.hpp).
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>

#include "graphsolve/families.hpp"
#include "test_support.hpp"
#include "allocation_counter.hpp"
#include "failing_allocations.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;

namespace {

gs::Graph mixed_sizes_with_a_large_block() {
  gs::Graph g = fam::crystal(3, 6);
  const auto big = g.add_node(40);
  g.add_edge(big, 0);
  g.add_edge(big, 13);
  const auto small = g.add_node(1);
  g.add_edge(small, big);
  return g;
}

}  // namespace

TEST(NoAllocation, CountingWorks) {
  // Into a global: a local vector's new/delete pair may be elided (clang
  // does), and the counter would then see nothing to count.
  static std::vector<int> kept;
  EXPECT_GT(allocations_during([] { kept.assign(100, 2); }), 0);
  kept = std::vector<int>();
}

TEST(NoAllocation, FactorizeAndSolveNeverAllocate) {
  const std::vector<std::pair<gs::Graph, bool>> graphs = {
      {fam::mechanism(fam::ladder(6, 6), 3, true), true},
      {mixed_sizes_with_a_large_block(), false},
      {fam::chain(50, 6), false},
      {fam::net(30, 1), false},  // every node a scalar: scalar_elimination.cpp, with panels
  };
  for (const auto& [graph, saddle] : graphs) {
    for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      if (saddle && method == gs::Method::LLT) continue;
      const gs::Symbolic sym = gs::analyze(graph);
      gs::BlockMatrix a(sym);
      const auto values = saddle ? fam::Values::Saddle
                                 : method == gs::Method::LDU ? fam::Values::Unsymmetric
                                                             : fam::Values::SymmetricPositiveDefinite;
      fam::fill_values(a, values, 5);
      gs::Factorization f(sym, method);
      Eigen::MatrixXd one = gs_test::random_rhs(a.rows(), 1, 1);
      Eigen::MatrixXd many = gs_test::random_rhs(a.rows(), 37, 2);
      const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 3, 3);
      Eigen::MatrixXd x(a.rows(), 3);
      Eigen::MatrixXd adjoint = gs_test::random_rhs(a.rows(), 37, 4);
      Eigen::MatrixXd adjoint_x(a.rows(), 3);
      Eigen::MatrixXd in_place = b;  // refined in place: each column's right-hand side kept in preallocated storage
      gs::Status s1{}, s2{}, s3{}, s4{}, s5{}, s6{}, s7{}, s8{}, s9{};
      const long count = allocations_during([&] {
        s1 = f.factorize(a);
        s2 = f.solve_in_place(one);
        s3 = f.solve_in_place(many);
        s4 = f.solve_refined(a, b, x, 2);
        s6 = f.solve_transposed_in_place(one);
        s7 = f.solve_transposed_in_place(adjoint);
        s8 = f.solve_transposed_refined(a, b, adjoint_x, 2);
        s9 = f.solve_refined(a, in_place, in_place, 2);
        a.set_active(a.num_nodes() - 1, false);
        s5 = f.factorize(a);
        a.set_active(a.num_nodes() - 1, true);
      });
      EXPECT_EQ(count, 0) << gs::to_string(method);
      for (gs::Status s : {s1, s2, s3, s4, s5, s6, s7, s8, s9}) EXPECT_EQ(s, gs::Status::Success) << gs::to_string(method);
      EXPECT_LT(gs_test::dense_residual(a.to_dense(), x, b), 1e-10);
      EXPECT_LT(gs_test::dense_residual(a.to_dense(), in_place, b), 1e-10);
    }
  }
}

// Pivots refused by the plain ratio and inverted after scaling their rows
// (fixed-size and dynamic blocks) take no allocation either.
TEST(NoAllocation, ScaledPivotRetriesNeverAllocate) {
  const gs::Symbolic sym = gs::analyze(mixed_sizes_with_a_large_block());
  const gs::Pattern& p = sym.pattern();
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    gs::BlockMatrix a(sym);
    fam::fill_values(a, method == gs::Method::LDU ? fam::Values::Unsymmetric : fam::Values::SymmetricPositiveDefinite, 7);
    // Rows after the first of every node scaled by 1e-8 on both sides.
    Eigen::VectorXd s = Eigen::VectorXd::Constant(p.dimension, 1e-8);
    for (int v = 0; v < p.num_nodes; ++v) s[p.offset[v]] = 1.0;
    gs_test::scale_symmetrically(a, s);
    gs::Factorization f(sym, method);
    gs::FactorOptions plain;
    plain.equilibrate_pivots = false;
    ASSERT_NE(f.factorize(a, plain), gs::Status::Success) << gs::to_string(method);  // the retry is needed
    gs::Status status{};
    const long count = allocations_during([&] { status = f.factorize(a); });
    EXPECT_EQ(count, 0) << gs::to_string(method);
    EXPECT_EQ(status, gs::Status::Success) << gs::to_string(method);
  }
  // LDU with the columns after the first of every node scaled by 1e-15: the
  // factorization runs a second pass keeping the columns' magnitudes.
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 9);
  Eigen::VectorXd c = Eigen::VectorXd::Constant(p.dimension, 1e-15);
  for (int v = 0; v < p.num_nodes; ++v) c[p.offset[v]] = 1.0;
  gs_test::scale_rows_and_columns(a, Eigen::VectorXd::Ones(p.dimension), c);
  gs::Factorization f(sym, gs::Method::LDU);
  gs::Status first{}, again{};
  // Again: keeping the columns' magnitudes from the start.
  const long count = allocations_during([&] {
    first = f.factorize(a);
    again = f.factorize(a);
  });
  EXPECT_EQ(count, 0);
  EXPECT_EQ(first, gs::Status::Success);
  EXPECT_EQ(again, gs::Status::Success);
}

// The Newton loop of a user whose matrix is scalar sparse: new values are
// written into the analysed block matrix without touching the heap, from an
// Eigen matrix or from another library's CSC arrays mapped by Eigen.
TEST(NoAllocation, AssignFromSparseNeverAllocates) {
  gs::BlockMatrix blocks(std::make_shared<const gs::Pattern>(fam::ladder(8, 3)));
  fam::fill_values(blocks, fam::Values::SymmetricPositiveDefinite, 1);
  const gs::SparseColumns full = gs::to_sparse(blocks);
  const gs::SparseColumns lower = full.triangularView<Eigen::Lower>();
  const Eigen::Map<const gs::SparseColumns> mapped(full.rows(), full.cols(), static_cast<int>(full.nonZeros()),
                                                   full.outerIndexPtr(), full.innerIndexPtr(), full.valuePtr());
  gs::BlockMatrix m = gs::from_sparse(full, blocks.pattern().size);
  const long count = allocations_during([&] {
    gs::assign_from_sparse(m, full);
    gs::assign_from_sparse(m, mapped);
    gs::assign_from_sparse(m, lower, gs::SparseStorage::SymmetricLower);
  });
  EXPECT_EQ(count, 0);
  EXPECT_EQ(m.to_dense(), blocks.to_dense());
}

// memory_bytes() adds up the factorization's buffers member by member; a
// buffer left out of that sum would go unreported. So it must account for
// every byte a new Factorization holds on the heap, short of the allocator's
// rounding (at most 32 bytes a block here) and the Impl object itself.
// Factors below 2 MB: a larger value arena is over-allocated by a huge page
// that memory_bytes() does not report.
TEST(MemoryBytes, AccountsForEveryByteAFactorizationHolds) {
  const std::vector<std::pair<const char*, gs::Graph>> graphs = {
      {"saddle-point ladder (pair kernels)", fam::mechanism(fam::ladder(6, 6), 3, true)},
      {"crystal with a 40-row block", mixed_sizes_with_a_large_block()},
      {"6x6 chain", fam::chain(100, 6)},
      {"3x3 crystal (panels)", fam::crystal(6, 3)},
  };
  bool saw_panels = false;
  for (const auto& [name, graph] : graphs) {
    const gs::Symbolic symbolic = gs::analyze(graph);
    for (const gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
      std::optional<gs::Factorization> f;
      const HeapUse use = heap_use_of([&] { f.emplace(symbolic, method); });
      const long reported = f->memory_bytes();
      saw_panels = saw_panels || f->supernodal_panels() > 0;
      EXPECT_LE(reported, use.live_bytes) << name << ", " << gs::to_string(method);
      EXPECT_LE(use.live_bytes - reported, 4096 + 32 * use.allocations)
          << name << ", " << gs::to_string(method) << ": " << use.allocations << " allocations";
    }
  }
  EXPECT_TRUE(saw_panels);
}

// Every allocation an add makes fails in turn, on a copy of a graph (whose
// vectors are full, so the add must grow them): each throws bad_alloc, and
// the graph keeps its nodes and edges until the same add succeeds.
TEST(GraphOutOfMemory, AddLeavesTheGraphAsItWas) {
  const gs::Graph base = fam::ladder(5, 2);
  const auto expect_unchanged_when_out_of_memory = [&](const std::function<void(gs::Graph&)>& add,
                                                       const std::function<bool(const gs::Graph&)>& added) {
    const long failures = expect_every_failing_allocation_throws(base, add, [&](gs::Graph& graph, long n) {
      EXPECT_EQ(graph.num_nodes(), base.num_nodes()) << "allocation " << n;
      EXPECT_EQ(graph.kinds().size(), base.sizes().size()) << "allocation " << n;
      EXPECT_EQ(graph.num_edges(), base.num_edges()) << "allocation " << n;
      EXPECT_FALSE(added(graph)) << "allocation " << n;
      add(graph);
      EXPECT_TRUE(added(graph)) << "allocation " << n;
    });
    EXPECT_GT(failures, 0) << "the add allocated nothing, so no failure was tried";
  };
  expect_unchanged_when_out_of_memory(
      [](gs::Graph& g) { g.add_node(3, gs::NodeKind::ZeroDiagonal); },
      [&](const gs::Graph& g) {
        return g.num_nodes() == base.num_nodes() + 1 && g.kind(base.num_nodes()) == gs::NodeKind::ZeroDiagonal;
      });
  expect_unchanged_when_out_of_memory(
      [](gs::Graph& g) { g.add_edge(9, 0); },
      [](const gs::Graph& g) { return g.has_edge(0, 9) && g.edges().back() == std::make_pair(0, 9); });
}
