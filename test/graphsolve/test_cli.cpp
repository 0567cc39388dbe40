// The graphsolve command line program, run as a user would: exit codes,
// messages, and the solution it writes.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "graphsolve/families.hpp"
#include "address_sanitizer.hpp"
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
    using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
    const Sparse sparse = gs::to_sparse(a);
    gs::SparseTriplets t;
    t.rows = t.cols = static_cast<int>(sparse.rows());
    for (int j = 0; j < sparse.outerSize(); ++j)
      for (Sparse::InnerIterator it(sparse, j); it; ++it)
        if (it.value() != 0.0) t.entries.push_back({static_cast<int>(it.row()), j, it.value()});
    gs::write_matrix_market_sparse((dir_ / name).string(), t);
  }
  // Writes A.mtx: unsymmetric values (of `value_seed`) on `graph`; returns A.
  gs::BlockMatrix write_unsymmetric_matrix(const gs::Graph& graph, std::uint64_t value_seed = 1) {
    gs::BlockMatrix a(gs::analyze(graph));
    fam::fill_values(a, fam::Values::Unsymmetric, value_seed);
    write_matrix("A.mtx", a);
    return a;
  }
  // Writes A.mtx (unsymmetric values on `graph`) and b.mtx (`columns` random
  // columns); returns the solution dense LU gives.
  Eigen::MatrixXd write_unsymmetric_system(const gs::Graph& graph, int columns, unsigned rhs_seed) {
    const gs::BlockMatrix a = write_unsymmetric_matrix(graph, 4);
    const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), columns, rhs_seed);
    gs::write_matrix_market_dense((dir_ / "b.mtx").string(), b);
    return a.to_dense().partialPivLu().solve(b);
  }
  bool exists(const std::string& name) const { return fs::exists(dir_ / name); }
  Eigen::MatrixXd read(const std::string& name) const { return gs::read_matrix_market_dense((dir_ / name).string()); }
};

TEST_F(Cli, SolvesABlockSystemAndReportsJson) {
  const Eigen::MatrixXd reference = write_unsymmetric_system(fam::ladder(10, 3), 2, 9);
  for (const std::string ordering : {"auto", "dfs", "amd", "nd"}) {
    const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --block-size 3 --json --ordering " + ordering);
    ASSERT_EQ(r.code, 0) << r.err;
    const Eigen::MatrixXd x = read("x.mtx");
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

// --out where the path points: "-" is standard output, a symbolic link keeps
// pointing at the file it names (whose permissions stay), and a FIFO (as
// /dev/null or /dev/stdout, which a renamed temporary would replace with a
// regular file) is written in place.
TEST_F(Cli, SolutionGoesWhereTheOutPathPoints) {
  const Eigen::MatrixXd reference = write_unsymmetric_system(fam::chain(4, 2), 1, 3);

  CliResult r = run("solve A.mtx --rhs b.mtx --out - --block-size 2");
  ASSERT_EQ(r.code, 0) << r.err;
  write("stdout.mtx", r.out);
  EXPECT_LT((read("stdout.mtx") - reference).norm(), 1e-12 * reference.norm());
  EXPECT_NE(r.err.find("nodes=4"), std::string::npos) << r.err;  // the statistics stay on stderr

  link_to_private_file("link.mtx", "real.mtx");
  r = run("solve A.mtx --rhs b.mtx --out link.mtx --block-size 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.mtx"));
  EXPECT_LT((read("real.mtx") - reference).norm(), 1e-12 * reference.norm());
  EXPECT_EQ(fs::status(dir_ / "real.mtx").permissions() & fs::perms::all, kOwnerWriteGroupRead);

  std::string text;
  r = run_writing_to_fifo("solve A.mtx --rhs b.mtx --out pipe.mtx --block-size 2", "pipe.mtx", text);
  ASSERT_EQ(r.code, 0) << r.err;
  write("from_pipe.mtx", text);
  EXPECT_LT((read("from_pipe.mtx") - reference).norm(), 1e-12 * reference.norm());
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe.mtx"));
}

// A written as a dense array (SciPy's mmwrite of a NumPy array): its
// nonzeros make the graph, here a 2x2-block chain.
TEST_F(Cli, DenseArrayMatrixIsSolvedOnItsNonzeros) {
  const Eigen::MatrixXd reference = write_unsymmetric_system(fam::chain(3, 2), 1, 5);
  const Eigen::MatrixXd a = gs::read_matrix_market_dense((dir_ / "A.mtx").string());
  gs::write_matrix_market_dense((dir_ / "dense.mtx").string(), a);
  const CliResult r = run("solve dense.mtx --rhs b.mtx --out x.mtx --block-size 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT((read("x.mtx") - reference).norm(), 1e-12 * reference.norm());
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["nodes"], 3);
  EXPECT_EQ(report["edges"], 2);  // the zero blocks between the chain's ends make no edge
}

// Counts are decimal: "--block-size 010" is 10 (CLI11 alone read 8, which
// does not divide 20), with a sign or blanks around it as without.
TEST_F(Cli, CountsAreDecimal) {
  const Eigen::MatrixXd reference = write_unsymmetric_system(fam::chain(2, 10), 1, 3);
  for (const std::string size : {"010", "+10", "' 10 '"}) {
    const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --json --refine 01 --repeat 02 --block-size " + size);
    ASSERT_EQ(r.code, 0) << size << "\n" << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["nodes"], 2) << size;
    EXPECT_LT((read("x.mtx") - reference).norm(), 1e-12 * reference.norm());
  }
}

