#include "cli_options.hpp"

#include <cctype>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/coordinates.hpp"
#include "dynamics/models.hpp"
#include "did_you_mean.hpp"
#include "decimal_number.hpp"

namespace dynamics::cli {
namespace {

// A decimal number, as the library reads model parameters (parse_finite: no
// hexadecimal, whatever the locale); blanks around it are allowed, so that a
// quoted "0, 0, -9.81" reads as written.
double parse_number(const std::string& text, const std::string& what) {
  namespace decimal = graphsolve::decimal_number;
  const std::string_view trimmed = decimal::without_blanks(text);
  if (const std::optional<double> value = decimal::parse_finite(trimmed)) return *value;
  if (decimal::beyond_double_range(trimmed)) throw std::invalid_argument(what + ": must be finite, got '" + text + "'");
  throw std::invalid_argument(what + ": '" + text + "' is not a number");
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.push_back("");
  return parts;
}

}  // namespace

std::map<std::string, std::string> parse_params(const std::vector<std::string>& items) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("--param: expected key=value, got '" + item + "'");
    if (!out.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw std::invalid_argument("--param: '" + item.substr(0, eq) + "' is given twice");
  }
  return out;
}

Eigen::Vector3d parse_gravity(const std::string& text) {
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() != 3) throw std::invalid_argument("--gravity: expected x,y,z, got '" + text + "'");
  return Eigen::Vector3d(parse_number(parts[0], "--gravity"), parse_number(parts[1], "--gravity"),
                         parse_number(parts[2], "--gravity"));
}

std::map<std::string, std::vector<double>> parse_joint_values(const std::vector<std::string>& items,
                                                              const char* option) {
  std::map<std::string, std::vector<double>> out;
  for (const std::string& item : items) {
    // Values never hold ',' or '=', names may (URDF allows any text): a piece
    // without '=' is part of the next piece's name, and a name ends at its
    // entry's last '='.
    std::vector<std::string> entries;
    std::string pending;
    for (const std::string& piece : split(item, ',')) {
      pending += piece;
      if (pending.find('=') == std::string::npos) {
        pending += ',';
        continue;
      }
      entries.push_back(pending);
      pending.clear();
    }
    if (!pending.empty()) entries.push_back(pending.substr(0, pending.size() - 1));
    for (const std::string& entry : entries) {
      const auto eq = entry.rfind('=');
      if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(std::string(option) + ": expected joint=value[:value...], got '" + entry + "'");
      std::vector<double> values;
      for (const std::string& v : split(entry.substr(eq + 1), ':'))
        values.push_back(parse_number(v, std::string(option) + " " + entry.substr(0, eq)));
      if (!out.emplace(entry.substr(0, eq), values).second)
        throw std::invalid_argument(std::string(option) + ": joint '" + entry.substr(0, eq) + "' is given twice");
    }
  }
  return out;
}

HalfSpace parse_ground(const std::string& text) {
  const std::vector<std::string> parts = split(text, ',');
  if (parts.size() != 3 && parts.size() != 4)
    throw std::invalid_argument("--ground: expected nx,ny,nz[,offset], got '" + text + "'");
  HalfSpace h;
  h.normal = Eigen::Vector3d(parse_number(parts[0], "--ground"), parse_number(parts[1], "--ground"),
                             parse_number(parts[2], "--ground"));
  if (parts.size() == 4) h.offset = parse_number(parts[3], "--ground");
  return h;
}

namespace {

bool ends_with_ignoring_case(const std::string& text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  const std::size_t start = text.size() - suffix.size();
  for (std::size_t i = 0; i < suffix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(text[start + i])) != suffix[i]) return false;
  return true;
}

bool is_builtin_name(const std::string& model) {
  for (const BuiltinModel& b : builtin_models())
    if (b.name == model) return true;
  return false;
}

}  // namespace

bool is_urdf_path(const std::string& model) {
  if (ends_with_ignoring_case(model, ".urdf")) return true;
  if (is_builtin_name(model) || ends_with_ignoring_case(model, ".xacro")) return false;
  // Any file but a directory: a pipe too (xacro robot.xacro | dynamics
  // simulate /dev/stdin, or a shell's <(...)).
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(model, error);
  return std::filesystem::exists(status) && !std::filesystem::is_directory(status);
}

