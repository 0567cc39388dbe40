#pragma once
// Puts a setting that one solve changes back when the solve ends, thrown out
// of included (internal): a setting left behind would change every later step.

namespace dynamics::detail {

template <class Undo>
class OnExit {
 public:
  explicit OnExit(Undo undo) : undo_(undo) {}
  OnExit(const OnExit&) = delete;
  OnExit& operator=(const OnExit&) = delete;
  ~OnExit() { undo_(); }

 private:
  Undo undo_;
};

}  // namespace dynamics::detail
