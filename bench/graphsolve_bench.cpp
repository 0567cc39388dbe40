// graphsolve against UMFPACK, KLU, CHOLMOD, Eigen sparse and dense LU on
// chain, tree, ladder, net and crystal graphs (random ones on request).
// Benchmarks are named family/n/solver/phase; the headline phase is
// refactor_solve (numeric factorization reusing the analysis, then one
// solve). Every benchmark checks its solution's relative residual and fails
// loudly (non-zero exit) if wrong.
//
// Extra flags: --quick (a few mid sizes, refactor_solve only: the README's
// main job), --smoke (the smallest system of every kind, every phase: the
// test suite runs it so the benchmark cannot rot), --block-sizes=B1,B2,...
// (the chain, tree, ladder, net and crystal families with those block sizes
// instead of 6 and 3, e.g. a user's own; no saddle-point or scalar systems),
// --sizes=FAMILY:N1,N2,... (that family at those sizes instead of the
// scale's: nodes of a chain, tree, ladder or random graph, the side of a net
// or crystal; once per family),
// --system-malloc (glibc's default settings, which return freed memory to
// the kernel: see keep_freed_memory), and --random-graphs (random graphs of
// 100 to 10000 nodes instead of the families; with --block-sizes, of those).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#include "graphsolve/kernels.hpp"
#include "size_flags.hpp"
#include "solvers.hpp"

