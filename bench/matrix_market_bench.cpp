// Reading and writing Matrix Market files next to the readers and writers a
// user would otherwise call: CHOLMOD's (cholmod_read_triplet,
// cholmod_write_sparse; cholmod_read_dense, cholmod_write_dense) and Eigen's
// (loadMarket, saveMarket, which build and take a compressed SparseMatrix;
// loadMarketVector, saveMarketVector). The files are crystals of 6x6 blocks
// (coordinate, general, unsymmetric values) and vectors (array: the
// solutions `graphsolve solve` writes, the right-hand sides it reads). Every
// reader's matrix and every writer's file (read back) must hold the source's
// values to the bit, or the benchmark fails.
// Names: mtx/crystal/SIDE/SOLVER/read|write, mtx/vector/LENGTH/SOLVER/read|write.
#include <graphsolve/families.hpp>
#include <graphsolve/graphsolve.hpp>
#include <graphsolve/matrix_market.hpp>
#include <graphsolve/sparse_export.hpp>

#include <cholmod.h>
#include <unistd.h>
#include <unsupported/Eigen/SparseExtra>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "benchmark_main.hpp"

namespace {

namespace gs = graphsolve;
namespace fam = graphsolve::families;
using Sparse = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;

Sparse crystal_matrix(int side) {
  gs::BlockMatrix a(std::make_shared<const gs::Pattern>(fam::crystal(side, 6)));
  fam::fill_values(a, fam::Values::Unsymmetric, 1);
  return gs::to_sparse(a);
}

gs::SparseTriplets triplets_of(const Sparse& m) {
  gs::SparseTriplets t;
  t.rows = static_cast<int>(m.rows());
  t.cols = static_cast<int>(m.cols());
  for (int j = 0; j < m.outerSize(); ++j)
    for (Sparse::InnerIterator it(m, j); it; ++it)
      t.entries.push_back({static_cast<int>(it.row()), static_cast<int>(it.col()), it.value()});
  return t;
}

Sparse sparse_of(const gs::SparseTriplets& t) {
  std::vector<Eigen::Triplet<double, int>> entries;
  for (const gs::Triplet& e : t.entries) entries.emplace_back(e.row, e.col, e.value);
  Sparse m(t.rows, t.cols);
  m.setFromTriplets(entries.begin(), entries.end());
  return m;
}

// Exactly the same values in the same places (== on doubles: to the bit, but
// for the sign of zero, which the crystals' values do not hold).
bool same(const Sparse& a, const Sparse& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols() || a.nonZeros() != b.nonZeros()) return false;
  for (int j = 0; j < a.outerSize(); ++j) {
    Sparse::InnerIterator x(a, j), y(b, j);
    for (; x && y; ++x, ++y)
      if (x.row() != y.row() || x.value() != y.value()) return false;
    if (x || y) return false;
  }
  return true;
}

class Cholmod {
 public:
  Cholmod() { cholmod_start(&common_); }
  ~Cholmod() { cholmod_finish(&common_); }
  Cholmod(const Cholmod&) = delete;
  Cholmod& operator=(const Cholmod&) = delete;
  cholmod_common* common() { return &common_; }

 private:
  cholmod_common common_;
};

// CHOLMOD reads and writes open files: call(file) on `path` opened in `mode`,
// or `failed` if it does not open.
template <class Call, class Result>
Result on_file(const std::string& path, const char* mode, Call call, Result failed) {
  std::FILE* file = std::fopen(path.c_str(), mode);
  if (!file) return failed;
  const Result result = call(file);
  std::fclose(file);
  return result;
}

Sparse sparse_of(const cholmod_triplet& t) {
  gs::SparseTriplets g;
  g.rows = static_cast<int>(t.nrow);
  g.cols = static_cast<int>(t.ncol);
  const int* i = static_cast<const int*>(t.i);
  const int* j = static_cast<const int*>(t.j);
  const double* x = static_cast<const double*>(t.x);
  for (std::size_t k = 0; k < t.nnz; ++k) g.entries.push_back({i[k], j[k], x[k]});
  return sparse_of(g);
}

