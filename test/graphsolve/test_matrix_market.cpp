// Matrix Market reading and writing, including every malformed-file error.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <unistd.h>

#include "comma_locale.hpp"
#include "file_text.hpp"
#include "graphsolve/matrix_market.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;
namespace fs = std::filesystem;

namespace {

class MatrixMarket : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gs_mm_" + std::to_string(::getpid()) +
                                        "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path) << text;
    return path;
  }
  std::string error_of_sparse(const std::string& text) {
    const std::string path = write("bad.mtx", text);
    return gs_test::message_of<gs::MatrixMarketError>([&] { gs::read_matrix_market_sparse(path); });
  }
  // The error reading `text` as an array file `name`, with `rows` expected.
  std::string error_of_dense(const std::string& name, const std::string& text, long rows = -1) {
    const std::string path = write(name, text);
    return gs_test::message_of<gs::MatrixMarketError>([&] { gs::read_matrix_market_dense(path, rows); });
  }
  fs::path dir_;
};

TEST_F(MatrixMarket, ReadsGeneralAndSymmetricCoordinateFiles) {
  const auto general = gs::read_matrix_market_sparse(
      write("g.mtx", "%%MatrixMarket matrix coordinate real general\n% comment\n\n2 3 3\n1 1 1.5\n2 3 -2\n1 3 4e1\n"));
  EXPECT_EQ(general.rows, 2);
  EXPECT_EQ(general.cols, 3);
  ASSERT_EQ(general.entries.size(), 3u);
  EXPECT_EQ(general.entries[2].row, 0);
  EXPECT_EQ(general.entries[2].col, 2);
  EXPECT_EQ(general.entries[2].value, 40.0);
  const auto symmetric = gs::read_matrix_market_sparse(
      write("s.mtx", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 2\n1 1 2\n3 1 5\n"));
  EXPECT_TRUE(symmetric.symmetric);
  ASSERT_EQ(symmetric.entries.size(), 3u);  // the off-diagonal entry is mirrored
  EXPECT_EQ(symmetric.entries[2].row, 0);
  EXPECT_EQ(symmetric.entries[2].col, 2);
  EXPECT_EQ(symmetric.entries[2].value, 5.0);
  // The upper triangle alone is read as the transpose of the lower.
  const auto upper = gs::read_matrix_market_sparse(
      write("u.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 3 5\n2 2 1\n2 3 7\n"));
  Eigen::MatrixXd full = Eigen::MatrixXd::Zero(3, 3);
  for (const gs::Triplet& t : upper.entries) full(t.row, t.col) += t.value;
  Eigen::MatrixXd expected(3, 3);
  expected << 0, 0, 5, 0, 1, 7, 5, 7, 0;
  EXPECT_EQ(full, expected);
}

TEST_F(MatrixMarket, DenseRoundTripKeepsEveryDigit) {
  Eigen::MatrixXd m(3, 2);
  m << 1.0 / 3.0, -2e-300, 1e300, 0.1, -0.0, 123456789.123456789;
  const std::string path = (dir_ / "x.mtx").string();
  gs::write_matrix_market_dense(path, m);
  const Eigen::MatrixXd back = gs::read_matrix_market_dense(path);
  EXPECT_EQ(back, m);
  // In the shortest text that reads back exactly.
  EXPECT_EQ(file_text(path), "%%MatrixMarket matrix array real general\n3 2\n0.3333333333333333\n1e+300\n-0\n"
                  "-2e-300\n0.1\n123456789.12345679\n");
  // A file that cannot be opened says why.
  const std::string unwritable = gs_test::message_of<gs::MatrixMarketError>(
      [&] { gs::write_matrix_market_dense((dir_ / "nodir" / "x.mtx").string(), m); });
  EXPECT_NE(unwritable.find("cannot open file for writing: No such file or directory"), std::string::npos)
      << unwritable;
  const Eigen::MatrixXd from_coordinate = gs::read_matrix_market_dense(
      write("c.mtx", "%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n3 2 7\n"));
  EXPECT_EQ(from_coordinate(0, 0), 1.0);
  EXPECT_EQ(from_coordinate(2, 1), 7.0);
  EXPECT_EQ(from_coordinate(1, 1), 0.0);
  const Eigen::MatrixXd symmetric_array = gs::read_matrix_market_dense(
      write("sa.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n"));
  EXPECT_EQ(symmetric_array(0, 1), 2.0);
  EXPECT_EQ(symmetric_array(1, 0), 2.0);
  EXPECT_EQ(symmetric_array(1, 1), 3.0);
}

// An array file (SciPy's mmwrite writes an ndarray so) read as sparse: its
// nonzeros, column by column, with a symmetric array's mirrored.
TEST_F(MatrixMarket, ArrayFilesReadAsSparseGiveTheirNonzeros) {
  const gs::SparseTriplets general =
      gs::read_matrix_market_sparse(write("g.mtx", "%%MatrixMarket matrix array real general\n2 3\n1\n0\n0\n-2\n3.5\n0\n"));
  EXPECT_EQ(general.rows, 2);
  EXPECT_EQ(general.cols, 3);
  EXPECT_FALSE(general.symmetric);
  ASSERT_EQ(general.entries.size(), 3u);
  const std::vector<std::array<double, 3>> expected = {{0, 0, 1}, {1, 1, -2}, {0, 2, 3.5}};
  for (std::size_t k = 0; k < expected.size(); ++k) {
    EXPECT_EQ(general.entries[k].row, expected[k][0]) << k;
    EXPECT_EQ(general.entries[k].col, expected[k][1]) << k;
    EXPECT_EQ(general.entries[k].value, expected[k][2]) << k;
  }
  // Lower triangle by columns: (1,1) 4, (2,1) 1, (2,2) 0.
  const gs::SparseTriplets symmetric =
      gs::read_matrix_market_sparse(write("s.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n4\n1\n0\n"));
  EXPECT_TRUE(symmetric.symmetric);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(2, 2);
  for (const gs::Triplet& t : symmetric.entries) dense(t.row, t.col) += t.value;
  EXPECT_EQ(dense, gs::read_matrix_market_dense((dir_ / "s.mtx").string()));
  EXPECT_EQ(dense(0, 1), 1.0);
  const gs::SparseTriplets skew =
      gs::read_matrix_market_sparse(write("k.mtx", "%%MatrixMarket matrix array real skew-symmetric\n2 2\n3\n"));
  ASSERT_EQ(skew.entries.size(), 2u);
  EXPECT_EQ(skew.entries[0].value, 3.0);
  EXPECT_EQ(skew.entries[1].value, -3.0);
  EXPECT_EQ(skew.entries[1].row, 0);
}

TEST_F(MatrixMarket, SparseWriteReadsBack) {
  gs::SparseTriplets t;
  t.rows = t.cols = 2;
  t.entries = {{0, 0, 0.1}, {1, 0, -3.0}};
  const std::string path = (dir_ / "w.mtx").string();
  gs::write_matrix_market_sparse(path, t);
  const auto back = gs::read_matrix_market_sparse(path);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].value, 0.1);
  EXPECT_EQ(back.entries[1].row, 1);
  EXPECT_EQ(file_text(path), "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 0.1\n2 1 -3\n");
}

