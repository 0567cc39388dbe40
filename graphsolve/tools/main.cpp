// graphsolve: solve or analyse block-sparse systems given as Matrix Market files.
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>

#include "cli_errors.hpp"
#include "cli_real_number.hpp"
#include "cli_whole_number.hpp"
#include "output_file.hpp"
#include "block_system.hpp"
#include "commands.hpp"

namespace {

using namespace graphsolve;

template <class Enum>
CLI::Validator enum_validator(std::optional<Enum> (*parse)(const std::string&), const std::string& choices) {
  return CLI::Validator(
      [parse, choices](std::string& value) -> std::string {
        return parse(value) ? std::string() : "'" + value + "' is not one of " + choices;
      },
      choices);
}

void add_block_options(CLI::App* command, cli::BlockOptions& blocks) {
  auto* size = command->add_option_function<int>(
      "--block-size", [&blocks](int k) { blocks.block_size = k; }, "uniform block size K (default 1)");
  size->transform(cli_whole_number::whole_number(1));
  auto* file = command->add_option("--blocks", blocks.blocks_file, "file of node sizes summing to the dimension");
  size->excludes(file);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"graphsolve: block-sparse LDU / LDLT / LLT solver on graphs"};
  app.require_subcommand(1);

  cli::SolveOptions solve;
  std::string ordering = "auto", method = "ldu";
  auto* solve_cmd = app.add_subcommand("solve", "solve A x = b and write x");
  solve_cmd->add_option("A", solve.matrix, "matrix, Matrix Market (coordinate: general, symmetric or skew-symmetric; or a dense array)")->required();
  solve_cmd->add_option("--rhs", solve.rhs, "right-hand side(s), Matrix Market array or coordinate")->required();
  solve_cmd->add_option("--out", solve.out, "solution file, Matrix Market array (every digit)")->required();
  add_block_options(solve_cmd, solve.blocks);
  solve_cmd->add_option("--ordering", ordering, "auto|dfs|amd|nd")->check(enum_validator(&parse_ordering, "auto|dfs|amd|nd"));
  solve_cmd->add_option("--method", method, "ldu|ldlt|llt")->check(enum_validator(&parse_method, "ldu|ldlt|llt"));
  solve_cmd->add_option("--refine", solve.refine, "iterative refinement steps (default 0)")
      ->transform(cli_whole_number::whole_number(0));
  using cli_real_number::Sign;
  solve_cmd->add_option("--shift", solve.shift, "add EPS * identity to every diagonal block")
      ->transform(cli_real_number::real_number(Sign::any));
  solve_cmd->add_option(
      "--max-backward-error", solve.max_backward_error,
      "fail if ||Ax-b||/(||A|| ||x||+||b||) stays above TOL after refinement (default 1e-10; inf: never)")
      ->transform(cli_real_number::real_number(Sign::positive, cli_real_number::Infinity::allowed));
  solve_cmd->add_option("--repeat", solve.repeat, "refactorize and solve N times, report the fastest")
      ->transform(cli_whole_number::whole_number(1));
  solve_cmd->add_flag("--json", solve.json, "print the statistics as JSON on stdout");

  cli::InfoOptions info;
  auto* info_cmd = app.add_subcommand("info", "analysis statistics for every ordering");
  info_cmd->add_option("A", info.matrix, "matrix, Matrix Market (coordinate or a dense array)")->required();
  add_block_options(info_cmd, info.blocks);
  info_cmd->add_flag("--json", info.json, "print JSON on stdout");

  bool demo_json = false;
  auto* demo_cmd = app.add_subcommand("demo", "solve built-in chain, ladder, net, crystal and mechanism systems");
  demo_cmd->add_flag("--json", demo_json, "print JSON on stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << "graphsolve: error: " << graphsolve::cli_errors::explain_parse_error(app, error) << " (see graphsolve --help)\n";
    return 2;
  }
  try {
    const auto run = [&] {
      if (solve_cmd->parsed()) {
        solve.ordering = *parse_ordering(ordering);
        solve.method = *parse_method(method);
        return cli::run_solve(solve);
      }
      if (info_cmd->parsed()) return cli::run_info(info);
      return cli::run_demo(demo_json);
    };
    const int status = run();
    output_file::check_standard_output();
    return status;
  } catch (const graphsolve::OutOfMemory& error) {  // names what did not fit
    std::cerr << "graphsolve: error: " << error.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "graphsolve: error: out of memory: the system (or its factor) does not fit in this machine's memory\n";
    return 1;
  } catch (const std::exception& error) {
    std::cerr << "graphsolve: error: " << error.what() << "\n";
    return 1;
  }
}
