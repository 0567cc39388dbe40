// The choice between the portable and the wide kernels
// (graphsolve/kernels.hpp); the wide kernels are in wide_kernels.cpp.
#include <atomic>
#include <cstdlib>
#include <string_view>

#include "graphsolve/kernels.hpp"
#include "wide_kernels.hpp"

namespace graphsolve {

namespace {

bool cpu_has_wide_kernels() {
#ifdef GS_HAS_WIDE_KERNELS
  __builtin_cpu_init();  // may run before the compiler's own initialization
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

// Valgrind 3.19 (Debian 12) cannot decode every AVX2 instruction of the wide
// kernels: a program run under it would stop at the first with SIGILL. It
// preloads its own libraries into the program (LD_PRELOAD names
// vgpreload_core and the tool's), which is how the process can tell.
bool under_valgrind() {
  const char* preload = std::getenv("LD_PRELOAD");
  return preload && std::string_view(preload).find("vgpreload_") != std::string_view::npos;
}

// GRAPHSOLVE_PORTABLE_KERNELS set to anything but "" asks for the portable
// kernels, "0" for the wide ones (under Valgrind too, for a tool that can
// run them); unset, the wide ones but under Valgrind.
bool wide_requested() {
  const char* portable = std::getenv("GRAPHSOLVE_PORTABLE_KERNELS");
  if (portable && *portable) return std::string_view(portable) == "0";
  return !under_valgrind();
}

const bool kAvailable = cpu_has_wide_kernels();

}  // namespace

// False until the library's initializers run: code that factorizes before
// then (another initializer) gets the portable kernels, which are correct.
std::atomic<bool> kernels::wide::in_use{kAvailable && wide_requested()};

Kernels active_kernels() { return kernels::wide::enabled() ? Kernels::Wide : Kernels::Portable; }

bool wide_kernels_available() { return kAvailable; }

bool use_kernels(Kernels choice) {
  if (choice == Kernels::Wide && !kAvailable) return false;
  kernels::wide::in_use.store(choice == Kernels::Wide, std::memory_order_relaxed);
  return true;
}

const char* to_string(Kernels choice) { return choice == Kernels::Wide ? "wide" : "portable"; }

}  // namespace graphsolve