// Some editors write a UTF-8 byte order mark first; the header follows it.
TEST_F(MatrixMarket, ByteOrderMarkBeforeTheHeaderIsSkipped) {
  const std::string path = (dir_ / "bom.mtx").string();
  std::ofstream(path) << "\xEF\xBB\xBF%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 -3.5\n";
  const auto a = gs::read_matrix_market_sparse(path);
  ASSERT_EQ(a.entries.size(), 1u);
  EXPECT_EQ(a.entries[0].row, 1);
  EXPECT_EQ(a.entries[0].col, 0);
  EXPECT_EQ(a.entries[0].value, -3.5);
}

// Every decimal form strtod takes reads as strtod reads it, to the bit: signs,
// no digits before or after the point, exponents of either case, subnormals,
// and numbers too close to zero, which round to (signed) zero.
TEST_F(MatrixMarket, DecimalNumbersReadAsStrtodReadsThem) {
  const std::vector<std::string> values = {"+1.5",   "-0",       ".5",     "1.",        "1E3",   "-2.5e-3", "4.9e-324",
                                           "1e-310", "-1e-400",  "1e-400", "0.1",       "00012", "+.25E+2",
                                           "1.7976931348623157e308", "123456789012345678901234567890"};
  std::string text = "%%MatrixMarket matrix coordinate real general\n" + std::to_string(values.size()) + " 1 " +
                     std::to_string(values.size()) + "\n";
  for (std::size_t k = 0; k < values.size(); ++k)
    text += (k % 2 ? "+" : "0") + std::to_string(k + 1) + " \t1  " + values[k] + " \r\n";
  const gs::SparseTriplets m = gs::read_matrix_market_sparse(write("forms.mtx", text));
  ASSERT_EQ(m.entries.size(), values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    EXPECT_EQ(m.entries[k].row, static_cast<int>(k)) << values[k];
    const double expected = std::strtod(values[k].c_str(), nullptr);
    EXPECT_EQ(std::memcmp(&m.entries[k].value, &expected, sizeof expected), 0)
        << values[k] << ": " << m.entries[k].value << " against " << expected;
  }
  // An index past the range of a long is no integer.
  EXPECT_NE(gs_test::message_of<gs::MatrixMarketError>([&] {
              gs::read_matrix_market_sparse(
                  write("big.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n99999999999999999999 1 1\n"));
            }).find(":3: expected an integer for the row index"),
            std::string::npos);
}

