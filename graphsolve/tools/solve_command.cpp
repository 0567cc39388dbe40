// `graphsolve solve`: read A and b, analyse, factorize (optionally several
// times), solve with optional refinement, report, and write x.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <utility>

#include "block_system.hpp"
#include "output_file.hpp"
#include "commands.hpp"
#include "report.hpp"

namespace graphsolve::cli {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<int> block_sizes(const BlockOptions& options, int dimension) {
  if (options.block_size && !options.blocks_file.empty())
    throw UserError("give either --block-size or --blocks, not both");
  if (!options.blocks_file.empty()) return read_block_sizes(options.blocks_file, dimension);
  return uniform_block_sizes(dimension, options.block_size.value_or(1));
}

std::string describe_failure(const Factorization& f, const Pattern& p) {
  std::string message = std::string("factorization failed: ") + to_string(f.status());
  const NodeId node = f.failed_node();
  if (node >= 0)
    message += " at node " + std::to_string(node) + " (rows " + std::to_string(p.offset[node] + 1) + "-" +
               std::to_string(p.offset[node] + p.size[node]) + ")";
  if (f.status() == Status::SingularPivot)
    message +=
        "; the matrix may be singular, or need row exchanges between nodes, which graphsolve does not make (it "
        "pivots within each node's block): put rows that must exchange in one node (--block-size, --blocks), or "
        "regularize a singular matrix with --shift EPS";
  return message;
}

SparseTriplets read_square(const std::string& path) {
  SparseTriplets a = read_matrix_market_sparse(path);
  if (a.rows != a.cols)
    throw UserError(path + ": A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + ", expected a square matrix");
  return a;
}

BlockMatrix load_system(const std::string& path, const BlockOptions& blocks) {
  const SparseTriplets a = read_square(path);
  check_no_empty_lines(a, path);
  return make_block_system(a, block_sizes(blocks, a.rows));
}

void check_solved(Status solved) {
  if (solved == Status::NonFiniteSolution)
    throw UserError("solve failed: " + std::string(to_string(solved)) +
                    ": A is too close to singular for this b, or b too large; scale the system, or regularize it "
                    "with --shift EPS");
  if (solved != Status::Success) throw UserError(std::string("solve failed: ") + to_string(solved));
}

struct Accuracy {
  double backward_error;
  bool auto_refined;
};

// graphsolve pivots only within nodes, so a tiny pivot can grow the factors
// and leave x far from backward stable. Iterative refinement usually repairs
// that (UMFPACK also refines by default), so a solution above the limit gets
// a few rounds before it is refused. With --shift, x solves the shifted
// system on purpose and is not checked.
Accuracy ensure_backward_error(const SolveOptions& o, Factorization& factorization, const BlockMatrix& a,
                               const Eigen::MatrixXd& b, Eigen::MatrixXd& x) {
  constexpr int kAutomaticRounds = 3;
  Accuracy accuracy{backward_error(a, x, b), false};
  if (o.shift != 0.0 || accuracy.backward_error <= o.max_backward_error) return accuracy;
  const int rounds = std::max(o.refine, kAutomaticRounds);
  if (o.refine < kAutomaticRounds) {
    check_solved(factorization.solve_refined(a, b, x, rounds));
    accuracy = {backward_error(a, x, b), true};
  }
  if (!(accuracy.backward_error <= o.max_backward_error)) {
    std::ostringstream message;
    message << "the solution's backward error ||Ax-b||/(||A|| ||x||+||b||) is " << accuracy.backward_error
            << " after iterative refinement (at most " << rounds << " rounds), above --max-backward-error "
            << o.max_backward_error
            << ": graphsolve pivots only within each node, and a pivot block grew in elimination (or A is "
               "numerically singular); try larger nodes (--block-size, --blocks), another --ordering, more --refine "
               "rounds, or --shift EPS for a singular A";
    throw UserError(message.str());
  }
  return accuracy;
}

// The 1-norm condition estimate, sign and log|det| of the factorized matrix,
// and its inertia for the symmetric methods: what a user checks of a Jacobian
// or a KKT matrix.
void add_matrix_facts(Factorization& f, const BlockMatrix& a, nlohmann::json& report, std::ostream& line) {
  double condition = 0.0;
  if (f.condition_estimate(a, condition) == Status::Success) {
    report["condition_estimate"] = condition;  // +inf is written as null
    line << " condition_estimate=" << condition;
  }
  Determinant det;
  if (f.determinant(det) == Status::Success) {
    report["determinant_sign"] = det.sign;
    report["log_abs_determinant"] = det.log_abs;
    line << " determinant_sign=" << det.sign << " log_abs_determinant=" << det.log_abs;
  }
  Inertia inertia;
  if (f.method() != Method::LDU && f.inertia(inertia) == Status::Success) {
    report["inertia"] = {{"positive", inertia.positive}, {"negative", inertia.negative}};
    line << " inertia=" << inertia.positive << "," << inertia.negative;
  }
}

// --out must not name an input: the solution would replace it.
void check_out_is_no_input(const SolveOptions& o) {
  const std::pair<const char*, const std::string*> inputs[] = {
      {"the matrix A", &o.matrix}, {"the right-hand side (--rhs)", &o.rhs}, {"the block sizes (--blocks)", &o.blocks.blocks_file}};
  for (const auto& [what, path] : inputs)
    if (output_file::replaces_input(o.out, *path))
      throw UserError("--out " + o.out + " is " + what + "; write the solution to another file");
}

}  // namespace

int run_solve(const SolveOptions& o) {
  check_out_is_no_input(o);
  if (o.out == "-" && o.json) throw UserError("--out - and --json both write to standard output: give --out a file");
  // Opened first, so that a path it cannot write fails before the work; the
  // solution replaces the file only once it is complete (output_file.hpp).
  output_file::OutputFile out(o.out, "--out");
  if (o.refine < 0) throw UserError("--refine must be >= 0");
  if (o.repeat < 1) throw UserError("--repeat must be >= 1");
  if (!std::isfinite(o.shift)) throw UserError("--shift must be a finite number");
  if (!(o.max_backward_error > 0.0)) throw UserError("--max-backward-error must be a positive number");
  const BlockMatrix a = load_system(o.matrix, o.blocks);
  const Eigen::MatrixXd b = read_matrix_market_dense(o.rhs, a.rows());  // fails before allocating a wrong size
  if (o.method != Method::LDU)
    if (const std::string where = asymmetry(a); !where.empty())
      throw UserError(o.matrix + ": --method " + to_string(o.method) + " needs a symmetric matrix: " + where +
                      " (use --method ldu)");

  auto start = Clock::now();
  const Symbolic symbolic = analyze_with_pattern(a.pattern_ptr(), {o.ordering, {}});
  const double analyze_seconds = seconds_since(start);
  Factorization factorization(symbolic, o.method);
  FactorOptions factor_options;
  factor_options.shift = o.shift;
  Eigen::MatrixXd x(b.rows(), b.cols());
  double factorize_seconds = 1e300, solve_seconds = 1e300;
  for (int run = 0; run < o.repeat; ++run) {
    start = Clock::now();
    if (factorization.factorize(a, factor_options) != Status::Success)
      throw UserError(describe_failure(factorization, symbolic.pattern()));
    factorize_seconds = std::min(factorize_seconds, seconds_since(start));
    start = Clock::now();
    check_solved(factorization.solve_refined(a, b, x, o.refine));
    solve_seconds = std::min(solve_seconds, seconds_since(start));
  }
  const Accuracy accuracy = ensure_backward_error(o, factorization, a, b, x);
  const double residual = relative_residual(a, x, b);
  write_matrix_market_dense(out.stream(), x);
  out.commit();

  nlohmann::json report = to_json(symbolic.stats());
  report["method"] = to_string(o.method);
  report["analyze_seconds"] = analyze_seconds;
  report["factorize_seconds"] = factorize_seconds;
  report["solve_seconds"] = solve_seconds;
  report["residual"] = residual;
  report["backward_error"] = accuracy.backward_error;
  report["auto_refined"] = accuracy.auto_refined;
  report["rhs_columns"] = b.cols();
  report["repeat"] = o.repeat;
  std::ostringstream line;
  line << to_line(symbolic.stats()) << " method=" << to_string(o.method) << " analyze_seconds=" << analyze_seconds
       << " factorize_seconds=" << factorize_seconds << " solve_seconds=" << solve_seconds
       << " residual=" << residual << " backward_error=" << accuracy.backward_error
       << (accuracy.auto_refined ? " auto_refined=yes" : "");
  add_matrix_facts(factorization, a, report, line);
  std::cerr << line.str() << "\n";
  if (o.json) std::cout << report.dump() << "\n";
  return 0;
}

int run_info(const InfoOptions& o) {
  const BlockMatrix system = load_system(o.matrix, o.blocks);
  nlohmann::json report;
  const Symbolic chosen = analyze_with_pattern(system.pattern_ptr(), {Ordering::Auto, {}});
  for (Ordering ordering : {Ordering::DFS, Ordering::AMD, Ordering::ND}) {
    const auto start = Clock::now();
    const Symbolic symbolic = analyze_with_pattern(system.pattern_ptr(), {ordering, {}});
    nlohmann::json stats = to_json(symbolic.stats());
    stats["analyze_seconds"] = seconds_since(start);
    stats["flops_ldlt"] = symbolic.flops(Method::LDLT);
    stats["flops_llt"] = symbolic.flops(Method::LLT);
    report["orderings"][to_string(ordering)] = stats;
    if (!o.json) std::cout << to_line(symbolic.stats()) << " factor_nonzeros=" << symbolic.stats().factor_nonzeros << "\n";
  }
  const AnalysisStats& s = chosen.stats();
  for (const char* key : {"nodes", "edges", "components", "cycle_rank", "dimension"}) report[key] = to_json(s)[key];
  report["auto"] = to_string(s.ordering);
  // Auto's own numbers: below nd's line where it took another METIS seed.
  report["auto_flops"] = s.flops;
  report["auto_factor_nonzeros"] = s.factor_nonzeros;
  if (o.json)
    std::cout << report.dump() << "\n";
  else
    std::cout << "auto chooses " << to_string(s.ordering) << " (fill_blocks=" << s.fill_blocks << " flops=" << s.flops
              << " factor_nonzeros=" << s.factor_nonzeros << ")\n";
  return 0;
}

}  // namespace graphsolve::cli