// An input file (as graphsolve writes it) and a scratch file for the
// writers, both removed at the end.
struct Files {
  explicit Files(const std::string& name) {
    const auto dir = std::filesystem::temp_directory_path();
    const std::string stem = "gs-mtx-bench-" + std::to_string(getpid()) + "-" + name;
    input = (dir / (stem + ".mtx")).string();
    output = (dir / (stem + "-out.mtx")).string();
  }
  ~Files() {
    std::error_code ignored;
    std::filesystem::remove(input, ignored);
    std::filesystem::remove(output, ignored);
  }
  Files(const Files&) = delete;
  Files& operator=(const Files&) = delete;
  std::string input, output;
};

// A crystal's matrix and its file.
struct Crystal {
  explicit Crystal(int side)
      : source(crystal_matrix(side)), triplets(triplets_of(source)), files("crystal-" + std::to_string(side)) {
    gs::write_matrix_market_sparse(files.input, triplets);
  }
  Sparse source;
  gs::SparseTriplets triplets;
  Files files;
};

// A vector of values spread over many orders of magnitude, and its file.
struct Vector {
  explicit Vector(int length) : source(length), files("vector-" + std::to_string(length)) {
    std::mt19937_64 random(1);
    std::normal_distribution<double> digits;
    std::uniform_int_distribution<int> exponent(-20, 20);
    for (double& v : source) v = digits(random) * std::pow(10.0, exponent(random));
    gs::write_matrix_market_dense(files.input, source);
  }
  Eigen::VectorXd source;
  Files files;
};

// cholmod_dense over a vector's storage, without a copy.
cholmod_dense dense_view(const Eigen::VectorXd& v) {
  cholmod_dense view{};
  view.nrow = view.d = view.nzmax = static_cast<std::size_t>(v.size());
  view.ncol = 1;
  view.x = const_cast<double*>(v.data());
  view.xtype = CHOLMOD_REAL;
  view.dtype = CHOLMOD_DOUBLE;
  return view;
}

void read(benchmark::State& state, const Crystal& f, const std::string& solver) {
  Cholmod cholmod;
  Sparse last;
  for (auto _ : state) {
    if (solver == "graphsolve") {
      const gs::SparseTriplets t = gs::read_matrix_market_sparse(f.files.input);
      state.PauseTiming();
      last = sparse_of(t);
      state.ResumeTiming();
    } else if (solver == "cholmod") {
      cholmod_triplet* t = on_file(f.files.input, "r", [&](std::FILE* file) {
        return cholmod_read_triplet(file, cholmod.common());
      }, static_cast<cholmod_triplet*>(nullptr));
      if (!t) return state.SkipWithError("cholmod_read_triplet failed");
      state.PauseTiming();
      last = sparse_of(*t);
      cholmod_free_triplet(&t, cholmod.common());
      state.ResumeTiming();
    } else {
      if (!Eigen::loadMarket(last, f.files.input)) return state.SkipWithError("loadMarket failed");
    }
  }
  if (!same(last, f.source)) state.SkipWithError("the matrix read differs from the one written");
  state.counters["entries"] = static_cast<double>(f.source.nonZeros());
}

