#pragma once
// Matrix Market numbers have decimal points whatever locale the program set:
// under a decimal-comma locale (a GUI toolkit's setlocale(LC_ALL, "")),
// strtod would stop at the point of "1.5" and printf would write "1,5". This
// guard puts the calling thread in the "C" locale for its lifetime
// (uselocale is per thread), and gives the thread's locale back after.

#include <clocale>
#include <locale.h>

namespace graphsolve::detail {

class CNumericLocale {
 public:
  CNumericLocale() : c_(newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(nullptr))) {
    if (c_) previous_ = uselocale(c_);
  }
  ~CNumericLocale() {
    if (!c_) return;
    uselocale(previous_);
    freelocale(c_);
  }
  CNumericLocale(const CNumericLocale&) = delete;
  CNumericLocale& operator=(const CNumericLocale&) = delete;

 private:
  locale_t c_;
  locale_t previous_ = static_cast<locale_t>(nullptr);
};

}  // namespace graphsolve::detail
