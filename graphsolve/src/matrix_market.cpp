// Matrix Market reader and writer. The reader is strict: every malformed
// header, size line or entry is reported with the file name and line number.
#include "graphsolve/matrix_market.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

#include "decimal_number.hpp"
#include "exact_decimal.hpp"
#include "file_contents.hpp"

namespace graphsolve {

namespace {

enum class Symmetry { General, Symmetric, SkewSymmetric };

struct Header {
  bool coordinate = true;
  Symmetry symmetry = Symmetry::General;
};

using file_contents::printable;

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path), in_(path) {
    const int open_error = errno;  // why in_ failed to open, if it did
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) fail_plain("is a directory, expected a Matrix Market file");
    if (!in_) fail_plain(std::string("cannot open file: ") + std::strerror(open_error));
    if (std::filesystem::is_regular_file(path, error)) {
      const auto size = std::filesystem::file_size(path, error);
      if (!error) file_bytes_ = static_cast<long>(size);
    }
  }

  // Rejects a size line that announces more data lines than the file has
  // bytes for (each line takes at least `bytes_per_line` characters, the last
  // one may lack its newline), before anything is allocated for them. Pipes
  // and other files of unknown size are not checked.
  void check_room_for(long lines, long bytes_per_line, const char* what) const {
    if (file_bytes_ < 0 || lines == 0) return;
    if (lines > (file_bytes_ + 1) / bytes_per_line)
      fail("the size line announces " + std::to_string(lines) + " " + what + ", more than the " +
           std::to_string(file_bytes_) + "-byte file can hold");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw MatrixMarketError(path_ + ":" + std::to_string(line_number_) + ": " + what);
  }
  [[noreturn]] void fail_plain(const std::string& what) const { throw MatrixMarketError(path_ + ": " + what); }

  Header header() {
    if (!std::getline(in_, line_)) fail_plain("empty file, expected a '%%MatrixMarket' header");
    ++line_number_;
    // A tar header (the SuiteSparse collection's .tar.gz, once decompressed)
    // holds no line break before the "ustar" at its byte 257.
    if (const std::string why = file_contents::not_text(line_, path_, "Matrix Market text"); !why.empty())
      fail_plain(why);
    file_contents::skip_utf8_bom(line_);
    std::istringstream words(lowercase(line_));
    std::string banner, object, format, field, symmetry;
    words >> banner >> object >> format >> field >> symmetry;
    if (banner != "%%matrixmarket")
      fail("expected the header '%%MatrixMarket matrix ...', found '" + printable(line_) + "'");
    if (object != "matrix") fail("unsupported object '" + object + "' (only 'matrix')");
    Header h;
    if (format == "coordinate")
      h.coordinate = true;
    else if (format == "array")
      h.coordinate = false;
    else
      fail("unknown format '" + format + "' (expected 'coordinate' or 'array')");
    if (field != "real" && field != "integer" && field != "double")
      fail("unsupported field '" + field + "' (only real and integer values are supported)");
    if (symmetry == "general")
      h.symmetry = Symmetry::General;
    else if (symmetry == "symmetric")
      h.symmetry = Symmetry::Symmetric;
    else if (symmetry == "skew-symmetric")
      h.symmetry = Symmetry::SkewSymmetric;
    else
      fail("unsupported symmetry '" + symmetry + "' (expected general, symmetric or skew-symmetric)");
    return h;
  }

  // Next line that is neither a comment nor blank; false at end of file.
  bool next_data_line() {
    while (std::getline(in_, line_)) {
      ++line_number_;
      const auto first = line_.find_first_not_of(" \t\r");
      // Parsing stops at a NUL byte: whatever follows on the line would be dropped unread.
      if (const auto nul = line_.find('\0'); nul != std::string::npos)
        fail("a NUL byte at column " + std::to_string(nul + 1) + ": binary data, not Matrix Market text");
      if (first == std::string::npos || line_[first] == '%') continue;
      cursor_ = line_.c_str() + first;
      return true;
    }
    return false;
  }

  long integer(const char* what) {
    const std::string_view text = token();
    const auto d = decimal_number::read_decimal<long>(text);
    if (!d.whole || d.out_of_range) fail(std::string("expected an integer ") + what);
    return d.value;
  }

  // from_chars, not strtod: five times faster, and the same value to the bit.
  double real(const char* what) {
    const std::string_view text = token();
    if (const std::optional<double> v = decimal_number::parse_finite(text)) return *v;
    if (text.empty()) fail(std::string("expected a number ") + what);
    const std::string quoted = "'" + std::string(text) + "'";
    if (text.find_first_of("xX") != std::string_view::npos)
      fail(std::string("expected a decimal number ") + what + ", found " + quoted);
    const auto d = decimal_number::read_decimal<double>(text);
    if (d.whole && d.out_of_range) fail("number " + quoted + " " + what + " is beyond the range of a double");
    if (d.whole) fail(std::string("non-finite value (NaN or Inf) ") + what);
    fail(std::string("expected a number ") + what);
  }

  void end_of_line() {
    while (*cursor_ == ' ' || *cursor_ == '\t' || *cursor_ == '\r') ++cursor_;
    if (*cursor_ != '\0') fail("unexpected text '" + printable(cursor_) + "' at the end of the line");
  }

  int line_number() const { return line_number_; }

 private:
  static bool ends_token(char c) { return c == '\0' || c == ' ' || c == '\t' || c == '\r'; }
  // The next word of the line, after the blanks before it (empty at its end).
  std::string_view token() {
    while (*cursor_ == ' ' || *cursor_ == '\t') ++cursor_;
    const char* first = cursor_;
    while (!ends_token(*cursor_)) ++cursor_;
    return std::string_view(first, static_cast<std::size_t>(cursor_ - first));
  }
  // ASCII only: the header's words are, and the program's locale (a Turkish
  // one lowers 'I' to a dotless i) has no say.
  static std::string lowercase(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
    return s;
  }

  std::string path_;
  std::ifstream in_;
  std::string line_;
  const char* cursor_ = "";
  int line_number_ = 0;
  long file_bytes_ = -1;  // unknown
};

