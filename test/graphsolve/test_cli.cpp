// The graphsolve command line program, run as a user would: exit codes,
// messages, and the solution it writes.
#include <gtest/gtest.h>

#include <filesystem>

#include <nlohmann/json.hpp>

#include "graphsolve/families.hpp"
#include "cli_fixture.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fam = graphsolve::families;
namespace fs = std::filesystem;

namespace {

class Cli : public CliFixture {
 protected:
  Cli() : CliFixture(GRAPHSOLVE_CLI, "gs_cli_") {}
  // Writes A (all stored blocks) as a general coordinate file.
  void write_matrix(const std::string& name, const gs::BlockMatrix& a) {
    const Eigen::MatrixXd dense = a.to_dense();
    gs::SparseTriplets t;
    t.rows = t.cols = static_cast<int>(dense.rows());
    for (int j = 0; j < dense.cols(); ++j)
      for (int i = 0; i < dense.rows(); ++i)
        if (dense(i, j) != 0.0) t.entries.push_back({i, j, dense(i, j)});
    gs::write_matrix_market_sparse((dir_ / name).string(), t);
  }
  bool exists(const std::string& name) const { return fs::exists(dir_ / name); }
  Eigen::MatrixXd read(const std::string& name) const { return gs::read_matrix_market_dense((dir_ / name).string()); }
};

}  // namespace

TEST_F(Cli, SolvesABlockSystemAndReportsJson) {
  const gs::Symbolic sym = gs::analyze(fam::ladder(10, 3));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 4);
  write_matrix("A.mtx", a);
  const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 2, 9);
  gs::write_matrix_market_dense((dir_ / "b.mtx").string(), b);
  for (const std::string ordering : {"auto", "dfs", "amd", "nd"}) {
    const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --block-size 3 --json --ordering " + ordering);
    ASSERT_EQ(r.code, 0) << r.err;
    const Eigen::MatrixXd x = read("x.mtx");
    const Eigen::MatrixXd reference = a.to_dense().partialPivLu().solve(b);
    EXPECT_LT((x - reference).norm() / reference.norm(), 1e-10);
    const auto report = nlohmann::json::parse(r.out);
    for (const char* key : {"nodes", "edges", "components", "cycle_rank", "ordering", "method", "fill_blocks",
                            "relaxed_blocks", "flops", "analyze_seconds", "factorize_seconds", "solve_seconds", "residual"})
      EXPECT_TRUE(report.contains(key)) << key;
    EXPECT_EQ(report["nodes"], 20);
    EXPECT_EQ(report["edges"], 28);
    EXPECT_EQ(report["cycle_rank"], 9);
    EXPECT_LT(report["residual"].get<double>(), 1e-12);
    if (ordering != "auto") {
      EXPECT_EQ(report["ordering"], ordering);
    }
    EXPECT_NE(r.err.find("nodes=20 edges=28"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("residual="), std::string::npos);
  }
}

TEST_F(Cli, SymmetricFileWithBlockFileLltRepeatAndRefinement) {
  write("A.mtx",
        "%%MatrixMarket matrix coordinate real symmetric\n4 4 6\n1 1 4\n2 2 5\n3 3 6\n4 4 7\n2 1 1\n4 3 -2\n");
  write("b.mtx", "%%MatrixMarket matrix coordinate real general\n4 2 3\n1 1 1\n4 1 2\n2 2 3\n");
  write("blocks.txt", "1 1\n2\n");
  const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks.txt --method llt --repeat 3 --refine 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  Eigen::Matrix4d dense;
  dense << 4, 1, 0, 0, 1, 5, 0, 0, 0, 0, 6, -2, 0, 0, -2, 7;
  Eigen::MatrixXd b = Eigen::MatrixXd::Zero(4, 2);
  b(0, 0) = 1;
  b(3, 0) = 2;
  b(1, 1) = 3;
  EXPECT_LT((read("x.mtx") - dense.llt().solve(b)).norm(), 1e-14);
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["method"], "llt");
  EXPECT_EQ(report["repeat"], 3);
  EXPECT_EQ(report["nodes"], 3);
}

TEST_F(Cli, ShiftSolvesTheShiftedSystem) {
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 1\n");  // zero diagonal
  write("b.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n0\n");
  // A + I = [[1, 1], [1, 1]] is singular; A + 2 I = [[2, 1], [1, 2]] is not.
  const CliResult singular = run("solve A.mtx --rhs b.mtx --out x.mtx --shift 1");
  EXPECT_EQ(singular.code, 1);
  EXPECT_NE(singular.err.find("singular pivot block"), std::string::npos) << singular.err;
  ASSERT_EQ(run("solve A.mtx --rhs b.mtx --out x.mtx --shift 2").code, 0);
  const Eigen::MatrixXd x = read("x.mtx");
  EXPECT_NEAR(x(0, 0), 2.0 / 3.0, 1e-15);
  EXPECT_NEAR(x(1, 0), -1.0 / 3.0, 1e-15);
}

