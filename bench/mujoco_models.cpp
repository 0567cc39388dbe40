#include "mujoco_models.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include <unistd.h>

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

namespace {

std::string contact_header(double mu) {
  std::ostringstream s;
  s.precision(17);
  s << "<mujoco><option timestep='0.01' gravity='0 0 -9.81'/><default><geom friction='" << mu
    << " 0.005 0.0001'/></default><worldbody><geom name='ground' type='plane' size='0 0 1'/>";
  return s.str();
}

// Turn of every joint of the dynamics sphere chain: 0.2 rad about z.
constexpr double kBend = 0.2, kRadius = 0.25;

std::string bend_quat(double angle) {
  std::ostringstream s;
  s.precision(17);
  s << std::cos(0.5 * angle) << " 0 0 " << std::sin(0.5 * angle);
  return s.str();
}

}  // namespace

std::string mjcf_sphere_chain(int n, double height, double mu, bool tree) {
  std::ostringstream s, equality;
  s.precision(17);
  s << contact_header(mu);
  const double r = kRadius;
  if (tree) {
    // Body 1's frame is its centre; every later frame sits at the joint point
    // with its centre r further along its x axis.
    s << "<body name='s1' pos='0 0 " << height + r << "'><freejoint/><geom type='sphere' size='" << r
      << "' mass='1'/>";
    for (int k = 2; k <= n; ++k)
      s << "<body name='s" << k << "' pos='" << (k == 2 ? r : 2.0 * r) << " 0 0' quat='" << bend_quat(kBend)
        << "'><joint type='ball'/><geom type='sphere' size='" << r << "' pos='" << r << " 0 0' mass='1'/>";
    for (int k = 1; k <= n; ++k) s << "</body>";
    s << "</worldbody></mujoco>";
    return s.str();
  }
  double x = 0.0, y = 0.0, angle = 0.0;
  for (int k = 1; k <= n; ++k) {
    if (k > 1) {  // centre to joint point along the previous x, then along the turned x
      x += r * std::cos(angle);
      y += r * std::sin(angle);
      angle += kBend;
      x += r * std::cos(angle);
      y += r * std::sin(angle);
      equality << "<connect body1='s" << k - 1 << "' body2='s" << k << "' anchor='" << r << " 0 0'/>";
    }
    s << "<body name='s" << k << "' pos='" << x << ' ' << y << ' ' << height + r << "' quat='" << bend_quat(angle)
      << "'><freejoint/><geom type='sphere' size='" << r << "' mass='1'/></body>";
  }
  s << "</worldbody><equality>" << equality.str() << "</equality></mujoco>";
  return s.str();
}

std::string mjcf_box_drop(double edge, double height, double mu) {
  std::ostringstream s;
  s.precision(17);
  s << contact_header(mu) << "<body name='box' pos='0 0 " << height + 0.5 * edge << "'><freejoint/>"
    << "<geom type='box' size='" << 0.5 * edge << ' ' << 0.5 * edge << ' ' << 0.5 * edge << "' mass='1'/></body>"
    << "</worldbody></mujoco>";
  return s.str();
}

std::string mjcf_box_stack(int count, double edge, double gap, double mu) {
  std::ostringstream s;
  s.precision(17);
  s << contact_header(mu);
  for (int i = 0; i < count; ++i)
    s << "<body name='box" << i + 1 << "' pos='0 0 " << (i + 0.5) * edge + (i + 1) * gap << "'><freejoint/>"
      << "<geom type='box' size='" << 0.5 * edge << ' ' << 0.5 * edge << ' ' << 0.5 * edge << "' mass='1'/></body>";
  s << "</worldbody></mujoco>";
  return s.str();
}

mjModel* load_mujoco(const std::string& xml) {
  char path[] = "/tmp/dynamics_bench_XXXXXX.xml";
  const int fd = mkstemps(path, 4);
  if (fd < 0) throw std::runtime_error("cannot create a temporary MJCF file");
  const bool written = write(fd, xml.data(), xml.size()) == static_cast<ssize_t>(xml.size());
  close(fd);
  if (!written) {
    std::remove(path);
    throw std::runtime_error("cannot write a temporary MJCF file");
  }
  char error[1000] = "";
  mjModel* m = mj_loadXML(path, nullptr, error, sizeof error);
  std::remove(path);
  if (!m) throw std::runtime_error(std::string("MuJoCo rejected the model: ") + error);
  return m;
}

}  // namespace bench