// Output to standard output that does not get there (a full disk) fails the
// run instead of passing unseen with exit status 0.
TEST_F(Cli, StandardOutputThatCannotBeWrittenFailsTheRun) {
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 2\n2 2 4\n");
  write("b.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n1\n");
  for (const char* args : {"solve A.mtx --rhs b.mtx --out x.mtx --json", "solve A.mtx --rhs b.mtx --out -",
                           "info A.mtx --json", "demo"}) {
    const CliResult r = run(args, "", "/dev/full");
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << args << ": " << r.err;
  }
}

TEST_F(Cli, SymmetricFileWithBlockFileLltRepeatAndRefinement) {
  write("A.mtx",
        "%%MatrixMarket matrix coordinate real symmetric\n4 4 6\n1 1 4\n2 2 5\n3 3 6\n4 4 7\n2 1 1\n4 3 -2\n");
  write("b.mtx", "%%MatrixMarket matrix coordinate real general\n4 2 3\n1 1 1\n4 1 2\n2 2 3\n");
  // Comments, whose numbers are not sizes: 3 nodes, not 5; a UTF-8 byte
  // order mark and Windows line ends, as some editors write them. Sizes are
  // decimal: a sign or a leading zero changes nothing ("01" is not octal).
  write("blocks.txt", "\xEF\xBB\xBF% 2 sizes of 1, then one of 2\r\n+1 01  # the scalar nodes: 7 7\r\n\r\n2%the pair\r\n");
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
  // ||A||_1 = 9 (the last column) and ||A^{-1}||_1 = 6/19 (the first): the
  // estimate is a lower bound on 54/19, within a factor of 3.
  const double condition = report["condition_estimate"].get<double>();
  EXPECT_LE(condition, 54.0 / 19.0 * (1.0 + 1e-14));
  EXPECT_GE(condition, 54.0 / 19.0 / 3.0);
  // det = (4 * 5 - 1) * (6 * 7 - 4) = 722; positive definite.
  EXPECT_EQ(report["determinant_sign"], 1);
  EXPECT_NEAR(report["log_abs_determinant"].get<double>(), std::log(722.0), 1e-13);
  EXPECT_EQ(report["inertia"]["positive"], 4);
  EXPECT_EQ(report["inertia"]["negative"], 0);
}

