#include "mujoco_models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

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

void warn_on_stderr(const char* message) { std::fprintf(stderr, "MuJoCo warning: %s\n", message); }

std::string header() {
  return "<mujoco><option timestep='0.01' gravity='0 0 -9.81'/>"
         "<default><geom contype='0' conaffinity='0' size='0.05'/></default><worldbody>";
}

// Nested bodies per file: the reader's limit is 100 levels, and each file
// adds its own root and the deepest body's children.
constexpr std::size_t kLevelsPerFile = 50;

// A chain of nested bodies: levels[i] opens body i (its contents up to where
// its child body goes); all are closed by </body>. Past kLevelsPerFile levels
// the chain continues in a new part of `model`.
std::string nested(Mjcf& model, const std::vector<std::string>& levels, std::size_t begin = 0) {
  const std::size_t end = std::min(levels.size(), begin + kLevelsPerFile);
  std::string text;
  for (std::size_t i = begin; i < end; ++i) text += levels[i];
  if (end < levels.size()) {
    const std::size_t part = model.parts.size();
    model.parts.emplace_back();
    std::string rest = nested(model, levels, end);  // may add further parts
    model.parts[part] = "<mujoco>" + rest + "</mujoco>";
    text += "<include file='part" + std::to_string(part) + ".xml'/>";
  }
  for (std::size_t i = begin; i < end; ++i) text += "</body>";
  return text;
}

}  // namespace

Mjcf mjcf_n_link_pendulum(int links, bool spherical, double angle, double limit) {
  if (spherical && limit > 0.0)
    throw std::invalid_argument("mjcf_n_link_pendulum: MuJoCo limits a ball by a cone, not per axis as ours");
  std::ostringstream hinge;
  hinge.precision(17);
  hinge << "<joint type='hinge' axis='0 1 0'";
  if (limit > 0.0) {  // MJCF ranges are in degrees unless the compiler says otherwise
    const double degrees = limit * 180.0 / mjPI;
    hinge << " limited='true' range='" << -degrees << ' ' << degrees << "'";
  }
  hinge << "/>";
  Mjcf model;
  std::vector<std::string> levels;
  for (int i = 1; i <= links; ++i) {
    std::ostringstream s;
    s << "<body name='link" << i << "' pos='0 0 " << (i == 1 ? 0.0 : -kLength) << "'>" << rod_inertial('z', "0 0 -0.5")
      << (spherical ? "<joint type='ball'/>" : hinge.str()) << "<geom type='capsule' fromto='0 0 0 0 0 -1'/>";
    levels.push_back(s.str());
  }
  model.xml = header() + nested(model, levels) + "</worldbody></mujoco>";
  (void)angle;  // set through qpos by the caller
  return model;
}

// Segment: top bar (centre at its joint), left and right bars hanging from its
// ends, bottom bar from the left bar's tip; the bottom bar's right end is
// connected to the right bar's tip. The next top bar hangs below the bottom
// bar's centre.
Mjcf mjcf_four_link_chain(int segments, double angle) {
  Mjcf model;
  std::ostringstream equality;
  std::vector<std::string> levels;  // top (with its right bar), left, bottom of every segment
  for (int k = 1; k <= segments; ++k) {
    const std::string tag = std::to_string(k);
    std::ostringstream top, left, bottom;
    top << "<body name='top" << tag << "' pos='" << (k == 1 ? "0 0 0" : "0.5 0 -0.5") << "'>" << rod_inertial('x', "0 0 0")
        << "<joint type='hinge' axis='0 1 0' pos='0 0 " << (k == 1 ? 0.0 : 0.5) << "'/>"
        << "<geom type='capsule' fromto='-0.5 0 0 0.5 0 0'/>";
    top << "<body name='right" << tag << "' pos='0.5 0 0'>" << rod_inertial('z', "0 0 -0.5")
        << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -1'/></body>";
    left << "<body name='left" << tag << "' pos='-0.5 0 0'>" << rod_inertial('z', "0 0 -0.5")
         << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 0 0 -1'/>";
    bottom << "<body name='bottom" << tag << "' pos='0 0 -1'>" << rod_inertial('x', "0.5 0 0")
           << "<joint type='hinge' axis='0 1 0'/><geom type='capsule' fromto='0 0 0 1 0 0'/>";
    levels.insert(levels.end(), {top.str(), left.str(), bottom.str()});
    equality << "<connect body1='bottom" << tag << "' body2='right" << tag << "' anchor='1 0 0'/>";
  }
  model.xml = header() + nested(model, levels) + "</worldbody><equality>" + equality.str() + "</equality></mujoco>";
  (void)angle;
  return model;
}

namespace {

std::string contact_header(double mu) {
  std::ostringstream s;
  s.precision(17);
  s << "<mujoco><option timestep='0.01' gravity='0 0 -9.81'/><default><geom friction='" << mu
    << " 0.005 0.0001'/></default><worldbody><geom name='ground' type='plane' size='0 0 1'/>";
  return s.str();
}

// Turn of the joints of the dynamics sphere chain: 0.2 rad about z, alternating in sign.
constexpr double kBend = 0.2, kRadius = 0.25;

std::string bend_quat(double angle) {
  std::ostringstream s;
  s.precision(17);
  s << std::cos(0.5 * angle) << " 0 0 " << std::sin(0.5 * angle);
  return s.str();
}

}  // namespace

