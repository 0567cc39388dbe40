#pragma once
// Which build of the small dense kernels (pivot inverses and block products
// of 5x5 and 6x6 blocks, and the elimination of tree edges between blocks of
// any size up to 6) factorizations run. The library is built for any x86-64
// CPU; on one with AVX2 and FMA it also carries "wide" kernels that hold a
// whole 6x6 block in registers and fuse multiply-adds: 25-35% off refactor
// + solve of chains and trees of 6x6 blocks, 15-25% off ladders, nets and
// small crystals of them, 5-15% off symmetric chains and trees of 3x3
// blocks. Their results differ from the portable kernels' in the last bits
// (the fused roundings), so a program that needs the same bits on every
// x86-64 CPU, or a test that depends on round-off, picks the portable ones.
namespace graphsolve {

enum class Kernels {
  Portable,  // SSE2: the same results on every x86-64 CPU (from the same build)
  Wide,      // AVX2 and FMA, where the CPU has them
};

// The kernels in use. At start: Wide where the CPU has AVX2 and FMA, unless
// the environment variable GRAPHSOLVE_PORTABLE_KERNELS is set to anything
// but "" or "0", or the program runs under Valgrind (whose 3.19 release
// cannot decode all of their instructions; GRAPHSOLVE_PORTABLE_KERNELS=0
// keeps them there); Portable otherwise.
Kernels active_kernels();

// Whether this CPU and build can run the wide kernels.
bool wide_kernels_available();

// Picks the kernels for every later factorization in the process (safe to
// call from any thread; a factorization running meanwhile may use either,
// both being correct). Returns false, changing nothing, for Kernels::Wide
// where wide_kernels_available() is false.
bool use_kernels(Kernels choice);

const char* to_string(Kernels choice);

}  // namespace graphsolve
