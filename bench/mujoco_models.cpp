#include "mujoco_models.hpp"

#include <cmath>
#include <sstream>

namespace bench {
namespace {

constexpr double kLength = 1.0, kMass = 1.0;

// Rod inertia of dynamics::make_link about its centre; `along` is the rod axis.
std::string rod_inertial(char along, const std::string& pos) {
  const double side = kMass * kLength * kLength / 12.0, r = 0.05 * kLength, axial = 0.5 * kMass * r * r;
  std::ostringstream s;
  s.precision(17);
  s << "<inertial pos='" << pos << "' mass='" << kMass << "' diaginertia='" << (along == 'x' ? axial : side) << ' '
    << side << ' ' << (along == 'z' ? axial : side) << "'/>";
  return s.str();
}

std::string header() {
  return "<mujoco><option timestep='0.01' gravity='0 0 -9.81'/>"
         "<default><geom contype='0' conaffinity='0' size='0.05'/></default><worldbody>";
}

}  // namespace

std::string mjcf_n_link_pendulum(int links, bool spherical, double angle) {
  std::ostringstream s;
  s << header();
  for (int i = 1; i <= links; ++i) {
    s << "<body name='link" << i << "' pos='0 0 " << (i == 1 ? 0.0 : -kLength) << "'>" << rod_inertial('z', "0 0 -0.5")
      << (spherical ? "<joint type='ball'/>" : "<joint type='hinge' axis='0 1 0'/>")
      << "<geom type='capsule' fromto='0 0 0 0 0 -1'/>";
  }
  for (int i = 0; i < links; ++i) s << "</body>";
  s << "</worldbody></mujoco>";
  (void)angle;  // set through qpos by the caller
  return s.str();
}

// Segment: top bar (centre at its joint), left and right bars hanging from its
// ends, bottom bar from the left bar's tip; the bottom bar's right end is
// connected to the right bar's tip. The next top bar hangs below the bottom
// bar's centre.
std::string mjcf_four_link_chain(int segments, double angle) {
  std::ostringstream s, equality;
  s << header();
  for (int k = 1; k <= segments; ++k) {
    const std::string tag = std::to_string(k);
    if (k == 1) s << "<body name='top1' pos='0 0 0'>";
    else s << "<body name='top" << tag << "' pos='0.5 0 -0.5'>";
    s << rod_inertial('x', "0 0 0") << "<joint type='hinge' axis='0 1 0' pos='0 0 " << (k == 1 ? 0.0 : 0.5) << "'/>"
      << "<geom type='capsule' fromto='-0.5 0 0 0.5 0 0'/>";
    s << "<body name='right" << tag << "' pos='0.5 0 0'>" << rod_inertial('z', "0 0 -0.5")
      << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -1'/></body>";
    s << "<body name='left" << tag << "' pos='-0.5 0 0'>" << rod_inertial('z', "0 0 -0.5")
      << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -1'/>";
    s << "<body name='bottom" << tag << "' pos='0 0 -1'>" << rod_inertial('x', "0.5 0 0")
      << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 1 0 0'/>";
    equality << "<connect body1='bottom" << tag << "' body2='right" << tag << "' anchor='1 0 0'/>";
  }
  // Close: bottom, left, top of every segment (nested from the last one out).
  for (int k = segments; k >= 1; --k) s << "</body></body></body>";
  s << "</worldbody><equality>" << equality.str() << "</equality></mujoco>";
  (void)angle;
  return s.str();
}

}  // namespace bench