// Reads the size line; `entries` is the number of data lines that follow
// (for arrays: every value, or one triangle of a symmetric matrix).
void read_size(Reader& r, const Header& h, long& rows, long& cols, long& entries) {
  if (!r.next_data_line()) r.fail("missing the size line");
  rows = r.integer("for the number of rows");
  cols = r.integer("for the number of columns");
  entries = h.coordinate ? r.integer("for the number of entries") : 0;
  r.end_of_line();
  if (rows < 0 || cols < 0 || entries < 0) r.fail("negative size");
  if (rows > 2147483647L || cols > 2147483647L) r.fail("matrix too large");
  if (h.symmetry != Symmetry::General && rows != cols) r.fail("a symmetric matrix must be square");
  if (!h.coordinate) {
    if (h.symmetry == Symmetry::General)
      entries = rows * cols;
    else
      entries = rows * (rows + (h.symmetry == Symmetry::Symmetric ? 1 : -1)) / 2;
  }
  r.check_room_for(entries, h.coordinate ? 6 : 2, h.coordinate ? "entries" : "array values");  // "i j v\n", "v\n"
}

// A symmetric or skew-symmetric file stores one triangle (the standard says
// the lower; the upper alone is read too, as its transpose). Entries in both
// strict triangles would be mirrored onto each other and summed: a full matrix
// labelled symmetric would come out with its off-diagonal doubled, so refuse.
class OneTriangle {
 public:
  void check(const Reader& r, long i, long j) {
    if (i == j) return;
    const bool lower = i > j;
    Entry& seen = lower ? lower_ : upper_;
    if (seen.i == 0) seen = {i, j};
    const Entry& other = lower ? upper_ : lower_;
    if (other.i != 0)
      r.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is in the " + (lower ? "lower" : "upper") +
             " triangle but (" + std::to_string(other.i) + ", " + std::to_string(other.j) + ") is in the " +
             (lower ? "upper" : "lower") +
             ": a symmetric Matrix Market file stores one triangle (write a full matrix as 'general')");
  }

 private:
  struct Entry {
    long i = 0, j = 0;  // 1-based; 0: none yet
  };
  Entry lower_, upper_;  // the first entry met in each strict triangle
};

template <class Sink>
void read_coordinate_entries(Reader& r, const Header& h, long rows, long cols, long entries, Sink&& sink) {
  OneTriangle triangle;
  for (long k = 0; k < entries; ++k) {
    if (!r.next_data_line())
      r.fail("file ends after " + std::to_string(k) + " entries, the size line announced " + std::to_string(entries));
    const long i = r.integer("for the row index");
    const long j = r.integer("for the column index");
    const double v = r.real("for the value");
    r.end_of_line();
    if (i < 1 || i > rows || j < 1 || j > cols)
      r.fail("entry (" + std::to_string(i) + ", " + std::to_string(j) + ") is outside the " + std::to_string(rows) +
             "x" + std::to_string(cols) + " matrix");
    if (h.symmetry != Symmetry::General) triangle.check(r, i, j);
    sink(static_cast<int>(i - 1), static_cast<int>(j - 1), v);
  }
  if (r.next_data_line()) r.fail("more entries than the " + std::to_string(entries) + " the size line announced");
}

// Array format: column-major; symmetric arrays list the lower triangle only
// (skew-symmetric ones without the diagonal), each value given to sink once.
template <class Sink>
void read_array_entries(Reader& r, const Header& h, long rows, long cols, long entries, Sink&& sink) {
  for (long j = 0; j < cols; ++j)
    for (long i = h.symmetry == Symmetry::General ? 0 : j + (h.symmetry == Symmetry::SkewSymmetric); i < rows; ++i) {
      if (!r.next_data_line()) r.fail("file ends before all " + std::to_string(entries) + " array values were read");
      const double v = r.real("for an array value");
      r.end_of_line();
      sink(static_cast<int>(i), static_cast<int>(j), v);
    }
  if (r.next_data_line()) r.fail("more values than the array size announced");
}

}  // namespace

