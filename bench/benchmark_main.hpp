#pragma once
// The main() of the simulator benchmarks: takes a --quick flag (tiny sizes,
// for the smoke tests) out of the arguments, lets the caller register its
// benchmarks for that mode, and runs Google Benchmark on the rest. With
// --quick, a benchmark that reports an error fails the run (exit code 1), so
// that the smoke tests catch a model MuJoCo refuses or a step that fails.

#include <benchmark/benchmark.h>

#include "graphsolve/kernels.hpp"

#include <cstring>
#include <functional>
#include <vector>

namespace bench {

class ErrorCountingReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) errors += run.error_occurred ? 1 : 0;
    ConsoleReporter::ReportRuns(runs);
  }
  int errors = 0;
};

inline int run_benchmarks(int argc, char** argv, const std::function<void(bool quick)>& register_all) {
  bool quick = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else args.push_back(argv[i]);
  }
  int n = static_cast<int>(args.size());
  register_all(quick);
  benchmark::Initialize(&n, args.data());
  benchmark::AddCustomContext("graphsolve_kernels", graphsolve::to_string(graphsolve::active_kernels()));
  if (!quick) {
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
  }
  ErrorCountingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return reporter.errors == 0 ? 0 : 1;
}

}  // namespace bench
