// Built-in models by name, with typed parameters checked before building.
#include <cmath>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/contact_models.hpp"
#include "dynamics/models.hpp"
#include "did_you_mean.hpp"
#include "decimal_number.hpp"

namespace dynamics {
namespace {

std::string comma_separated(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

class Parameters {
 public:
  Parameters(const BuiltinModel& model, const std::map<std::string, std::string>& given) : model_(model) {
    for (const auto& [key, value] : given) {
      bool known = false;
      for (const ModelParameter& p : model.parameters) known = known || p.name == key;
      if (!known) {
        std::vector<std::string> names;
        for (const ModelParameter& p : model.parameters) names.push_back(p.name);
        throw std::invalid_argument("model '" + model.name + "' has no parameter '" + key + "'" +
                                    detail::did_you_mean(key, names) + " (parameters: " +
                                    (names.empty() ? "none" : comma_separated(names)) + ")");
      }
    }
    given_ = given;
  }

  std::string text(const std::string& name) const {
    const auto it = given_.find(name);
    if (it != given_.end()) return it->second;
    for (const ModelParameter& p : model_.parameters)
      if (p.name == name) return p.default_value;
    throw std::logic_error("undeclared parameter " + name);
  }

  double number(const std::string& name) const {
    const std::string t = text(name);
    const std::optional<double> v = graphsolve::decimal_number::parse_finite(t);
    if (!v)
      throw std::invalid_argument("model '" + model_.name + "': parameter '" + name + "' must be a number, got '" + t +
                                  "'");
    return *v;
  }

  // Counts of links, segments, contact points: capped so that a typo (1e9)
  // is an error here rather than an allocation failure later.
  int integer(const std::string& name) const {
    constexpr double kLargest = 1e6;
    const double v = number(name);
    if (v != std::floor(v) || v < 1 || v > kLargest)
      throw std::invalid_argument("model '" + model_.name + "': parameter '" + name +
                                  "' must be a positive integer up to 1000000, got '" + text(name) + "'");
    return static_cast<int>(v);
  }

  ChainJoint chain_joint(const std::string& name) const {
    const std::string t = text(name);
    if (t == "revolute") return ChainJoint::Revolute;
    if (t == "spherical") return ChainJoint::Spherical;
    throw std::invalid_argument("model '" + model_.name + "': parameter '" + name +
                                "' must be revolute or spherical, got '" + t + "'");
  }

  FrictionSpec friction() const {
    FrictionSpec f;
    const std::string t = text("friction");
    if (t == "none") f.model = FrictionModel::None;
    else if (t == "linearized") f.model = FrictionModel::Linearized;
    else if (t == "cone") f.model = FrictionModel::Cone;
    else
      throw std::invalid_argument("model '" + model_.name + "': parameter 'friction' must be none, linearized or cone, got '" +
                                  t + "'");
    f.coefficient = number("mu");
    f.directions = integer("directions");
    return f;
  }

 private:
  const BuiltinModel& model_;
  std::map<std::string, std::string> given_;
};

using Builder = std::function<Model(const Parameters&)>;

// The friction parameters every contact model takes.
std::vector<ModelParameter> with_friction(std::vector<ModelParameter> own, const char* mu) {
  own.push_back({"friction", "linearized", "none, linearized or cone"});
  own.push_back({"mu", mu, "friction coefficient"});
  own.push_back({"directions", "4", "linearized cone: number of friction directions (even)"});
  return own;
}

struct Entry {
  BuiltinModel info;
  Builder build;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"pendulum", "one link on a revolute joint",
        {{"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"}, {"angle", "0.5", "initial angle, rad"},
         {"damping", "0", "joint damping, N m s/rad"}, {"friction", "0", "joint Coulomb friction, N m"}}},
       [](const Parameters& p) {
         return pendulum(p.number("length"), p.number("mass"), p.number("angle"), p.number("damping"),
                         p.number("friction"));
       }},
      {{"damped-pendulum", "the papers' dissipation test: pendulum with damping 0.5",
        {{"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"}, {"angle", "0.5", "initial angle, rad"},
         {"damping", "0.5", "joint damping, N m s/rad"}}},
       [](const Parameters& p) {
         return pendulum(p.number("length"), p.number("mass"), p.number("angle"), p.number("damping"));
       }},
      {{"n-link-pendulum", "chain of n links",
        {{"n", "5", "number of links"}, {"joint", "revolute", "revolute or spherical"},
         {"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"},
         {"angle", "0.5", "initial angle of the first joint, rad"}}},
       [](const Parameters& p) {
         return n_link_pendulum(p.integer("n"), p.chain_joint("joint"), p.number("length"), p.number("mass"),
                                p.number("angle"));
       }},
      {{"double-pendulum", "two links on revolute joints",
        {{"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"}, {"angle1", "1.5", "rad"},
         {"angle2", "0", "rad"}}},
       [](const Parameters& p) {
         return double_pendulum(p.number("length"), p.number("mass"), p.number("angle1"), p.number("angle2"));
       }},
      {{"three-link-loop", "links 1, sqrt(2)/2, 1 m closing a loop with the world",
        {{"angle", "0.785398163397448", "initial angle of the side links, rad"}}},
       [](const Parameters& p) { return three_link_loop(p.number("angle")); }},
      {{"four-bar", "parallelogram four-bar linkage",
        {{"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"}, {"angle", "0.5", "crank angle, rad"}}},
       [](const Parameters& p) { return four_bar(p.number("length"), p.number("mass"), p.number("angle")); }},
      {{"double-four-bar", "two four-bars sharing a crank; passes singular configurations",
        {{"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"},
         {"speed", "8", "initial crank speed, rad/s"}}},
       [](const Parameters& p) {
         return double_four_bar(p.number("length"), p.number("mass"), p.number("speed"));
       }},
      {{"four-link-chain", "k square four-link loops hung one below the other",
        {{"k", "2", "number of segments"}, {"length", "1", "link length, m"}, {"mass", "1", "link mass, kg"},
         {"angle", "0.3", "initial tilt, rad"}}},
       [](const Parameters& p) {
         return four_link_chain(p.integer("k"), p.number("length"), p.number("mass"), p.number("angle"));
       }},
      {{"t-handle", "free body spinning about its middle axis (Dzhanibekov effect), no gravity",
        {{"spin", "10", "spin rate, rad/s"}, {"perturbation", "0.01", "rate about the other axes, rad/s"}}},
       [](const Parameters& p) { return t_handle(p.number("spin"), p.number("perturbation")); }},
      {{"scaled-pendulum", "pendulum of mass s and length s^2 released horizontal",
        {{"scale", "1", "scale s"}}},
       [](const Parameters& p) { return scaled_pendulum(p.number("scale")); }},
      {{"box-drop", "cube dropped on the ground (contacts at its 8 corners)",
        with_friction({{"edge", "0.5", "edge length, m"}, {"mass", "1", "kg"},
                       {"height", "0.4", "initial height of the bottom above the ground, m"}},
                      "0.5")},
       [](const Parameters& p) {
         return box_drop(p.number("edge"), p.number("mass"), p.number("height"), p.friction());
       }},
      {{"sliding-box", "cube (0.5 m, 1 kg) sliding on the ground until friction stops it",
        with_friction({{"speed", "2", "initial speed along x, m/s"}}, "0.2")},
       [](const Parameters& p) { return sliding_box(p.number("speed"), p.friction()); }},
      {{"box-incline", "cube (0.5 m, 1 kg) released on an inclined plane",
        with_friction({{"angle", "0.3", "incline angle, rad"}}, "0.5")},
       [](const Parameters& p) { return box_incline(p.number("angle"), p.friction()); }},
      {{"sphere-chain", "n spheres (0.25 m, 1 kg) on spherical joints dropped on the ground",
        with_friction({{"n", "5", "number of spheres"}, {"height", "0.1", "drop height, m"}}, "0.5")},
       [](const Parameters& p) { return sphere_chain(p.integer("n"), p.number("height"), p.friction()); }},
      {{"cylinder-contacts", "cylinder (1 kg, r 0.5 m) with c contact points on its base rim, sliding and turning",
        with_friction({{"c", "8", "number of contact points"}, {"speed", "1", "initial speed, m/s and rad/s"}}, "0.2")},
       [](const Parameters& p) { return cylinder_contacts(p.integer("c"), p.number("speed"), p.friction()); }},
      {{"cylinder-chain", "n cylindrical links (1 m, 1 kg) on spherical joints lying on the ground, n + 1 contacts",
        with_friction({{"n", "5", "number of links"}, {"speed", "1", "initial sideways speed, m/s"}}, "0.2")},
       [](const Parameters& p) { return cylinder_chain(p.integer("n"), p.number("speed"), p.friction()); }},
      {{"hopper", "floating sphere with a pole on an actuated prismatic joint (limits +-0.2 m), foot contact",
        with_friction({}, "0.2")},
       [](const Parameters& p) { return hopper(p.friction()); }},
      {{"quadruped", "floating trunk with four 3-link legs held by joint springs, knee limits, foot contacts",
        with_friction({{"stiffness", "60", "joint spring stiffness, N m/rad (damping 0.005 of it)"}}, "0.8")},
       [](const Parameters& p) { return quadruped(p.number("stiffness"), p.friction()); }},
      {{"sphere-collision", "two spheres (0.25 m, 1 kg) colliding in zero gravity (contact between bodies)",
        with_friction({{"speed", "2", "speed of the moving sphere, m/s"},
                       {"offset", "0", "sideways offset of its path, m (0: head on)"}},
                      "0.5")},
       [](const Parameters& p) { return sphere_collision(p.number("speed"), p.number("offset"), p.friction()); }},
      {{"box-stack", "cubes (0.5 m, 1 kg) stacked on the ground, resting on each other's corners",
        with_friction({{"n", "3", "number of cubes"}}, "0.5")},
       [](const Parameters& p) { return box_stack(p.integer("n"), p.friction()); }},
      {{"ball-on-table", "sphere (0.1 m, 1 kg) dropped on a static box table (world collider)",
        with_friction({{"height", "0.3", "drop height above the table, m"}, {"speed", "0", "sideways speed, m/s"}},
                      "0.5")},
       [](const Parameters& p) { return ball_on_table(p.number("height"), p.number("speed"), p.friction()); }},
      {{"gripper", "two coupled fingers squeeze a loose cube (8 cm, 0.1 kg) and hold it up by friction",
        with_friction({{"squeeze", "5", "spring force closing the fingers, N"}}, "0.5")},
       [](const Parameters& p) { return gripper(p.number("squeeze"), p.friction()); }},
  };
  return list;
}

}  // namespace

const std::vector<BuiltinModel>& builtin_models() {
  static const std::vector<BuiltinModel> infos = [] {
    std::vector<BuiltinModel> v;
    for (const Entry& e : entries()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

Model make_builtin(const std::string& name, const std::map<std::string, std::string>& parameters) {
  for (const Entry& e : entries())
    if (e.info.name == name) return e.build(Parameters(e.info, parameters));
  std::vector<std::string> names;
  for (const Entry& e : entries()) names.push_back(e.info.name);
  throw std::invalid_argument("unknown model '" + name + "'" + detail::did_you_mean(name, names) +
                              " (built-in models: " + comma_separated(names) + ")");
}

}  // namespace dynamics
