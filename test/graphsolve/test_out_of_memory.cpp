// What the analysis sizes and memory cannot hold fails with OutOfMemory: a
// std::bad_alloc whose message names what did not fit. Each case runs as a
// death test, in a child process whose address space is capped a little
// above what it already maps, so that no test takes the memory it asks
// for, whatever the machine (with overcommit, an uncapped request could be
// granted and then filled).
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graphsolve/graphsolve.hpp"
#include "address_sanitizer.hpp"

namespace gs = graphsolve;

namespace {

constexpr long kHeadroomBytes = 256L << 20;

long mapped_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7)) * 1024;  // reported in kB
  return -1;
}

// Runs make() with the address space capped and exits 0 if it throws an
// OutOfMemory (caught as a std::bad_alloc) whose message contains every
// phrase; anything else prints what happened and exits 1.
template <class Make>
[[noreturn]] void exit_zero_if_out_of_memory(Make make, const std::vector<std::string>& phrases) {
  const long mapped = mapped_bytes();
  if (mapped < 0) {
    std::fprintf(stderr, "no VmSize in /proc/self/status\n");
    std::_Exit(1);
  }
  const rlimit cap{static_cast<rlim_t>(mapped + kHeadroomBytes), static_cast<rlim_t>(mapped + kHeadroomBytes)};
  if (setrlimit(RLIMIT_AS, &cap) != 0) {
    std::perror("setrlimit");
    std::_Exit(1);
  }
  try {
    make();
    std::fprintf(stderr, "nothing was thrown\n");
  } catch (const std::bad_alloc& error) {
    const std::string message = error.what();
    bool all = dynamic_cast<const gs::OutOfMemory*>(&error) != nullptr;
    for (const std::string& phrase : phrases) all = all && message.find(phrase) != std::string::npos;
    if (all) std::_Exit(0);
    std::fprintf(stderr, "unexpected message: %s\n", message.c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "not a bad_alloc: %s\n", error.what());
  }
  std::_Exit(1);
}

// Two dense 5000-row blocks joined by an edge: a matrix of 10^8 values
// (800 MB, under BlockMatrix's 2^31 limit) and an LDU factor of as many plus
// 5 * 10^7 of workspace, from an analysis of two nodes.
gs::Graph two_large_blocks() {
  gs::Graph graph;
  graph.add_node(5000);
  graph.add_node(5000);
  graph.add_edge(0, 1);
  return graph;
}

}  // namespace

class OutOfMemory : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef GS_TEST_ASAN
    GTEST_SKIP() << "AddressSanitizer ends the process on a failed operator new instead of throwing, and "
                    "reserves more address space than any cap leaves";
#endif
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child re-runs this test alone
  }
};

TEST_F(OutOfMemory, FactorNamesItsMethodValuesAndBytes) {
  const gs::Symbolic symbolic = gs::analyze(two_large_blocks());
  EXPECT_EXIT(exit_zero_if_out_of_memory([&] { gs::Factorization factorization(symbolic, gs::Method::LDU); },
                                         {"graphsolve::Factorization: out of memory for the ldu factor's",
                                          "150000000 values (1.2 GB)", "on 2 nodes"}),
              ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exit_zero_if_out_of_memory([&] { gs::Factorization factorization(symbolic, gs::Method::LLT); },
                                         {"out of memory for the llt factor's", "on 2 nodes"}),
              ::testing::ExitedWithCode(0), "");
}

TEST_F(OutOfMemory, MatrixNamesItsValuesAndBytes) {
  const gs::Symbolic symbolic = gs::analyze(two_large_blocks());
  EXPECT_EXIT(exit_zero_if_out_of_memory([&] { gs::BlockMatrix matrix(symbolic); },
                                         {"graphsolve::BlockMatrix: out of memory for the matrix's",
                                          "100000000 values (0.8 GB)"}),
              ::testing::ExitedWithCode(0), "");
}

