// Fuzz target: the graphsolve command's solve and info paths on arbitrary
// input files. Every input must either solve (the command checks the
// residual itself) or throw a std::exception with a message; a crash, a
// sanitizer report, a hang or a foreign exception is a bug.
//
// Input layout: one mode byte, then the matrix file, then optionally a NUL
// and the right-hand-side file, then optionally a NUL and a block-size file.
// Mode bits: 0 uniform block size (2 or 3, bit 7), 1-2 ordering, 3-4 method,
// 5 one refinement round, 6 the info command instead of solve.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "commands.hpp"

namespace {

// Where the inputs become files for the command; removed at exit.
struct ScratchDirectory {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("graphsolve-fuzz-" + std::to_string(::getpid()));
  ScratchDirectory() { std::filesystem::create_directories(path); }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

const std::filesystem::path& scratch_directory() {
  static const ScratchDirectory dir;
  return dir.path;
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = (scratch_directory() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The next NUL-separated part of `input` from `at` (to the end if none).
std::string next_part(const std::string& input, std::size_t& at) {
  if (at > input.size()) return {};
  const std::size_t end = input.find('\0', at);
  const std::string part = input.substr(at, end == std::string::npos ? std::string::npos : end - at);
  at = end == std::string::npos ? input.size() + 1 : end + 1;
  return part;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  namespace cli = graphsolve::cli;
  const std::uint8_t mode = data[0];
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::size_t at = 0;
  const std::string matrix = next_part(input, at);
  const bool has_rhs = at <= input.size();
  const std::string rhs = next_part(input, at);
  const bool has_blocks = at <= input.size();
  const std::string blocks = next_part(input, at);
  cli::BlockOptions block_options;
  if (has_blocks)
    block_options.blocks_file = write_file("blocks.txt", blocks);
  else if (mode & 1)
    block_options.block_size = mode & 128 ? 3 : 2;
  try {
    if (mode & 64) {
      cli::InfoOptions o;
      o.matrix = write_file("a.mtx", matrix);
      o.blocks = block_options;
      cli::run_info(o);
    } else {
      cli::SolveOptions o;
      o.matrix = write_file("a.mtx", matrix);
      o.rhs = write_file("b.mtx", has_rhs ? rhs : "%%MatrixMarket matrix array real general\n1 1\n1\n");
      o.out = (scratch_directory() / "x.mtx").string();
      o.blocks = block_options;
      o.ordering = static_cast<graphsolve::Ordering>((mode >> 1) % 4);  // auto, dfs, amd, nd
      o.method = static_cast<graphsolve::Method>((mode >> 3) % 3);
      o.refine = mode & 32 ? 1 : 0;
      cli::run_solve(o);
    }
  } catch (const std::exception&) {
    // A refused input: what the command reports as "graphsolve: error: ...".
  }
  return 0;
}