void check_model_file(const std::string& model) {
  std::error_code error;
  if (ends_with_ignoring_case(model, ".xacro") && std::filesystem::is_regular_file(model, error))
    throw std::invalid_argument(model + ": a xacro file, which is a template for a URDF file: expand it first (xacro " +
                                model + " > robot.urdf) and simulate the .urdf file");
  // Built-in names hold neither; a path that names nothing is a file's name
  // mistyped (or a directory), not a model to look up among the built-ins.
  if (model.find_first_of("./") != std::string::npos && !is_builtin_name(model)) {
    const char* what = std::filesystem::is_directory(model, error) ? "a directory" : "no such file";
    throw std::invalid_argument(model + ": " + what +
                                ", and no built-in model has that name (`dynamics models` lists them)");
  }
}

namespace {

// The joints --q0 / --v0 can set.
std::vector<std::string> settable_joints(const Model& model, const Topology& topology) {
  std::vector<std::string> names;
  for (int j = 0; j < model.num_joints(); ++j)
    if (model.joint(j).num_coordinates() > 0 && !topology.closes_loop[j] && model.coupling_of_follower(j) < 0)
      names.push_back(model.joint(j).name);
  return names;
}

// For the error that names an unknown joint: "a, b, c" (the first twelve,
// then how many in all), or "none".
std::string listed(const std::vector<std::string>& names) {
  constexpr std::size_t kShown = 12;
  std::string list;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) list += (i > 0 ? ", " : "") + names[i];
  if (names.size() > kShown) list += ", ... (" + std::to_string(names.size()) + " in all)";
  return names.empty() ? "none" : list;
}

// The joint a --q0 / --v0 name means: the joint of that name, else the one
// named by it without the blanks around it ("a = 1, b = 2", quoted, reads
// as written); -1 if neither exists.
int named_joint(const Model& model, const std::string& name) {
  const int exact = model.find_joint(name);
  return exact >= 0 ? exact : model.find_joint(std::string(graphsolve::decimal_number::without_blanks(name)));
}

void apply(const Model& model, const Topology& topology, const std::map<std::string, std::vector<double>>& given,
           const char* option, Eigen::VectorXd& all) {
  std::map<int, std::string> seen;  // joint -> the name that set it
  for (const auto& [name, values] : given) {
    const int j = named_joint(model, name);
    if (j >= 0 && !seen.emplace(j, name).second)
      throw std::invalid_argument(std::string(option) + ": joint '" + model.joint(j).name + "' is given twice (as '" +
                                  seen[j] + "' and '" + name + "')");
    if (j < 0) {
      const std::vector<std::string> settable = settable_joints(model, topology);
      throw std::invalid_argument(std::string(option) + ": unknown joint '" + name + "'" +
                                  detail::did_you_mean(name, settable) + " (joints with coordinates: " +
                                  listed(settable) + "; fixed joints have none)");
    }
    const Joint& joint = model.joint(j);
    if (static_cast<int>(values.size()) != joint.num_coordinates())
      throw std::invalid_argument(std::string(option) + ": joint '" + joint.name + "' (" +
                                  joint_type_name(joint.freedom) + ") has " +
                                  std::to_string(joint.num_coordinates()) +
                                  (joint.num_coordinates() == 1 ? " coordinate" : " coordinates") + ", got " +
                                  std::to_string(values.size()));
    if (topology.closes_loop[j])
      throw std::invalid_argument(std::string(option) + ": joint '" + joint.name +
                                  "' closes a loop; its coordinates follow from the other joints");
    const int coupling = model.coupling_of_follower(j);
    if (coupling >= 0) {
      const int leader = model.coupling(coupling).leader, root = model.coupling_root(j);
      throw std::invalid_argument(std::string(option) + ": joint '" + joint.name + "' follows joint '" +
                                  model.joint(leader).name + "' (coupling '" + model.coupling(coupling).name +
                                  "'); give " +
                                  (root == leader ? std::string("the leader's value")
                                                  : "the value of the chain's leader, '" + model.joint(root).name + "'"));
    }
    for (std::size_t i = 0; i < values.size(); ++i) all(model.coordinate_offset(j) + static_cast<int>(i)) = values[i];
  }
}