TEST_F(MatrixMarket, MalformedFilesNameTheFileAndLine) {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n";
  struct Bad {
    std::string text, expected;
  };
  const std::vector<Bad> cases = {
      {"", "empty file"},
      {"hello\n", ":1: expected the header"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", ":1: unsupported field 'complex'"},
      {"%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", ":1: unsupported field 'pattern'"},
      {"%%MatrixMarket matrix coordinate real hermitian\n1 1 1\n1 1 1\n", ":1: unsupported symmetry 'hermitian'"},
      {"%%MatrixMarket vector coordinate real general\n", ":1: unsupported object 'vector'"},
      {"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", "file ends before all 4 array values were read"},
      {h, ": missing the size line"},
      {h + "2 x 1\n", ":2: expected an integer for the number of columns"},
      {h + "2 2 -1\n", ":2: negative size"},
      {h + "2 2 2\n1 1 1\n", "file ends after 1 entries, the size line announced 2"},
      {h + "2 2 1\n1 1 1\n2 2 2\n", ":4: more entries than the 1 the size line announced"},
      {h + "2 2 1\n3 1 1\n", ":3: entry (3, 1) is outside the 2x2 matrix"},
      {h + "2 2 1\n1 0 1\n", ":3: entry (1, 0) is outside"},
      {h + "2 2 1\n1 1 abc\n", ":3: expected a number for the value"},
      {h + "2 2 1\n1 1 0x10\n", ":3: expected a decimal number for the value, found '0x10'"},
      {h + "2 2 1\n1 1 nan\n", ":3: non-finite value (NaN or Inf)"},
      {h + "2 2 1\n1 1 inf\n", ":3: non-finite value"},
      {h + "2 2 1\n1 1 -1e999\n", ":3: number '-1e999' for the value is beyond the range of a double"},
      {h + "2 2 1\n1 1 1 9\n", ":3: unexpected text '9'"},
      {h + "2 2 1\n1.5 1 1\n", ":3: expected an integer for the row index"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", "a symmetric matrix must be square"},
      // A full matrix labelled symmetric would have its off-diagonal doubled.
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 1\n1 1 4\n1 2 1\n",
       ":5: entry (1, 2) is in the upper triangle but (2, 1) is in the lower"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n1 3 1\n3 2 1\n",
       ":4: entry (3, 2) is in the lower triangle but (1, 3) is in the upper"},
      // A size line that announces more entries than the file's bytes can
      // hold fails before anything is allocated for them.
      {h + "2 2 99999999\n1 1 1\n", ":2: the size line announces 99999999 entries, more than the"},
      // Compressed files are named as such, not echoed as text.
      {std::string("\x1f\x8b\x08\x08junk\n", 9),
       ": compressed with gzip, not Matrix Market text: decompress it first (gunzip -k "},
      {std::string("\xfd" "7zXZ\0\0junk", 11), ": compressed with xz, not"},
      {"PK\x03\x04junk\n", ": compressed with zip, not"},
      {"m.mtx" + std::string(252, '\0') + "ustar\0" + std::string(250, '\0'),
       ": a tar archive, not Matrix Market text: extract the file from it first (tar xf "},
      // UTF-16 text (a Windows editor's "Unicode"), with or without its byte order mark.
      {std::string("\xff\xfe%\0%\0M\0", 8), ": UTF-16 text, not Matrix Market text in UTF-8: convert it first (iconv"},
      {std::string("%\0%\0M\0a\0", 8), ": UTF-16 text"},
      // A NUL byte ends what the parser reads of a line: refused, not cut.
      {std::string("%%MatrixMarket\0 matrix\n", 23), ": binary data (a NUL byte at offset 14), not Matrix Market"},
      {h + std::string("2 2 1\n1 1 1\0 5\n", 15), ":3: a NUL byte at column 6: binary data"},
      {h + std::string("2 2 1\n% note\0\n1 1 1\n", 20), ":3: a NUL byte at column 7"},
      {h + "2 2 1\n1 1 1 \xff\x01\n", ":3: unexpected text '\\xff\\x01' at the end of the line"},
      // Other bytes a terminal cannot show are escaped, and a long line cut.
      {"\x01\xff" + std::string(100, 'a') + "\n",
       ":1: expected the header '%%MatrixMarket matrix ...', found '\\x01\\xff" + std::string(72, 'a') + "...'"},
  };
  for (const Bad& c : cases) {
    const std::string message = error_of_sparse(c.text);
    EXPECT_NE(message.find(c.expected), std::string::npos) << "got: " << message;
    EXPECT_NE(message.find("bad.mtx"), std::string::npos) << message;
  }
  try {
    gs::read_matrix_market_sparse((dir_ / "missing.mtx").string());
    FAIL() << "no error for a missing file";
  } catch (const gs::MatrixMarketError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.mtx: cannot open file: No such file or directory"), std::string::npos)
        << e.what();
  }
  const std::string array = "%%MatrixMarket matrix array real general\n";
  struct BadArray {
    std::string name, text;
    long rows;
    std::string expected;
  };
  const std::vector<BadArray> bad_arrays = {
      {"lie.mtx", array + "2000000000 2\n1\n", -1, "lie.mtx:2: the size line announces 4000000000 array values"},
      // The caller's expected shape is checked at the size line.
      {"rows.mtx", array + "2 1\n1\n2\n", 3, "rows.mtx:2: the matrix has 2 rows, expected 3"},
      // A value past a double's range is named, not read as Inf.
      {"huge.mtx", array + "2 1\n1\n2e400\n", -1,
       "huge.mtx:4: number '2e400' for an array value is beyond the range"},
      // A 3x3 symmetric array lists 6 values.
      {"symshort.mtx", "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n", -1,
       "file ends before all 6 array values were read"},
      {"short.mtx", array + "2 2\n1\n2\n3\n", -1, "file ends before all 4 array values were read"},
  };
  for (const BadArray& c : bad_arrays) {
    const std::string message = error_of_dense(c.name, c.text, c.rows);
    EXPECT_NE(message.find(c.expected), std::string::npos) << "got: " << message;
  }
  EXPECT_EQ(gs::read_matrix_market_dense(write("ok.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n2\n"), 2)
                .rows(),
            2);
  try {
    gs::read_matrix_market_sparse(dir_.string());
    FAIL() << "no error for a directory";
  } catch (const gs::MatrixMarketError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}


// A program under a decimal-comma locale still reads and writes decimal points.
TEST_F(MatrixMarket, IgnoresTheProgramsDecimalComma) {
  const std::string matrix_path =
      write("a.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.5\n2 2 -0.25\n1 2 2.5e-3\n");
  const std::string vector_path = (dir_ / "x.mtx").string();
  const gs_test::CommaLocale comma;

  const gs::SparseTriplets a = gs::read_matrix_market_sparse(matrix_path);
  ASSERT_EQ(a.entries.size(), 3u);
  EXPECT_EQ(a.entries[0].value, 1.5);
  EXPECT_EQ(a.entries[1].value, -0.25);
  EXPECT_EQ(a.entries[2].value, 2.5e-3);

  Eigen::MatrixXd x(3, 1);
  x << 0.1, -1.25, 1e-300;
  gs::write_matrix_market_dense(vector_path, x);
  const std::string text = file_text(vector_path);
  EXPECT_EQ(text.find(','), std::string::npos) << text;
  EXPECT_NE(text.find("-1.25\n"), std::string::npos) << text;
  EXPECT_EQ(gs::read_matrix_market_dense(vector_path), x);  // every bit read back
  // The stream overload writes the same text.
  std::ostringstream stream;
  gs::write_matrix_market_dense(stream, x);
  EXPECT_EQ(stream.str(), text);
  // So does the coordinate writer.
  gs::SparseTriplets t;
  t.rows = t.cols = 2;
  t.entries = {{1, 0, -0.25}};
  gs::write_matrix_market_sparse(matrix_path, t);
  EXPECT_EQ(gs::read_matrix_market_sparse(matrix_path).entries[0].value, -0.25);
  const std::string sparse_text = file_text(matrix_path);
  EXPECT_NE(sparse_text.find("2 1 -0.25\n"), std::string::npos) << sparse_text;
}

}  // namespace
