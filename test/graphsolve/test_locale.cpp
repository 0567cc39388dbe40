// Matrix Market files are read and written with decimal points even when the
// program runs under a decimal-comma locale.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "comma_locale.hpp"
#include "graphsolve/matrix_market.hpp"

namespace gs = graphsolve;

TEST(Locale, MatrixMarketIgnoresTheProgramsDecimalComma) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gs-locale-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string matrix_path = (dir / "a.mtx").string(), vector_path = (dir / "x.mtx").string();
  std::ofstream(matrix_path) << "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.5\n2 2 -0.25\n1 2 2.5e-3\n";
  const gs_test::CommaLocale comma;

  const gs::SparseTriplets a = gs::read_matrix_market_sparse(matrix_path);
  ASSERT_EQ(a.entries.size(), 3u);
  EXPECT_EQ(a.entries[0].value, 1.5);
  EXPECT_EQ(a.entries[1].value, -0.25);
  EXPECT_EQ(a.entries[2].value, 2.5e-3);

  Eigen::MatrixXd x(3, 1);
  x << 0.1, -1.25, 1e-300;
  gs::write_matrix_market_dense(vector_path, x);
  std::ifstream written(vector_path);
  const std::string text((std::istreambuf_iterator<char>(written)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text.find(','), std::string::npos) << text;
  EXPECT_NE(text.find("-1.25\n"), std::string::npos) << text;
  EXPECT_EQ(gs::read_matrix_market_dense(vector_path), x);  // %.17g round-trips exactly
  std::filesystem::remove_all(dir);
}
