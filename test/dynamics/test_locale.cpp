// URDF files and built-in model parameters are read with decimal points even
// when the program runs under a decimal-comma locale.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "comma_locale.hpp"
#include "dynamics/dynamics.hpp"
#include "urdf_text.hpp"

namespace dyn = dynamics;

namespace {

// Link 2 carries a collision capsule with a friction coefficient: every
// number the loader reads itself (vectors, mu, capsule sizes) has a point.
std::string locale_test_robot() {
  using dyn::test::hinge;
  using dyn::test::rod;
  return "<robot name='dp'><link name='world'/>" + rod("link1") +
         "<link name='link2'><inertial><origin xyz='0 0 -0.5' rpy='0.25 0 0'/><mass value='1.5'/>"
         "<inertia ixx='0.125' iyy='0.125' izz='0.0625' ixy='0' ixz='0' iyz='0'/></inertial>"
         "<collision><origin xyz='0 0 -0.5'/><geometry><capsule radius='0.05' length='0.75'/></geometry>"
         "<contact_coefficients mu='0.35'/></collision></link>" +
         hinge("joint1", "world", "link1", "0 0 0") + hinge("joint2", "link1", "link2", "0 0 -1") + "</robot>";
}

void expect_same_model(const dyn::Model& a, const dyn::Model& b) {
  ASSERT_EQ(a.num_bodies(), b.num_bodies());
  ASSERT_EQ(a.num_contacts(), b.num_contacts());
  const dyn::State sa = dyn::make_state(a), sb = dyn::make_state(b);
  for (int i = 0; i < a.num_bodies(); ++i) {
    EXPECT_EQ(a.body(i).mass, b.body(i).mass);
    EXPECT_EQ(a.body(i).inertia, b.body(i).inertia);
    EXPECT_EQ(sa.position[i], sb.position[i]);
    EXPECT_EQ(sa.orientation[i].coeffs(), sb.orientation[i].coeffs());
  }
}

}  // namespace

TEST(Locale, UrdfAndParametersIgnoreTheProgramsDecimalComma) {
  const dyn::Model urdf_in_c = dyn::parse_urdf(locale_test_robot());
  const dyn::Model pendulum_in_c = dyn::make_builtin("pendulum", {{"length", "0.5"}, {"angle", "0.25"}});
  ASSERT_EQ(urdf_in_c.body(1).mass, 1.5);  // the reference itself read the points
  const gs_test::CommaLocale comma;
  expect_same_model(dyn::parse_urdf(locale_test_robot()), urdf_in_c);
  expect_same_model(dyn::make_builtin("pendulum", {{"length", "0.5"}, {"angle", "0.25"}}), pendulum_in_c);
}

TEST(Locale, ParametersAreDecimalNumbersOnly) {
  EXPECT_NO_THROW(dyn::make_builtin("n-link-pendulum", {{"n", "+3"}}));
  for (const char* bad : {"0x10", " 5", "5 ", "+-3", "1e400", "-1e999", ""})
    EXPECT_THROW(dyn::make_builtin("n-link-pendulum", {{"n", bad}}), std::invalid_argument) << "'" << bad << "'";
}

// Below the double range a value rounds to zero, as strtod rounds it, however
// it is written; the pendulum hangs as it does at angle 0.
TEST(Locale, ParametersBelowTheDoubleRangeRoundToZero) {
  const dyn::Model hanging = dyn::make_builtin("pendulum", {{"angle", "0"}});
  // The digits' own power counts as well as the exponent: 0.(400 zeros)1e50 is 1e-351.
  const std::vector<std::string> tiny_values = {"1e-400", "-1e-400", "0.000001e-320", "123.456e-330", "2e-324",
                                               "+1e-99999999999999999999",
                                               "0." + std::string(400, '0') + "1e50"};
  for (const std::string& tiny : tiny_values)
    expect_same_model(dyn::make_builtin("pendulum", {{"angle", tiny}}), hanging);
  const dyn::Model swung = dyn::make_builtin("pendulum", {{"angle", "1e-300"}});
  EXPECT_NE(dyn::make_state(swung).position[0], dyn::make_state(hanging).position[0]);  // not every small value is 0
  const std::vector<std::string> huge_values = {"1e400", "1000000000000000000000000000000000000e300", "0.01e311",
                                               "1" + std::string(400, '0') + "e-50"};
  for (const std::string& huge : huge_values)
    EXPECT_THROW(dyn::make_builtin("pendulum", {{"angle", huge}}), std::invalid_argument) << huge;
}