TEST_F(Cli, ReportsTheDeterminantAndTheInertiaOfAKktMatrix) {
  // [[H, J^T], [J, 0]] with H = diag(2, 3) and J = [1 1]: inertia (2, 1), det = -(2 + 3) = -5.
  write("A.mtx",
        "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n1 1 2\n2 2 3\n3 1 1\n3 2 1\n");
  write("b.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n0\n0\n");
  write("blocks.txt", "2 1\n");
  for (const std::string method : {"ldlt", "ldu"}) {
    SCOPED_TRACE(method);
    const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks.txt --json --method " + method);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto report = nlohmann::json::parse(r.out);
    EXPECT_EQ(report["determinant_sign"], -1);
    EXPECT_NEAR(report["log_abs_determinant"].get<double>(), std::log(5.0), 1e-14);
    EXPECT_NE(r.err.find("determinant_sign=-1"), std::string::npos) << r.err;
    if (method == "ldu") {
      EXPECT_FALSE(report.contains("inertia"));  // LDU makes no symmetry assumption
      continue;
    }
    EXPECT_EQ(report["inertia"]["positive"], 2);
    EXPECT_EQ(report["inertia"]["negative"], 1);
    EXPECT_NE(r.err.find("inertia=2,1"), std::string::npos) << r.err;
  }
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
  // Blanks around the number read as without (as in dynamics' options), and
  // an exponent far below the double range rounds the shift to zero.
  ASSERT_EQ(run("solve A.mtx --rhs b.mtx --out x.mtx --shift ' 2e0 '").code, 0);
  EXPECT_EQ(read("x.mtx"), x);
  const CliResult tiny = run("solve A.mtx --rhs b.mtx --out x.mtx --shift 1e-400");
  EXPECT_EQ(tiny.code, 1);
  EXPECT_NE(tiny.err.find("singular pivot block"), std::string::npos) << tiny.err;
}