void write(benchmark::State& state, const Crystal& f, const std::string& solver) {
  Cholmod cholmod;
  cholmod_sparse view{};  // the source in CHOLMOD's form, without a copy
  if (solver == "cholmod") {
    view.nrow = static_cast<std::size_t>(f.source.rows());
    view.ncol = static_cast<std::size_t>(f.source.cols());
    view.nzmax = static_cast<std::size_t>(f.source.nonZeros());
    view.p = const_cast<int*>(f.source.outerIndexPtr());
    view.i = const_cast<int*>(f.source.innerIndexPtr());
    view.x = const_cast<double*>(f.source.valuePtr());
    view.stype = 0;
    view.itype = CHOLMOD_INT;
    view.xtype = CHOLMOD_REAL;
    view.dtype = CHOLMOD_DOUBLE;
    view.sorted = 1;
    view.packed = 1;
  }
  for (auto _ : state) {
    if (solver == "graphsolve") {
      gs::write_matrix_market_sparse(f.files.output, f.triplets);
    } else if (solver == "cholmod") {
      const int written = on_file(f.files.output, "w", [&](std::FILE* file) {
        return cholmod_write_sparse(file, &view, nullptr, nullptr, cholmod.common());
      }, -1);
      if (written < 0) return state.SkipWithError("cholmod_write_sparse failed");
    } else {
      if (!Eigen::saveMarket(f.source, f.files.output)) return state.SkipWithError("saveMarket failed");
    }
  }
  if (!same(sparse_of(gs::read_matrix_market_sparse(f.files.output)), f.source))
    state.SkipWithError("the file written does not read back as the matrix");
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(f.files.output));
}

void read(benchmark::State& state, const Vector& f, const std::string& solver) {
  Cholmod cholmod;
  Eigen::VectorXd last;
  for (auto _ : state) {
    if (solver == "graphsolve") {
      last = gs::read_matrix_market_dense(f.files.input);
    } else if (solver == "cholmod") {
      cholmod_dense* x = on_file(f.files.input, "r", [&](std::FILE* file) {
        return cholmod_read_dense(file, cholmod.common());
      }, static_cast<cholmod_dense*>(nullptr));
      if (!x) return state.SkipWithError("cholmod_read_dense failed");
      state.PauseTiming();
      last = Eigen::Map<const Eigen::VectorXd>(static_cast<const double*>(x->x), static_cast<Eigen::Index>(x->nrow));
      cholmod_free_dense(&x, cholmod.common());
      state.ResumeTiming();
    } else {
      if (!Eigen::loadMarketVector(last, f.files.input)) return state.SkipWithError("loadMarketVector failed");
    }
  }
  if (!(last.size() == f.source.size() && last == f.source))
    state.SkipWithError("the vector read differs from the one written");
  state.counters["values"] = static_cast<double>(f.source.size());
}

void write(benchmark::State& state, const Vector& f, const std::string& solver) {
  Cholmod cholmod;
  cholmod_dense view = dense_view(f.source);
  for (auto _ : state) {
    if (solver == "graphsolve") {
      gs::write_matrix_market_dense(f.files.output, f.source);
    } else if (solver == "cholmod") {
      const int written = on_file(f.files.output, "w", [&](std::FILE* file) {
        return cholmod_write_dense(file, &view, nullptr, cholmod.common());
      }, -1);
      if (written < 0) return state.SkipWithError("cholmod_write_dense failed");
    } else {
      if (!Eigen::saveMarketVector(f.source, f.files.output)) return state.SkipWithError("saveMarketVector failed");
    }
  }
  const Eigen::MatrixXd back = gs::read_matrix_market_dense(f.files.output);
  if (!(back.size() == f.source.size() && back.col(0) == f.source))
    state.SkipWithError("the file written does not read back as the vector");
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(f.files.output));
}

// Every solver reading and writing one kind of file.
template <class Case>
void register_case(const std::shared_ptr<Case>& c, const std::string& prefix) {
  for (const char* solver : {"graphsolve", "cholmod", "eigen"})
    for (const bool reading : {true, false}) {
      const std::string name = prefix + "/" + solver + (reading ? "/read" : "/write");
      benchmark::RegisterBenchmark(name.c_str(), [c, reading, s = std::string(solver)](benchmark::State& st) {
        reading ? read(st, *c, s) : write(st, *c, s);
      })->Unit(benchmark::kMillisecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  return bench::run_benchmarks(argc, argv, [](bool quick) {
    for (const int side : quick ? std::vector<int>{2} : std::vector<int>{10, 16})
      register_case(std::make_shared<Crystal>(side), "mtx/crystal/" + std::to_string(side));
    for (const int length : quick ? std::vector<int>{100} : std::vector<int>{1000000})
      register_case(std::make_shared<Vector>(length), "mtx/vector/" + std::to_string(length));
  });
}