// "joint 'a'" or, for a joint with several coordinates, "joint 'a' coordinate 2".
std::string coordinate_name(const Model& model, const LimitViolation& v) {
  const Joint& joint = model.joint(v.joint);
  std::string name = "joint '" + joint.name + "'";
  if (joint.num_coordinates() > 1) name += " coordinate " + std::to_string(v.coordinate);
  return name;
}

std::string beyond(const LimitViolation& v) {
  std::ostringstream text;
  text.precision(6);
  text << " at " << v.value << " lies " << (v.lower ? "below its lower" : "above its upper") << " limit " << v.bound;
  return text.str();
}

// What a joint's coordinates follow from, if not from --q0: "joint 'a'" for
// a coupling's follower, "the other joints" for a loop-closing joint.
std::string follows_from(const Model& model, const Topology& topology, int joint) {
  const int coupling = model.coupling_of_follower(joint);
  if (coupling >= 0) return "joint '" + model.joint(model.coupling(coupling).leader).name + "'";
  return topology.closes_loop[joint] ? "the other joints" : "";
}

// A default coordinate outside its limits starts on the limit (with a
// warning); a --q0 value outside them is an error. Coordinates that follow
// from others are judged by check_limits, once those have moved.
bool move_onto_limits(const Model& model, const Topology& topology, const std::map<std::string, std::vector<double>>& q0,
                      State& state, Eigen::VectorXd& q, std::vector<std::string>& warnings) {
  bool moved = false;
  for (const LimitViolation& v : limit_violations(model, state, 1e-12)) {
    const std::string name = coordinate_name(model, v);
    if (q0.count(model.joint(v.joint).name)) throw std::invalid_argument("--q0: " + name + beyond(v));
    if (!follows_from(model, topology, v.joint).empty()) continue;
    q(model.coordinate_offset(v.joint) + v.coordinate) = v.bound;
    warnings.push_back("initial state: " + name + beyond(v) + "; it starts on the limit (choose with --q0)");
    moved = true;
  }
  if (moved) set_joint_positions(model, state, q);
  return moved;
}

void check_limits(const Model& model, const Topology& topology, const State& state) {
  for (const LimitViolation& v : limit_violations(model, state, 1e-9)) {
    const std::string from = follows_from(model, topology, v.joint);
    throw std::invalid_argument("initial state: " + coordinate_name(model, v) + beyond(v) +
                                (from.empty() ? "" : "; its value follows from " + from) +
                                ": choose values inside the limits with --q0");
  }
}

}  // namespace

InitialState initial_state(const Model& model, const std::map<std::string, std::vector<double>>& q0,
                           const std::map<std::string, std::vector<double>>& v0) {
  InitialState init;
  init.state = make_state(model);
  const Topology topology = compute_topology(model);
  Eigen::VectorXd q = joint_positions(model, init.state), v = joint_velocities(model, init.state);
  apply(model, topology, q0, "--q0", q);
  apply(model, topology, v0, "--v0", v);
  if (!q0.empty()) set_joint_positions(model, init.state, q);
  const bool moved = move_onto_limits(model, topology, q0, init.state, q, init.warnings);
  if (q0.empty() && v0.empty() && !moved) {
    check_limits(model, topology, init.state);
    return init;
  }
  const ProjectionResult p = project_positions(model, init.state);
  if (!p.converged)
    throw std::invalid_argument("the given coordinates cannot be projected onto the joint constraints: " +
                                describe_violation(model, p));
  check_limits(model, topology, init.state);
  init.projected = p.iterations > 0;
  init.correction_translation = p.translation;
  init.correction_rotation = p.rotation;
  set_joint_velocities(model, init.state, v);
  init.velocity_change = project_velocities(model, init.state);
  return init;
}

}  // namespace dynamics::cli
