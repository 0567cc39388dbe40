// The value arenas' allocator: large arrays start on a 2 MB boundary and are
// advised as huge pages; small ones are ordinary; every byte asked for is
// usable (the sanitizer build checks the bounds) and freed through the
// pointer the heap gave; and a system whose arenas take the large path
// solves as accurately as any other.
#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graphsolve/families.hpp"
#include "graphsolve/graphsolve.hpp"
#include "graphsolve/huge_page_allocator.hpp"
#include "test_support.hpp"

namespace gs = graphsolve;

namespace {

using Allocator = gs::detail::HugePageAllocator<double>;
constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
constexpr std::size_t kDoublesPerHugePage = kHugePageBytes / sizeof(double);

bool on_huge_page_boundary(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kHugePageBytes == 0; }

// Whether the kernel offers transparent huge pages to advised memory.
bool transparent_huge_pages_offered() {
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(setting, line) && line.find("[never]") == std::string::npos;
}

// The VmFlags of the mapping holding `p`, from /proc/self/smaps ("" if none).
std::string mapping_flags(const void* p) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    // A mapping's header starts "begin-end perms ..." (its first ':' after a
    // space); its fields start "Name:".
    std::istringstream range(line);
    if (range >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= address && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

}  // namespace

TEST(HugePageAllocator, LargeArraysStartOnAHugePageBoundaryAndHoldEveryValue) {
  Allocator allocator;
  for (std::size_t n : {kDoublesPerHugePage, kDoublesPerHugePage + 1, 3 * kDoublesPerHugePage - 7}) {
    double* p = allocator.allocate(n);
    EXPECT_TRUE(on_huge_page_boundary(p)) << n << " doubles";
    for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<double>(i);
    EXPECT_EQ(p[0], 0.0);
    EXPECT_EQ(p[n - 1], static_cast<double>(n - 1));
    allocator.deallocate(p, n);
  }
}

TEST(HugePageAllocator, SmallArraysAreOrdinaryAllocations) {
  Allocator allocator;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, kDoublesPerHugePage - 1}) {
    double* p = allocator.allocate(n);
    ASSERT_NE(p, nullptr);
    if (n > 0) p[n - 1] = 1.0;
    allocator.deallocate(p, n);
  }
}

TEST(HugePageAllocator, LargeArraysAreAdvisedAsHugePages) {
  if (!transparent_huge_pages_offered()) GTEST_SKIP() << "transparent huge pages are off on this machine";
  Allocator allocator;
  const std::size_t n = 2 * kDoublesPerHugePage;
  double* p = allocator.allocate(n);
  const std::string flags = mapping_flags(p);
  allocator.deallocate(p, n);
  EXPECT_NE(flags.find(" hg"), std::string::npos) << "mapping flags: " << flags;
}

TEST(HugePageAllocator, SizesThatOverflowThrowBadAlloc) {
  Allocator allocator;
  EXPECT_THROW(allocator.allocate(std::numeric_limits<std::size_t>::max() / sizeof(double)), std::bad_alloc);
  EXPECT_THROW(allocator.allocate(std::numeric_limits<std::size_t>::max() / sizeof(double) - 1000),
               std::bad_alloc);
}

TEST(HugePageAllocator, VectorsKeepTheirValuesAcrossGrowthCopiesAndMoves) {
  std::vector<double, Allocator> values(100, 1.5);
  values.resize(kDoublesPerHugePage + 100, 2.5);  // crosses from the small path to the large one
  EXPECT_TRUE(on_huge_page_boundary(values.data()));
  const std::vector<double, Allocator> copy = values;
  std::vector<double, Allocator> moved = std::move(values);
  EXPECT_EQ(copy.front(), 1.5);
  EXPECT_EQ(copy[99], 1.5);
  EXPECT_EQ(copy.back(), 2.5);
  EXPECT_TRUE(copy == moved);
  moved.resize(10);
  moved.shrink_to_fit();  // back to the small path
  EXPECT_EQ(moved[9], 1.5);
}

// A 6x6 chain of 4000 nodes: its matrix and factor arenas are over 2 MB.
TEST(HugePageAllocator, SystemsWithLargeArenasSolveAccurately) {
  const gs::Graph graph = gs::families::chain(4000, 6);
  const gs::Symbolic symbolic = gs::analyze(graph);
  gs::BlockMatrix a(symbolic);
  ASSERT_GT(static_cast<std::size_t>(a.rows()) * 6 * 3 * sizeof(double), kHugePageBytes);
  EXPECT_TRUE(on_huge_page_boundary(a.values()));
  for (gs::Method method : {gs::Method::LDU, gs::Method::LDLT, gs::Method::LLT}) {
    gs::families::fill_values(a, method == gs::Method::LDU ? gs::families::Values::Unsymmetric
                                                            : gs::families::Values::SymmetricPositiveDefinite, 3);
    gs::Factorization f(symbolic, method);
    ASSERT_EQ(f.factorize(a), gs::Status::Success) << gs::to_string(method);
    const Eigen::MatrixXd b = gs_test::random_rhs(a.rows(), 1, 11);
    Eigen::MatrixXd x = b;
    ASSERT_EQ(f.solve_in_place(x), gs::Status::Success);
    EXPECT_LT((gs::to_sparse(a) * x - b).norm() / b.norm(), 1e-12) << gs::to_string(method);
  }
}