namespace {

int g_failures = 0;

std::string format(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

enum class Phase { Analyze, Factorize, Solve, RefactorSolve, Full };
const char* name(Phase p) {
  switch (p) {
    case Phase::Analyze: return "analyze";
    case Phase::Factorize: return "factorize";
    case Phase::Solve: return "solve";
    case Phase::RefactorSolve: return "refactor_solve";
    case Phase::Full: return "full";
  }
  return "?";
}

void fail(benchmark::State& state, const std::string& benchmark_name, const std::string& why) {
  ++g_failures;
  std::cerr << "FAILED " << benchmark_name << ": " << why << "\n";
  state.SkipWithError(why.c_str());
}

void run(benchmark::State& state, const std::string& benchmark_name, const bench::ProblemKey& key,
         const bench::SolverInfo& info, Phase phase) {
  const bench::Problem& p = bench::problem(key);
  Eigen::VectorXd x(p.rhs.size());
  try {
    std::unique_ptr<bench::Solver> solver = info.make(p);
    if (phase != Phase::Analyze && phase != Phase::Full) {
      solver->analyze();
      solver->factorize();
    }
    for (auto _ : state) {
      switch (phase) {
        case Phase::Analyze: solver->analyze(); break;
        case Phase::Factorize: solver->factorize(); break;
        case Phase::Solve: solver->solve(p.rhs, x); break;
        case Phase::RefactorSolve:
          solver->refactor();
          solver->solve(p.rhs, x);
          break;
        case Phase::Full:
          solver->analyze();
          solver->factorize();
          solver->solve(p.rhs, x);
          break;
      }
      benchmark::DoNotOptimize(x.data());
    }
    if (phase == Phase::Analyze) solver->factorize();
    if (phase == Phase::Analyze || phase == Phase::Factorize) solver->solve(p.rhs, x);
    const double residual = (p.sparse * x - p.rhs).norm() / p.rhs.norm();
    if (!(residual < 1e-10)) return fail(state, benchmark_name, "relative residual " + format(residual));
    const bench::FactorStats s = solver->stats();
    state.counters["nodes"] = p.graph.num_nodes();
    state.counters["rows"] = static_cast<double>(p.rhs.size());
    state.counters["residual"] = residual;
    state.counters["factor_nonzeros"] = s.factor_nonzeros;
    state.counters["flops"] = s.flops;
    state.counters["memory_bytes"] = s.memory_bytes;
    if (phase == Phase::Factorize || phase == Phase::RefactorSolve)
      state.counters["GFLOPs"] = benchmark::Counter(s.flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  } catch (const std::exception& e) {
    fail(state, benchmark_name, e.what());
  }
}

bool wants_full(const std::string& solver) {
  return solver == "graphsolve-ldu-auto" || solver == "graphsolve-llt" || solver == "umfpack" || solver == "klu" ||
         solver == "cholmod-supernodal";
}

void register_all(bench::Scale scale, const std::vector<int>& blocks, const bench::FamilySizes& sizes) {
  const bool quick = scale == bench::Scale::Quick;
  for (const bench::ProblemKey& key : bench::all_keys(scale, blocks, sizes))
    for (const bench::SolverInfo& info : bench::all_solvers()) {
      if (info.symmetric != (key.variant == bench::Variant::Spd) || !info.applies(key)) continue;
      if (quick && !info.in_tables) continue;  // the main job prints the tables only
      for (Phase phase : {Phase::Analyze, Phase::Factorize, Phase::Solve, Phase::RefactorSolve, Phase::Full}) {
        if (phase == Phase::Analyze && info.name == "dense-lu") continue;
        if (phase == Phase::Full && !wants_full(info.name)) continue;
        if (quick && phase != Phase::RefactorSolve) continue;
        const std::string benchmark_name = key.name() + "/" + info.name + "/" + name(phase);
        benchmark::RegisterBenchmark(benchmark_name.c_str(), [benchmark_name, key, info, phase](benchmark::State& state) {
          run(state, benchmark_name, key, info, phase);
        })->Unit(benchmark::kMicrosecond);
      }
    }
}

// SuiteSparse must run single-threaded at full BLAS speed: OpenBLAS and
// OpenMP read their thread counts when they load, so set them and restart.
void pin_to_one_thread(char** argv) {
  if (std::getenv("GS_BENCH_PINNED")) return;
  setenv("GS_BENCH_PINNED", "1", 1);
  setenv("OPENBLAS_NUM_THREADS", "1", 1);
  setenv("OMP_NUM_THREADS", "1", 1);
  execv("/proc/self/exe", argv);
}

// UMFPACK, CHOLMOD and Eigen's sparse solvers allocate their numeric objects
// on every factorization. By default glibc serves large blocks with mmap and
// hands a freed heap top back to the kernel, so each of those factorizations
// faults its pages in and zeroes them again: on a paravirtualized VM that
// made UMFPACK 2.5-3x slower (1000-node 6x6 chain: 22-26 ms against 7-9 ms).
// Kept in the process, freed memory is reused, and the benchmark measures
// the solvers rather than the kernel's page faults. graphsolve's
// refactorizations and solves allocate nothing either way. False where the
// allocator refuses (AddressSanitizer's does; ThreadSanitizer's accepts).
bool keep_freed_memory() {
  const bool from_heap = mallopt(M_MMAP_MAX, 0) == 1;  // every block from the heap
  const bool kept = mallopt(M_TRIM_THRESHOLD, -1) == 1;  // and the heap never shrinks
  return from_heap && kept;
}

}  // namespace

int main(int argc, char** argv) {
  pin_to_one_thread(argv);
  bench::Scale scale = bench::Scale::Full;
  std::vector<int> blocks;
  bench::FamilySizes sizes;
  std::vector<char*> rest, args;
  if (!bench::take_size_flags(argc, argv, bench::graph_size_ranges(), "graphsolve_bench", sizes, rest)) return 2;
  const std::string block_flag = "--block-sizes=";
  bool system_malloc = false;
  for (char* arg : rest) {
    if (std::strcmp(arg, "--system-malloc") == 0) {
      system_malloc = true;
    } else if (std::strcmp(arg, "--quick") == 0) {
      scale = bench::Scale::Quick;
    } else if (std::strcmp(arg, "--smoke") == 0) {
      scale = bench::Scale::Smoke;
    } else if (std::strcmp(arg, "--random-graphs") == 0) {
      scale = bench::Scale::RandomGraphs;
    } else if (std::strncmp(arg, block_flag.c_str(), block_flag.size()) == 0) {
      std::string error;
      blocks = bench::parse_block_sizes(arg + block_flag.size(), error);
      if (blocks.empty()) {
        std::cerr << "graphsolve_bench: " << error << "\n";
        return 2;
      }
    } else {
      args.push_back(arg);
    }
  }
  // A family this run leaves out cannot take sizes: they would be dropped unsaid.
  const bool random_only = scale == bench::Scale::RandomGraphs;
  for (const auto& entry : sizes) {
    const bool random = entry.first == "random";
    if (random_only == random || (random && scale == bench::Scale::Smoke)) continue;
    std::cerr << "graphsolve_bench: --sizes=" << entry.first << ":... "
              << (random ? "needs --random-graphs" : "does not apply: --random-graphs runs random graphs only") << "\n";
    return 2;
  }
  const char* malloc_setting = "glibc defaults";
  if (!system_malloc)
    malloc_setting = keep_freed_memory() ? "freed memory kept in the process" : "the allocator refused mallopt";
  int count = static_cast<int>(args.size());
  register_all(scale, blocks, sizes);
  benchmark::Initialize(&count, args.data());
  // The kernels decide the speed of 5x5 and 6x6 blocks and the last bits of
  // every result, so the report says which ran.
  benchmark::AddCustomContext("graphsolve_kernels", graphsolve::to_string(graphsolve::active_kernels()));
  benchmark::AddCustomContext("malloc", malloc_setting);
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_failures > 0) std::cerr << g_failures << " benchmark(s) failed\n";
  return g_failures > 0 ? 1 : 0;
}