// [[0, 1], [1, 0]] is nonsingular but has no pivot in 1x1 nodes: the error
// says so, and one 2x2 node (pivoting inside it) solves it.
TEST_F(Cli, RowsThatMustExchangeGoInOneNode) {
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 2 1\n2 1 1\n");
  write("b.mtx", "%%MatrixMarket matrix array real general\n2 1\n3\n5\n");
  const CliResult split = run("solve A.mtx --rhs b.mtx --out x.mtx");
  EXPECT_EQ(split.code, 1);
  EXPECT_NE(split.err.find("need row exchanges between nodes"), std::string::npos) << split.err;
  EXPECT_FALSE(exists("x.mtx"));
  const CliResult joined = run("solve A.mtx --rhs b.mtx --out x.mtx --block-size 2");
  ASSERT_EQ(joined.code, 0) << joined.err;
  const Eigen::MatrixXd x = read("x.mtx");
  EXPECT_EQ(x(0, 0), 5.0);
  EXPECT_EQ(x(1, 0), 3.0);
}

TEST_F(Cli, InfoListsEveryOrdering) {
  const gs::Symbolic sym = gs::analyze(fam::net(4, 2));
  gs::BlockMatrix a(sym);
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  write_matrix("A.mtx", a);
  const CliResult r = run("info A.mtx --block-size 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["nodes"], 16);
  EXPECT_EQ(report["cycle_rank"], 9);
  for (const char* o : {"dfs", "amd", "nd"}) EXPECT_TRUE(report["orderings"].contains(o)) << o;
  EXPECT_TRUE(report.contains("auto"));
  const CliResult text = run("info A.mtx --block-size 2");
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("auto chooses"), std::string::npos);
}

TEST_F(Cli, DemoRunsTheBuiltInSystems) {
  const CliResult r = run("demo");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"chain", "ladder", "net", "crystal", "mechanism"}) EXPECT_NE(r.out.find(name), std::string::npos);
}

TEST_F(Cli, BadInputsFailWithAClearMessageAndNoOutput) {
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 4\n2 2 5\n3 3 6\n1 2 1\n");
  write("b.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
  write("b2.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n");
  write("bhuge.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 1 1\n1 1 1\n");
  write("bnan.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\nnan\n3\n");
  // With --shift -4.5 the second pivot is 0.5: x(2) = 2e308 overflows.
  write("bmax.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n1e308\n3\n");
  write("rect.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 4\n");
  write("bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 4\n2 x 5\n");
  write("nan.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 NaN\n");
  write("sing.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 1\n1 2 1\n2 1 1\n2 2 1\n3 3 1\n");
  write("empty_row.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n2 3 1\n");
  write("empty_col.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n3 2 1\n");
  // Two billion rows but one entry: rejected before any per-row storage exists.
  write("huge.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n");
  write("blocks.txt", "1 1\n");
  write("blocks_bad.txt", "1 two\n");
  struct Case {
    std::string args, message;
    int code;
  };
  const std::vector<Case> cases = {
      {"solve missing.mtx --rhs b.mtx --out x.mtx", "missing.mtx: cannot open file", 1},
      {"solve bad.mtx --rhs b.mtx --out x.mtx", "bad.mtx:4: expected an integer for the column index", 1},
      {"solve nan.mtx --rhs b.mtx --out x.mtx", "nan.mtx:3: non-finite value", 1},
      {"solve rect.mtx --rhs b.mtx --out x.mtx", "A is 3x2, expected a square matrix", 1},
      {"solve A.mtx --rhs b2.mtx --out x.mtx", "b2.mtx:2: the matrix has 2 rows, expected 3", 1},
      // Checked at the size line: two billion rows with one entry are never allocated.
      {"solve A.mtx --rhs bhuge.mtx --out x.mtx", "bhuge.mtx:2: the matrix has 2000000000 rows, expected 3", 1},
      {"solve A.mtx --rhs bnan.mtx --out x.mtx", "bnan.mtx:4: non-finite value", 1},
      {"solve A.mtx --rhs bmax.mtx --out x.mtx --shift -4.5", "solve failed: the solution overflowed (NaN or Inf)", 1},
      {"solve A.mtx --rhs missing.mtx --out x.mtx", "missing.mtx: cannot open file", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --block-size 2", "--block-size 2 does not divide the dimension 3", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks.txt", "block sizes sum to 2 but A has dimension 3", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_bad.txt", "block size #2 is 'two'", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks nowhere.txt", "nowhere.txt: cannot open", 1},
      {"solve sing.mtx --rhs b.mtx --out x.mtx --ordering dfs", "singular pivot block at node", 1},
      {"solve empty_row.mtx --rhs b.mtx --out x.mtx", "empty_row.mtx: row 3 of A stores no entry", 1},
      {"solve empty_col.mtx --rhs b.mtx --out x.mtx", "empty_col.mtx: column 3 of A stores no entry", 1},
      {"solve huge.mtx --rhs b.mtx --out x.mtx", "stores only 1 entry, so some row has none", 1},
      {"info huge.mtx", "stores only 1 entry, so some row has none", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --method llt", "needs a symmetric matrix: A(1,2) = 1 but A(2,1) = 0", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --ordering best", "'best' is not one of auto|dfs|amd|nd", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --refine -1", "--refine must be >= 0", 1},
      {"solve A.mtx --rhs b.mtx", "--out is required", 2},
      {"solve A.mtx --rhs b.mtx --out nodir/x.mtx", "nodir/x.mtx.tmp: cannot open file for writing", 1},
      {"frobnicate", "A subcommand is required", 2},
  };
  for (const Case& c : cases) {
    const CliResult r = run(c.args);
    EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find("graphsolve: error:"), std::string::npos) << r.err;
    EXPECT_FALSE(exists("x.mtx")) << c.args;
  }
}