// A tiny pivot eliminated first swamps the rest of its row: the factors solve
// a matrix off by O(1). Refinement repairs the solution, and one that
// refinement cannot repair is refused rather than written.
TEST_F(Cli, UnstableSolutionsAreRefinedOrRefused) {
  write("A.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 7\n1 1 1e-17\n1 2 1\n2 1 1\n2 2 1\n2 3 1\n3 2 1\n"
                 "3 3 1\n");
  write("b.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
  Eigen::Matrix3d dense;
  dense << 1e-17, 1, 0, 1, 1, 1, 0, 1, 1;
  const Eigen::Vector3d exact = dense.partialPivLu().solve(Eigen::Vector3d(1, 2, 3));
  // Unchecked (an infinite limit), AMD's order leaves x far from a solution.
  for (const char* unlimited : {"inf", "' Infinity '", "1e999"}) {
    const CliResult raw =
        run(std::string("solve A.mtx --rhs b.mtx --out x.mtx --ordering amd --json --max-backward-error ") + unlimited);
    ASSERT_EQ(raw.code, 0) << unlimited << ": " << raw.err;
    EXPECT_GT(nlohmann::json::parse(raw.out)["backward_error"].get<double>(), 1e-3);
    EXPECT_GT((read("x.mtx").col(0) - exact).norm(), 0.1);
  }
  // The default limit refines it to the exact solution, even with --refine 0.
  const CliResult refined = run("solve A.mtx --rhs b.mtx --out x.mtx --ordering amd --refine 0 --json");
  ASSERT_EQ(refined.code, 0) << refined.err;
  const auto report = nlohmann::json::parse(refined.out);
  EXPECT_TRUE(report["auto_refined"].get<bool>());
  EXPECT_LT(report["backward_error"].get<double>(), 1e-15);
  EXPECT_NE(refined.err.find("auto_refined=yes"), std::string::npos) << refined.err;
  EXPECT_LT((read("x.mtx").col(0) - exact).norm(), 1e-14);
  fs::remove(dir_ / "x.mtx");

  // Pivots of 1e-17 to 1e-5 on a 10x10 whose condition number is only 53
  // (from a seeded random sweep): refinement stalls near 1e-8.
  write("B.mtx", "%%MatrixMarket matrix coordinate real general\n10 10 31\n"
                 "1 1 1.282372518617257e-15\n1 2 -4.639166597234754e-01\n1 3 -2.442428631528274e-01\n"
                 "1 4 1.450039019314706e+00\n2 1 5.044334637116943e-01\n2 2 -6.818271757044262e-11\n"
                 "2 8 1.099912884177458e+00\n3 1 -1.442983140072137e+00\n3 3 -1.356972761567275e-02\n"
                 "3 5 -1.739896051718296e+00\n3 6 2.179435072440691e+00\n4 1 7.678397969974506e-02\n"
                 "4 4 -1.478982334398483e-16\n4 9 9.472953069626058e-01\n5 2 1.456010779989887e+00\n"
                 "5 3 1.292809329318993e+00\n5 5 1.224421937994825e-17\n6 3 -2.646343298784093e-01\n"
                 "6 6 -2.127617507416653e-17\n6 7 -1.180742342072444e+00\n7 6 -1.062710553971455e+00\n"
                 "7 7 -8.920392067017109e-05\n7 9 -2.635644145152028e+00\n8 2 2.080946145763920e+00\n"
                 "8 8 6.240488815786058e-14\n8 10 1.416765122073982e+00\n9 7 -6.032297771000410e-01\n"
                 "9 9 5.994766545343229e-06\n10 6 1.500407617368629e-01\n10 8 -3.246729525731715e-01\n"
                 "10 10 -3.459794125749582e-06\n");
  const std::vector<double> rhs_values = {1.2496103985765183,   0.38548250733402312, 0.60890152870733061,
                                           -0.41663124217101039, -0.2808348948718552,  -0.68146280966036432,
                                           0.023198270584034775, -0.058366722111682451, -0.34731673824313264,
                                           -2.2366247632655645};
  const Eigen::VectorXd rhs = Eigen::Map<const Eigen::VectorXd>(rhs_values.data(), 10);
  gs::write_matrix_market_dense((dir_ / "c.mtx").string(), rhs);
  const CliResult refused = run("solve B.mtx --rhs c.mtx --out x.mtx --refine 20");
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.err.find("graphsolve: error: the solution's backward error"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("at most 20 rounds), above --max-backward-error 1e-10"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("try larger nodes (--block-size"), std::string::npos) << refused.err;
  EXPECT_FALSE(exists("x.mtx"));
  // One node of 10 rows pivots across all of them: the remedy the message names.
  const CliResult one_node = run("solve B.mtx --rhs c.mtx --out x.mtx --block-size 10");
  ASSERT_EQ(one_node.code, 0) << one_node.err;
  const gs::SparseTriplets triplets = gs::read_matrix_market_sparse((dir_ / "B.mtx").string());
  Eigen::MatrixXd matrix = Eigen::MatrixXd::Zero(10, 10);
  for (const gs::Triplet& t : triplets.entries) matrix(t.row, t.col) = t.value;
  const Eigen::VectorXd solution = matrix.partialPivLu().solve(rhs);
  EXPECT_LT((read("x.mtx").col(0) - solution).norm() / solution.norm(), 1e-13);
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
  write_unsymmetric_matrix(fam::net(4, 2));
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

// Where Auto takes another METIS seed than nd's (docs/design.md), info says
// what its own order costs: the 8^3 crystal of 6x6 blocks.
TEST_F(Cli, InfoGivesAutosOwnFlops) {
  const gs::Graph g = fam::crystal(8, 6);
  write_unsymmetric_matrix(g);
  const gs::Symbolic chosen = gs::analyze(g);
  const CliResult r = run("info A.mtx --block-size 6 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["auto"], "nd");
  EXPECT_DOUBLE_EQ(report["auto_flops"].get<double>(), chosen.stats().flops);
  EXPECT_EQ(report["auto_factor_nonzeros"].get<long>(), chosen.stats().factor_nonzeros);
  EXPECT_LT(report["auto_flops"].get<double>(), report["orderings"]["nd"]["flops"].get<double>());
  const CliResult text = run("info A.mtx --block-size 6");
  EXPECT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("auto chooses nd (fill_blocks="), std::string::npos) << text.out;
}

TEST_F(Cli, DemoRunsTheBuiltInSystems) {
  const CliResult r = run("demo");
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* name : {"chain", "ladder", "net", "crystal", "mechanism"}) EXPECT_NE(r.out.find(name), std::string::npos);
}

// Two 10000-row blocks: a matrix of 1.6 GB, which a process capped at 1 GB
// of address space cannot hold (nor the factor, at twice that).
TEST_F(Cli, SystemsThatDoNotFitInMemoryNameWhatDidNotFit) {
#ifdef GS_TEST_ASAN
  GTEST_SKIP() << "AddressSanitizer ends the process on a failed operator new instead of throwing";
#endif
  const int n = 20000;
  std::string a = "%%MatrixMarket matrix coordinate real general\n20000 20000 20000\n";
  std::string b = "%%MatrixMarket matrix array real general\n20000 1\n";
  for (int i = 1; i <= n; ++i) {
    a += std::to_string(i) + " " + std::to_string(i) + " 2\n";
    b += "1\n";
  }
  write("A.mtx", a);
  write("b.mtx", b);
  const CliResult r = run("solve A.mtx --rhs b.mtx --out x.mtx --block-size 10000", "ulimit -v 1000000");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("graphsolve: error: graphsolve::BlockMatrix: out of memory for the matrix's 200000000 values "
                       "(1.6 GB)"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(exists("x.mtx"));
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
  write("blocks_bad.txt", "1 # one\n two\n");
  write("blocks_negative.txt", "1 -1 3\n");
  write("blocks_too_large.txt", "4\n");
  write("blocks_past_long.txt", "1 99999999999999999999\n");
  write("blocks_hex.txt", "0x1 2\n");
  write("blocks_gz.txt", std::string("\x1f\x8b\x08\0\x01\n", 6));
  write("blocks_nul.txt", std::string("1\n2\0 7\n", 7));
  write("blocks_bytes.txt", "1 \x01\xfe\n");
  fs::create_directory(dir_ / "outdir");  // a solution cannot replace a directory
  write("outdir/keep", "");
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
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_bad.txt", "blocks_bad.txt:2: block size #2 is 'two', expected a non-negative integer", 1},
      // Files that are no text say so; bytes a terminal cannot show are escaped.
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_gz.txt",
       "blocks_gz.txt: compressed with gzip, not a text file of block sizes: decompress it first (gunzip -k", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_nul.txt",
       "blocks_nul.txt:2: a NUL byte at column 2: binary data, not a text file of block sizes", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_bytes.txt",
       "blocks_bytes.txt:1: block size #2 is '\\x01\\xfe', expected a non-negative integer", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_negative.txt", "blocks_negative.txt:1: block size #2 is '-1', expected a non-negative integer", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_too_large.txt", "blocks_too_large.txt:1: block size #1 is '4', larger than the dimension 3 of A", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_past_long.txt",
       "blocks_past_long.txt:1: block size #2 is '99999999999999999999', larger than the dimension 3 of A", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks blocks_hex.txt",
       "blocks_hex.txt:1: block size #1 is '0x1', expected a non-negative integer", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --blocks nowhere.txt", "nowhere.txt: cannot open", 1},
      {"solve sing.mtx --rhs b.mtx --out x.mtx --ordering dfs", "singular pivot block at node", 1},
      {"solve empty_row.mtx --rhs b.mtx --out x.mtx", "empty_row.mtx: row 3 of A stores no entry", 1},
      {"solve empty_col.mtx --rhs b.mtx --out x.mtx", "empty_col.mtx: column 3 of A stores no entry", 1},
      {"solve huge.mtx --rhs b.mtx --out x.mtx", "stores only 1 entry, so some row has none", 1},
      {"info huge.mtx", "stores only 1 entry, so some row has none", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --method llt", "needs a symmetric matrix: A(1,2) = 1 but A(2,1) = 0", 1},
      {"solve A.mtx --rhs b.mtx --out x.mtx --ordering best", "'best' is not one of auto|dfs|amd|nd", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --refine -1", "--refine: must be zero or positive, got -1", 2},
      // Counts are decimal and in range (CLI11 alone read 0x3 as 3 and saturated past long).
      {"solve A.mtx --rhs b.mtx --out x.mtx --block-size 0x3", "--block-size: '0x3' is not a whole number", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --block-size 0", "--block-size: must be positive, got 0", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --repeat 3000000000", "--repeat: must be at most 2147483647", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --refine 2.5", "--refine: '2.5' is not a whole number", 2},
      // Real numbers are decimal and finite (CLI11 alone read 0x1p-1 as 0.5 and 1e400 as Inf).
      {"solve A.mtx --rhs b.mtx --out x.mtx --shift 0x1p-1", "--shift: '0x1p-1' is not a number", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --shift 1,5", "--shift: '1,5' is not a number", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --shift 1e400", "--shift: must be finite, got 1e400", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --shift -inf", "--shift: must be finite, got -inf", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --max-backward-error 0",
       "--max-backward-error: must be positive, got 0", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --max-backward-error 1e-400",
       "--max-backward-error: must be positive, got 1e-400", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --max-backward-error -inf",
       "--max-backward-error: must be positive, got -inf", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --max-backward-error nan",
       "--max-backward-error: 'nan' is not a number", 2},
      {"solve A.mtx --rhs b.mtx", "--out is required", 2},
      {"solve A.mtx --rhs b.mtx --out nodir/x.mtx", "--out nodir/x.mtx: cannot write: No such file or directory", 1},
      {"solve A.mtx --rhs b.mtx --out outdir", "--out outdir: cannot write: Is a directory", 1},
      {"solve A.mtx --rhs b.mtx --out - --json", "--out - and --json both write to standard output", 1},
      // The solution never replaces an input, however the path is spelt.
      {"solve A.mtx --rhs b.mtx --out ./A.mtx", "--out ./A.mtx is the matrix A; write the solution to another file", 1},
      {"solve A.mtx --rhs b.mtx --out b.mtx", "--out b.mtx is the right-hand side (--rhs)", 1},
      {"solve A.mtx --rhs b.mtx --blocks blocks.txt --out blocks.txt", "--out blocks.txt is the block sizes (--blocks)", 1},
      // Mistyped words get the nearest command or option; a repeated option says so.
      {"frobnicate", "unknown command 'frobnicate'; the commands are solve, info, demo", 2},
      {"slove A.mtx", "unknown command 'slove' (did you mean solve?)", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --methd ldu", "unknown option --methd (did you mean --method?)", 2},
      {"solve A.mtx --rhs b.mtx --out x.mtx --refine 1 --refine=2", "--refine is given 2 times; give it once", 2},
      {"solve A.mtx B.mtx --rhs b.mtx --out x.mtx", "unexpected argument: 'B.mtx'", 2},
      {"solve A.mtx --out x.mtx --rhs", "--rhs needs a value (TEXT)", 2},
  };
  const std::string matrix_before = slurp(dir_ / "A.mtx"), rhs_before = slurp(dir_ / "b.mtx");
  for (const Case& c : cases) {
    const CliResult r = run(c.args);
    EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\nstderr: " << r.err;
    EXPECT_NE(r.err.find("graphsolve: error:"), std::string::npos) << r.err;
    EXPECT_FALSE(exists("x.mtx")) << c.args;
  }
  for (const auto& entry : fs::directory_iterator(dir_))  // no temporary is left behind
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
  EXPECT_EQ(slurp(dir_ / "A.mtx"), matrix_before);
  EXPECT_EQ(slurp(dir_ / "b.mtx"), rhs_before);
}

}  // namespace