// A star whose hub is eliminated first fills in every pair of its leaves:
// 2 * 10^8 blocks for 20000 nodes.
TEST_F(OutOfMemory, AnalysisNamesTheGraphAndTheOrdering) {
  const int n = 20000;
  gs::Graph star;
  for (int i = 0; i < n; ++i) star.add_node(1);
  for (int i = 1; i < n; ++i) star.add_edge(0, i);
  gs::AnalyzeOptions hub_first;
  hub_first.ordering = gs::Ordering::Given;
  hub_first.order.resize(n);
  std::iota(hub_first.order.begin(), hub_first.order.end(), 0);
  EXPECT_EXIT(exit_zero_if_out_of_memory([&] { (void)gs::analyze(star, hub_first); },
                                         {"graphsolve::analyze: out of memory for the filled pattern of 20000 nodes "
                                          "and 19999 edges with the given ordering",
                                          "Ordering::Auto"}),
              ::testing::ExitedWithCode(0), "");
  // Leaves first, the same star has no fill at all.
  EXPECT_EQ(gs::analyze(star).stats().fill_blocks, 0);
}

// A reserve past memory names its counts and leaves the graph usable.
TEST_F(OutOfMemory, GraphReserveNamesItsCounts) {
  EXPECT_EXIT(exit_zero_if_out_of_memory(
                  [] {
                    gs::Graph graph;
                    graph.add_node(1);
                    graph.add_node(1);
                    graph.add_edge(0, 1);
                    try {
                      graph.reserve(1 << 30, 1 << 30);
                    } catch (const std::bad_alloc&) {
                      if (graph.num_nodes() != 2 || !graph.has_edge(1, 0)) std::_Exit(2);
                      throw;
                    }
                  },
                  {"graphsolve::Graph::reserve: out of memory for 1073741824 nodes and 1073741824 edges"}),
              ::testing::ExitedWithCode(0), "");
}

// Nodes and edges added one by one until memory runs out: the one that did
// not fit is not half there (a size without its kind, an edge's key without
// the edge, which would make has_edge() true for an edge no analysis sees).
TEST_F(OutOfMemory, GraphNodeOrEdgeThatDoesNotFitLeavesTheGraphAsItWas) {
  EXPECT_EXIT(exit_zero_if_out_of_memory(
                  [] {
                    gs::Graph graph;
                    try {
                      for (;;) graph.add_node(1, gs::NodeKind::ZeroDiagonal);
                    } catch (const std::bad_alloc&) {
                      const std::size_t n = static_cast<std::size_t>(graph.num_nodes());
                      if (graph.sizes().size() != n || graph.kinds().size() != n) std::_Exit(2);
                      throw;
                    }
                  },
                  {"graphsolve::Graph::add_node: out of memory for node", "(the graph is as it was)"}),
              ::testing::ExitedWithCode(0), "");
  EXPECT_EXIT(exit_zero_if_out_of_memory(
                  [] {
                    const int n = 8192;  // 3.4e7 pairs: more edges than the cap holds
                    gs::Graph graph;
                    for (int i = 0; i < n; ++i) graph.add_node(1);
                    int added = 0, a = 0, b = 1;
                    try {
                      for (a = 0; a < n; ++a)
                        for (b = a + 1; b < n; ++b) {
                          graph.add_edge(b, a);
                          ++added;
                        }
                    } catch (const std::bad_alloc&) {
                      if (graph.num_edges() != added || graph.has_edge(a, b)) std::_Exit(2);
                      if (added > 0 && graph.edges().back() != std::make_pair(a, b - 1) &&
                          graph.edges().back() != std::make_pair(a - 1, n - 1))
                        std::_Exit(3);
                      throw;
                    }
                  },
                  {"graphsolve::Graph::add_edge: out of memory for edge {", "(the graph is as it was)"}),
              ::testing::ExitedWithCode(0), "");
}
