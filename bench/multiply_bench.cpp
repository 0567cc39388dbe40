// BlockMatrix's products with one vector (the residual of every refined
// solve) next to a solve with the same matrix's factors, on 1000-node chains
// and ladders of 3x3 and 6x6 blocks (docs/design.md, section "Values").
// Names: multiply/FAMILY-bB/NODES/OPERATION.
#include <graphsolve/families.hpp>
#include <graphsolve/graphsolve.hpp>

#include <functional>
#include <string>

#include "benchmark_main.hpp"

namespace {

namespace gs = graphsolve;
namespace fam = graphsolve::families;

struct System {
  explicit System(const gs::Graph& graph)
      : symbolic(gs::analyze(graph)), matrix(symbolic), ldu(symbolic, gs::Method::LDU) {
    fam::fill_values(matrix, fam::Values::Unsymmetric, 1);
    x = Eigen::VectorXd::Random(matrix.rows());
    y.resize(matrix.rows());
  }
  gs::Symbolic symbolic;
  gs::BlockMatrix matrix;
  gs::Factorization ldu;
  Eigen::VectorXd x, y;
};

void run(benchmark::State& state, const gs::Graph& graph, const std::string& operation) {
  System s(graph);
  if (s.ldu.factorize(s.matrix) != gs::Status::Success) return state.SkipWithError("factorization failed");
  const std::function<void()> once =
      operation == "multiply"             ? std::function<void()>([&] { s.matrix.multiply(s.x, s.y); })
      : operation == "multiply_transposed" ? std::function<void()>([&] { s.matrix.multiply_transposed(s.x, s.y); })
      : operation == "multiply_symmetric_lower"
          ? std::function<void()>([&] { s.matrix.multiply_symmetric_lower(s.x, s.y); })
          : std::function<void()>([&] {
              s.y = s.x;
              if (s.ldu.solve_in_place(s.y) != gs::Status::Success) state.SkipWithError("solve failed");
            });
  for (auto _ : state) {
    once();
    benchmark::DoNotOptimize(s.y.data());
  }
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_benchmarks(argc, argv, [](bool quick) {
    const int nodes = quick ? 10 : 1000;
    for (const int b : {3, 6})
      for (const bool ladder : {false, true}) {
        const gs::Graph graph = ladder ? fam::ladder(nodes / 2, b) : fam::chain(nodes, b);
        const std::string family = std::string(ladder ? "ladder" : "chain") + "-b" + std::to_string(b);
        for (const char* operation : {"multiply", "multiply_transposed", "multiply_symmetric_lower", "solve"}) {
          const std::string name = "multiply/" + family + "/" + std::to_string(nodes) + "/" + operation;
          benchmark::RegisterBenchmark(name.c_str(), [graph, op = std::string(operation)](benchmark::State& s) {
            run(s, graph, op);
          })->Unit(benchmark::kMicrosecond);
        }
      }
  });
}
