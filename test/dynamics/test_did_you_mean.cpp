// The hint for a mistyped model, parameter or joint name.
#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "did_you_mean.hpp"
#include "dynamics/dynamics.hpp"

namespace dynamics {
namespace {

using detail::did_you_mean;
using detail::edit_distance;

TEST(DidYouMean, EditDistanceCountsSwapsOfNeighboursAsOne) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3);  // two substitutions and an insertion
  EXPECT_EQ(edit_distance("lenght", "length"), 1);
  EXPECT_EQ(edit_distance("ab", "ba"), 1);
  EXPECT_EQ(edit_distance("", "abc"), 3);
  EXPECT_EQ(edit_distance("abc", ""), 3);
  EXPECT_EQ(edit_distance("same", "same"), 0);
  EXPECT_EQ(edit_distance("ca", "abc"), 3);  // no edit of a swapped pair again
}

TEST(DidYouMean, NamesTheOneNearestKnownName) {
  const std::vector<std::string> models = {"pendulum", "double-pendulum", "four-bar", "double-four-bar", "t-handle"};
  EXPECT_EQ(did_you_mean("double_pendulum", models), ", did you mean 'double-pendulum'?");
  EXPECT_EQ(did_you_mean("Four Bar", models), ", did you mean 'four-bar'?");
  EXPECT_EQ(did_you_mean("DOUBLE_PENDULUM", models), ", did you mean 'double-pendulum'?");  // case and "_" fold
  EXPECT_EQ(did_you_mean("pendlum", models), ", did you mean 'pendulum'?");
  EXPECT_EQ(did_you_mean("t-hanlde", models), ", did you mean 't-handle'?");
  EXPECT_EQ(did_you_mean("four-bars", models), ", did you mean 'four-bar'?");
  // Too far from every name, or as near to two: no guess.
  EXPECT_EQ(did_you_mean("spring", models), "");
  EXPECT_EQ(did_you_mean("", models), "");
  EXPECT_EQ(did_you_mean("joint3", {"joint1", "joint2"}), "");
  EXPECT_EQ(did_you_mean("ab", {"a", "b"}), "");
  // Short names need proportionally closer misses: one edit in three letters is too many.
  EXPECT_EQ(did_you_mean("dt", {"dx"}), "");
  EXPECT_EQ(did_you_mean("a", {}), "");
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(DidYouMean, BuiltinModelsAndTheirParametersSuggest) {
  EXPECT_NE(error_of([] { make_builtin("double_pendulum"); })
                .find("unknown model 'double_pendulum', did you mean 'double-pendulum'? (built-in models: pendulum"),
            std::string::npos);
  EXPECT_NE(error_of([] { make_builtin("pendulum", {{"lenght", "2"}}); })
                .find("model 'pendulum' has no parameter 'lenght', did you mean 'length'? (parameters: length"),
            std::string::npos);
  EXPECT_NE(error_of([] { make_builtin("nothing"); }).find("unknown model 'nothing' (built-in models:"),
            std::string::npos);
}

}  // namespace
}  // namespace dynamics