Mjcf mjcf_sphere_chain(int n, double height, double mu, ChainLayout layout) {
  const double r = kRadius;
  // Centres and headings of dynamics::sphere_chain: from each centre r along
  // its x axis to the joint, turn by the zigzag bend, r further to the next.
  std::vector<double> x(n + 1, 0.0), y(n + 1, 0.0), heading(n + 1, 0.0);
  for (int k = 2; k <= n; ++k) {
    const double turned = heading[k - 1] + (k % 2 == 0 ? kBend : -kBend);
    x[k] = x[k - 1] + r * (std::cos(heading[k - 1]) + std::cos(turned));
    y[k] = y[k - 1] + r * (std::sin(heading[k - 1]) + std::sin(turned));
    heading[k] = turned;
  }
  // Spheres meet the plane (their contype 1, its conaffinity 1), never each other.
  const std::string sphere = "<geom type='sphere' size='" + std::to_string(r) + "' mass='1' contype='1' conaffinity='0'/>";
  const auto free_body = [&](int k) {
    std::ostringstream s;
    s.precision(17);
    s << "<body name='sphere" << k << "' pos='" << x[k] << ' ' << y[k] << ' ' << height + r << "' quat='"
      << bend_quat(heading[k]) << "'><freejoint/>" << sphere;
    return s.str();
  };
  // A child in its parent's frame, its ball joint at the point they share.
  const auto child_body = [&](int child, int parent) {
    const double dx = x[child] - x[parent], dy = y[child] - y[parent], a = heading[parent];
    std::ostringstream s;
    s.precision(17);
    s << "<body name='sphere" << child << "' pos='" << std::cos(a) * dx + std::sin(a) * dy << ' '
      << -std::sin(a) * dx + std::cos(a) * dy << " 0' quat='" << bend_quat(heading[child] - a)
      << "'><joint type='ball' pos='" << (child > parent ? -r : r) << " 0 0'/>" << sphere;
    return s.str();
  };
  Mjcf model;
  std::string bodies, equality;
  if (layout == ChainLayout::FreeBodies) {
    for (int k = 1; k <= n; ++k) {
      bodies += free_body(k) + "</body>";
      if (k > 1)
        equality += "<connect body1='sphere" + std::to_string(k - 1) + "' body2='sphere" + std::to_string(k) + "' anchor='" +
                    std::to_string(r) + " 0 0'/>";
    }
  } else {
    const int root = layout == ChainLayout::TreeFromEnd ? 1 : (n + 1) / 2;
    std::vector<std::string> later, earlier;  // the branches towards sphere n and towards sphere 1
    for (int k = root + 1; k <= n; ++k) later.push_back(child_body(k, k - 1));
    for (int k = root - 1; k >= 1; --k) earlier.push_back(child_body(k, k + 1));
    bodies = free_body(root) + nested(model, later) + nested(model, earlier) + "</body>";
  }
  model.xml = contact_header(mu) + bodies + "</worldbody>" +
              (equality.empty() ? "" : "<equality>" + equality + "</equality>") + "</mujoco>";
  return model;
}

Mjcf mjcf_box_drop(double edge, double height, double mu) {
  std::ostringstream s;
  s.precision(17);
  s << contact_header(mu) << "<body name='box' pos='0 0 " << height + 0.5 * edge << "'><freejoint/>"
    << "<geom type='box' size='" << 0.5 * edge << ' ' << 0.5 * edge << ' ' << 0.5 * edge << "' mass='1'/></body>"
    << "</worldbody></mujoco>";
  return s.str();
}

Mjcf mjcf_box_stack(int count, double edge, double gap, double mu) {
  std::ostringstream s;
  s.precision(17);
  s << contact_header(mu);
  for (int i = 0; i < count; ++i)
    s << "<body name='box" << i + 1 << "' pos='0 0 " << (i + 0.5) * edge + (i + 1) * gap << "'><freejoint/>"
      << "<geom type='box' size='" << 0.5 * edge << ' ' << 0.5 * edge << ' ' << 0.5 * edge << "' mass='1'/></body>";
  s << "</worldbody></mujoco>";
  return s.str();
}

mjModel* load_mujoco(const Mjcf& model) {
  mju_user_warning = warn_on_stderr;
  char directory[] = "/tmp/dynamics_bench_XXXXXX";
  if (!mkdtemp(directory)) throw std::runtime_error("cannot create a temporary directory for MJCF files");
  std::vector<std::string> files{std::string(directory) + "/model.xml"};
  for (std::size_t i = 0; i < model.parts.size(); ++i)
    files.push_back(std::string(directory) + "/part" + std::to_string(i) + ".xml");
  bool written = true;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::ofstream out(files[i]);
    out << (i == 0 ? model.xml : model.parts[i - 1]);
    written = written && bool(out.flush());
  }
  char error[1000] = "";
  mjModel* m = written ? mj_loadXML(files[0].c_str(), nullptr, error, sizeof error) : nullptr;
  for (const std::string& file : files) std::remove(file.c_str());
  rmdir(directory);
  if (!written) throw std::runtime_error("cannot write temporary MJCF files");
  if (!m) throw std::runtime_error(std::string("MuJoCo rejected the model: ") + error);
  return m;
}

}  // namespace bench
