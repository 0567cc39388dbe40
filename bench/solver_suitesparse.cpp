// UMFPACK, KLU and CHOLMOD with their default options, on the problem's CSC matrix.
#include <stdexcept>
#include <string>

#include <cholmod.h>
#include <klu.h>
#include <umfpack.h>

#include "solver_registry.hpp"

namespace bench {

namespace {

class Umfpack : public Solver {
 public:
  explicit Umfpack(const Problem& p) : a_(p.sparse) { umfpack_di_defaults(control_); }
  ~Umfpack() override {
    if (numeric_) umfpack_di_free_numeric(&numeric_);
    if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
  }
  void analyze() override {
    if (symbolic_) umfpack_di_free_symbolic(&symbolic_);
    check(umfpack_di_symbolic(n(), n(), a_.outerIndexPtr(), a_.innerIndexPtr(), a_.valuePtr(), &symbolic_, control_,
                              info_),
          "symbolic");
  }
  void factorize() override {
    if (numeric_) umfpack_di_free_numeric(&numeric_);
    check(umfpack_di_numeric(a_.outerIndexPtr(), a_.innerIndexPtr(), a_.valuePtr(), symbolic_, &numeric_, control_, info_),
          "numeric");
    flops_ = info_[UMFPACK_FLOPS];
    nonzeros_ = info_[UMFPACK_LNZ] + info_[UMFPACK_UNZ];
    memory_ = info_[UMFPACK_NUMERIC_SIZE] * info_[UMFPACK_SIZE_OF_UNIT];
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    x.resize(b.size());
    check(umfpack_di_solve(UMFPACK_A, a_.outerIndexPtr(), a_.innerIndexPtr(), a_.valuePtr(), x.data(), b.data(),
                           numeric_, control_, info_),
          "solve");
  }
  FactorStats stats() const override { return {nonzeros_, flops_, memory_}; }

 private:
  int n() const { return static_cast<int>(a_.rows()); }
  static void check(int status, const char* what) {
    if (status != UMFPACK_OK) throw std::runtime_error(std::string("UMFPACK ") + what + " failed: " + std::to_string(status));
  }
  const SparseMatrix& a_;
  void* symbolic_ = nullptr;
  void* numeric_ = nullptr;
  double control_[UMFPACK_CONTROL];
  double info_[UMFPACK_INFO];
  double flops_ = 0, nonzeros_ = 0, memory_ = 0;
};

class Klu : public Solver {
 public:
  explicit Klu(const Problem& p) : a_(const_cast<SparseMatrix&>(p.sparse)) { klu_defaults(&common_); }
  ~Klu() override {
    if (numeric_) klu_free_numeric(&numeric_, &common_);
    if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
  }
  void analyze() override {
    if (symbolic_) klu_free_symbolic(&symbolic_, &common_);
    symbolic_ = klu_analyze(n(), a_.outerIndexPtr(), a_.innerIndexPtr(), &common_);
    if (!symbolic_) fail("analyze");
  }
  void factorize() override {
    if (numeric_) klu_free_numeric(&numeric_, &common_);
    numeric_ = klu_factor(a_.outerIndexPtr(), a_.innerIndexPtr(), a_.valuePtr(), symbolic_, &common_);
    if (!numeric_) fail("factor");
  }
  void refactor() override {
    if (!klu_refactor(a_.outerIndexPtr(), a_.innerIndexPtr(), a_.valuePtr(), symbolic_, numeric_, &common_)) fail("refactor");
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    x = b;
    if (!klu_solve(symbolic_, numeric_, n(), 1, x.data(), &common_)) fail("solve");
  }
  FactorStats stats() const override {
    klu_common c = common_;
    klu_flops(symbolic_, numeric_, &c);
    return {static_cast<double>(numeric_->lnz + numeric_->unz), c.flops, static_cast<double>(c.mempeak)};
  }

 private:
  int n() const { return static_cast<int>(a_.rows()); }
  void fail(const char* what) const {
    throw std::runtime_error(std::string("KLU ") + what + " failed: status " + std::to_string(common_.status));
  }
  SparseMatrix& a_;
  klu_common common_;
  klu_symbolic* symbolic_ = nullptr;
  klu_numeric* numeric_ = nullptr;
};

class Cholmod : public Solver {
 public:
  Cholmod(const Problem& p, bool supernodal) : a_(const_cast<SparseMatrix&>(p.sparse)) {
    cholmod_start(&common_);
    common_.supernodal = supernodal ? CHOLMOD_SUPERNODAL : CHOLMOD_SIMPLICIAL;
    view_.nrow = view_.ncol = a_.rows();
    view_.nzmax = a_.nonZeros();
    view_.p = a_.outerIndexPtr();
    view_.i = a_.innerIndexPtr();
    view_.x = a_.valuePtr();
    view_.stype = -1;  // lower triangle used, upper ignored
    view_.itype = CHOLMOD_INT;
    view_.xtype = CHOLMOD_REAL;
    view_.dtype = CHOLMOD_DOUBLE;
    view_.sorted = 1;
    view_.packed = 1;
  }
  ~Cholmod() override {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    cholmod_finish(&common_);
  }
  void analyze() override {
    if (factor_) cholmod_free_factor(&factor_, &common_);
    factor_ = cholmod_analyze(&view_, &common_);
    if (!factor_) fail("analyze");
  }
  void factorize() override {
    if (!cholmod_factorize(&view_, factor_, &common_) || common_.status != CHOLMOD_OK) fail("factorize");
    flops_ = common_.fl;
    nonzeros_ = common_.lnz;
    memory_ = static_cast<double>(common_.memory_usage);
  }
  void solve(const Eigen::VectorXd& b, Eigen::VectorXd& x) override {
    cholmod_dense rhs{};
    rhs.nrow = b.size();
    rhs.ncol = 1;
    rhs.nzmax = b.size();
    rhs.d = b.size();
    rhs.x = const_cast<double*>(b.data());
    rhs.xtype = CHOLMOD_REAL;
    rhs.dtype = CHOLMOD_DOUBLE;
    cholmod_dense* solution = cholmod_solve(CHOLMOD_A, factor_, &rhs, &common_);
    if (!solution) fail("solve");
    x = Eigen::Map<Eigen::VectorXd>(static_cast<double*>(solution->x), b.size());
    cholmod_free_dense(&solution, &common_);
  }
  FactorStats stats() const override { return {nonzeros_, flops_, memory_}; }

 private:
  void fail(const char* what) const {
    throw std::runtime_error(std::string("CHOLMOD ") + what + " failed: status " + std::to_string(common_.status));
  }
  SparseMatrix& a_;
  cholmod_common common_;
  cholmod_sparse view_{};
  cholmod_factor* factor_ = nullptr;
  double flops_ = 0, nonzeros_ = 0, memory_ = 0;
};

}  // namespace

std::unique_ptr<Solver> make_umfpack(const Problem& p) { return std::make_unique<Umfpack>(p); }
std::unique_ptr<Solver> make_klu(const Problem& p) { return std::make_unique<Klu>(p); }
std::unique_ptr<Solver> make_cholmod(const Problem& p, bool supernodal) { return std::make_unique<Cholmod>(p, supernodal); }

}  // namespace bench