SparseTriplets read_matrix_market_sparse(const std::string& path) {
  Reader r(path);
  const Header h = r.header();
  long rows, cols, entries;
  read_size(r, h, rows, cols, entries);
  SparseTriplets result;
  result.rows = static_cast<int>(rows);
  result.cols = static_cast<int>(cols);
  result.symmetric = h.symmetry == Symmetry::Symmetric;
  const auto add = [&](int i, int j, double v) {
    result.entries.push_back({i, j, v});
    if (h.symmetry != Symmetry::General && i != j)
      result.entries.push_back({j, i, h.symmetry == Symmetry::Symmetric ? v : -v});
  };
  if (!h.coordinate) {
    // A dense array (what SciPy's mmwrite makes of an ndarray): its nonzeros.
    read_array_entries(r, h, rows, cols, entries, [&](int i, int j, double v) {
      if (v != 0.0) add(i, j, v);
    });
    return result;
  }
  result.entries.reserve(static_cast<size_t>(std::min(entries, 1L << 26)) * (h.symmetry == Symmetry::General ? 1 : 2));
  read_coordinate_entries(r, h, rows, cols, entries, [&](int i, int j, double v) {
    if (h.symmetry == Symmetry::SkewSymmetric && i == j) r.fail("a skew-symmetric matrix has a diagonal entry");
    add(i, j, v);
  });
  return result;
}

Eigen::MatrixXd read_matrix_market_dense(const std::string& path, long expected_rows) {
  Reader r(path);
  const Header h = r.header();
  long rows, cols, entries;
  read_size(r, h, rows, cols, entries);
  if (expected_rows >= 0 && rows != expected_rows)
    r.fail("the matrix has " + std::to_string(rows) + " rows, expected " + std::to_string(expected_rows));
  if (rows * cols > (1L << 31)) r.fail("dense matrix too large");
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(rows, cols);
  const double mirror = h.symmetry == Symmetry::SkewSymmetric ? -1.0 : 1.0;
  if (h.coordinate) {
    read_coordinate_entries(r, h, rows, cols, entries, [&](int i, int j, double v) {
      m(i, j) += v;
      if (h.symmetry != Symmetry::General && i != j) m(j, i) += mirror * v;
    });
    return m;
  }
  read_array_entries(r, h, rows, cols, entries, [&](int i, int j, double v) {
    m(i, j) = v;
    if (h.symmetry != Symmetry::General) m(j, i) = mirror * v;
  });
  return m;
}

void write_matrix_market_dense(std::ostream& out, const Eigen::MatrixXd& matrix) {
  // The numbers are formatted here, not by the stream's operator<<, which
  // follows the stream's locale (grouped digits, decimal commas):
  // exact_decimal writes a point whatever the locale.
  out << "%%MatrixMarket matrix array real general\n"
      << std::to_string(matrix.rows()) << ' ' << std::to_string(matrix.cols()) << '\n';
  char line[exact_decimal::kMaxChars + 1];
  for (Eigen::Index j = 0; j < matrix.cols(); ++j)
    for (Eigen::Index i = 0; i < matrix.rows(); ++i) {
      char* end = exact_decimal::write(line, matrix(i, j));
      *end++ = '\n';
      out.write(line, end - line);
    }
}

void write_matrix_market_dense(const std::string& path, const Eigen::MatrixXd& matrix) {
  errno = 0;
  std::ofstream out(path, std::ios::binary);
  if (!out) throw MatrixMarketError(path + ": cannot open file for writing: " + std::strerror(errno));
  write_matrix_market_dense(out, matrix);
  out.close();
  if (!out) throw MatrixMarketError(path + ": write failed");
}

void write_matrix_market_sparse(const std::string& path, const SparseTriplets& matrix) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (!f) throw MatrixMarketError(path + ": cannot open file for writing: " + std::strerror(errno));
  std::fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %zu\n", matrix.rows, matrix.cols,
               matrix.entries.size());
  char line[2 * 12 + exact_decimal::kMaxChars + 1];  // two ints, their blanks, the value, '\n'
  for (const Triplet& t : matrix.entries) {
    char* end = std::to_chars(line, line + 11, t.row + 1).ptr;
    *end++ = ' ';
    end = std::to_chars(end, end + 11, t.col + 1).ptr;
    *end++ = ' ';
    end = exact_decimal::write(end, t.value);
    *end++ = '\n';
    std::fwrite(line, 1, static_cast<std::size_t>(end - line), f);
  }
  const bool ok = std::ferror(f) == 0;
  if (std::fclose(f) != 0 || !ok) throw MatrixMarketError(path + ": write failed");
}

}  // namespace graphsolve
