#pragma once
// The main() of the simulator benchmarks: takes a --quick flag (tiny sizes,
// for the smoke tests) out of the arguments, lets the caller register its
// benchmarks for that mode, and runs Google Benchmark on the rest.

#include <benchmark/benchmark.h>

#include <cstring>
#include <functional>
#include <vector>

namespace bench {

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
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace bench
