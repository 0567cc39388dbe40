#pragma once
// A program that calls setlocale(LC_ALL, "") (GUI toolkits do) in a German
// environment reads and prints numbers with a decimal comma. CommaLocale puts
// the test process in that state for its lifetime: the C locale de_DE.UTF-8
// (compiled with localedef into a scratch directory when the system has not
// generated it; Debian's `locales` package has its source) and a C++ global
// locale whose decimal point is a comma. It throws if no such locale can be made.

#include <unistd.h>

#include <clocale>
#include <cstdlib>
#include <filesystem>
#include <locale>
#include <stdexcept>
#include <string>

namespace gs_test {

class CommaLocale {
 public:
  CommaLocale() {
    std::locale::global(std::locale(std::locale::classic(), new CommaPoint));
    if (!std::setlocale(LC_ALL, kName)) {
      dir_ = std::filesystem::temp_directory_path() / ("gs-locales-" + std::to_string(::getpid()));
      const std::string command = "localedef -i de_DE -f UTF-8 '" + (dir_ / kName).string() + "' >/dev/null 2>&1";
      std::filesystem::create_directories(dir_);
      const int built = std::system(command.c_str());
      ::setenv("LOCPATH", dir_.c_str(), 1);
      if (!std::setlocale(LC_ALL, kName)) {
        restore();
        throw std::runtime_error("cannot make the locale de_DE.UTF-8 (localedef exit status " + std::to_string(built) +
                                 "; is Debian's `locales` package installed?)");
      }
    }
    if (std::string(std::localeconv()->decimal_point) != ",") {
      restore();
      throw std::runtime_error("de_DE.UTF-8 does not have a decimal comma here");
    }
  }
  ~CommaLocale() { restore(); }
  CommaLocale(const CommaLocale&) = delete;
  CommaLocale& operator=(const CommaLocale&) = delete;

 private:
  static constexpr const char* kName = "de_DE.UTF-8";
  struct CommaPoint : std::numpunct<char> {
    char do_decimal_point() const override { return ','; }
  };
  std::filesystem::path dir_;  // the compiled locale, if the system had none

  void restore() {
    std::locale::global(std::locale::classic());
    std::setlocale(LC_ALL, "C");
    ::unsetenv("LOCPATH");
    std::error_code ignored;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ignored);
  }
};

}  // namespace gs_test
