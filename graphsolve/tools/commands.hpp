#pragma once
// The CLI's subcommands. Each returns the process exit code; user errors are
// thrown as UserError (or MatrixMarketError) and reported by main().

#include <optional>
#include <string>

#include "graphsolve/graphsolve.hpp"

namespace graphsolve::cli {

struct BlockOptions {
  std::optional<int> block_size;  // --block-size
  std::string blocks_file;        // --blocks
};

struct SolveOptions {
  std::string matrix, rhs, out;
  BlockOptions blocks;
  Ordering ordering = Ordering::Auto;
  Method method = Method::LDU;
  int refine = 0;
  double shift = 0.0;
  double max_backward_error = 1e-10;
  int repeat = 1;
  bool json = false;
};

struct InfoOptions {
  std::string matrix;
  BlockOptions blocks;
  bool json = false;
};

int run_solve(const SolveOptions& options);
int run_info(const InfoOptions& options);
// The main job on built-in systems: ladder, net, crystal, chain and a mechanism.
int run_demo(bool json);

}  // namespace graphsolve::cli
