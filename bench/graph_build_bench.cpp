// Building a Graph node by node and edge by edge, with and without
// Graph::reserve, on a chain and a cubic crystal: what a caller pays before
// the analysis (docs/design.md, section "Pattern"). Names: graph_build/FAMILY/EDGES/MODE.
#include <graphsolve/graph.hpp>

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "benchmark_main.hpp"

namespace {

namespace gs = graphsolve;

// The edges of a chain of n nodes, or of a crystal of side s (n = s^3).
template <class AddEdge>
void chain_edges(int n, AddEdge&& add) {
  for (int i = 0; i + 1 < n; ++i) add(i, i + 1);
}
template <class AddEdge>
void crystal_edges(int side, AddEdge&& add) {
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) {
        const int v = (z * side + y) * side + x;
        if (x + 1 < side) add(v, v + 1);
        if (y + 1 < side) add(v, v + side);
        if (z + 1 < side) add(v, v + side * side);
      }
}

void build(benchmark::State& state, bool crystal, int size, bool reserved) {
  const int nodes = crystal ? size * size * size : size;
  const int edges = crystal ? 3 * size * size * (size - 1) : size - 1;
  for (auto _ : state) {
    std::optional<gs::Graph> g(std::in_place);
    if (reserved) g->reserve(nodes, edges);
    for (int i = 0; i < nodes; ++i) g->add_node(6);
    const auto add = [&](int a, int b) { g->add_edge(a, b); };
    if (crystal)
      crystal_edges(size, add);
    else
      chain_edges(size, add);
    if (g->num_edges() != edges) state.SkipWithError("wrong edge count");
    benchmark::DoNotOptimize(g->edges().data());
    state.PauseTiming();  // freeing it is not building it
    g.reset();
    state.ResumeTiming();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * edges);  // edges per second
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_benchmarks(argc, argv, [](bool quick) {
    struct Case {
      bool crystal;
      int size;
    };
    const Case cases[] = {{false, 10000}, {false, 1000000}, {true, 15}, {true, 70}};
    const Case quick_cases[] = {{false, 10}, {true, 3}};
    for (const Case& c : quick ? std::vector<Case>(std::begin(quick_cases), std::end(quick_cases))
                               : std::vector<Case>(std::begin(cases), std::end(cases))) {
      const int edges = c.crystal ? 3 * c.size * c.size * (c.size - 1) : c.size - 1;
      for (const bool reserved : {false, true}) {
        const std::string name = std::string("graph_build/") + (c.crystal ? "crystal/" : "chain/") +
                                 std::to_string(edges) + (reserved ? "/reserved" : "/plain");
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) { build(s, c.crystal, c.size, reserved); })
            ->Unit(benchmark::kMillisecond);
      }
    }
  });
}
