#pragma once
// Standard gravity of the tests' models, in one place: a unity build puts
// several test files in one translation unit, where a constant defined in
// each would be defined twice.

namespace dynamics::test {

inline constexpr double kG = 9.81;  // m/s^2

}  // namespace dynamics::test
