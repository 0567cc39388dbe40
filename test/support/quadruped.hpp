#pragma once
// A quadruped written as URDF (8 kg box torso; abduction, hip and knee
// joints with limits, dampers on the abduction joints; cylinder thighs and
// sphere feet touching the ground), the kind of robot users drop onto the
// ground, and drops of it: a pose and rates of the torso and the legs.
// fails_within tells whether a simulator fails a drop's first steps.
#include <array>
#include <optional>
#include <sstream>
#include <string>

#include <Eigen/Core>

#include "dynamics/dynamics.hpp"

namespace dynamics::test {

inline std::string quadruped_urdf() {
  const auto inertial = [](double mass, const char* origin, const char* moments) {
    return std::string("<inertial><origin xyz='") + origin + "'/><mass value='" + std::to_string(mass) + "'/>" +
           "<inertia " + moments + " ixy='0' ixz='0' iyz='0'/></inertial>";
  };
  std::string xml = "<robot name='quadruped'><link name='torso'>" +
                    inertial(8.0, "0 0 0", "ixx='0.07' iyy='0.26' izz='0.3'") +
                    "<collision><geometry><box size='0.7 0.3 0.12'/></geometry></collision></link>";
  const char* legs[4][2] = {{"fl", "0.3 0.15 0"}, {"fr", "0.3 -0.15 0"}, {"hl", "-0.3 0.15 0"}, {"hr", "-0.3 -0.15 0"}};
  for (const auto& leg : legs) {
    const std::string n = leg[0];
    const auto joint = [&](const std::string& name, const std::string& parent, const std::string& child,
                           const char* origin, const char* axis, const char* lower, const char* upper) {
      return "<joint name='" + n + name + "' type='revolute'><parent link='" + n + parent + "'/><child link='" + n +
             child + "'/><origin xyz='" + origin + "'/><axis xyz='" + axis + "'/><limit lower='" + lower +
             "' upper='" + upper + "' effort='30' velocity='10'/></joint>";
    };
    xml += "<link name='" + n + "_hip'>" + inertial(0.7, "0 0 0", "ixx='5e-4' iyy='5e-4' izz='5e-4'") + "</link>";
    xml += "<joint name='" + n + "_abd' type='revolute'><parent link='torso'/><child link='" + n + "_hip'/>" +
           "<origin xyz='" + leg[1] + "'/><axis xyz='1 0 0'/><limit lower='-0.8' upper='0.8' effort='30' " +
           "velocity='10'/><dynamics damping='0.1'/></joint>";
    xml += "<link name='" + n + "_thigh'>" + inertial(1.0, "0 0 -0.1", "ixx='0.005' iyy='0.005' izz='5e-4'") +
           "<collision><origin xyz='0 0 -0.1'/><geometry><cylinder radius='0.025' length='0.2'/></geometry>" +
           "</collision></link>" + joint("_hip_j", "_hip", "_thigh", "0 0 0", "0 1 0", "-1.5", "1.5");
    xml += "<link name='" + n + "_calf'>" + inertial(0.2, "0 0 -0.1", "ixx='0.002' iyy='0.002' izz='1e-4'") +
           "<collision><origin xyz='0 0 -0.2'/><geometry><sphere radius='0.02'/></geometry></collision></link>" +
           joint("_knee", "_thigh", "_calf", "0 0 -0.2", "0 1 0", "-2.6", "-0.5");
  }
  return xml + "</robot>";
}

struct Drop {
  std::array<double, 6> torso_position, torso_velocity;  // x, y, z, rotation vector; v (world), omega (body)
  std::array<double, 12> legs;                           // abd, hip, knee of fl, fr, hl, hr
  std::array<double, 8> leg_rates;                       // hip, knee of fl, fr, hl, hr
};

inline void place(const Model& model, State& state, const Drop& drop) {
  const auto vector = [](const double* v, int n) { return Eigen::Map<const Eigen::VectorXd>(v, n).eval(); };
  set_joint_position(model, state, model.find_joint("torso"), vector(drop.torso_position.data(), 6));
  const char* names[4] = {"fl", "fr", "hl", "hr"};
  for (int i = 0; i < 4; ++i) {
    const std::string n = names[i];
    set_joint_position(model, state, model.find_joint(n + "_abd"), vector(&drop.legs[3 * i], 1));
    set_joint_position(model, state, model.find_joint(n + "_hip_j"), vector(&drop.legs[3 * i + 1], 1));
    set_joint_position(model, state, model.find_joint(n + "_knee"), vector(&drop.legs[3 * i + 2], 1));
  }
  set_joint_velocity(model, state, model.find_joint("torso"), vector(drop.torso_velocity.data(), 6));
  for (int i = 0; i < 4; ++i) {
    const std::string n = names[i];
    set_joint_velocity(model, state, model.find_joint(n + "_hip_j"), vector(&drop.leg_rates[2 * i], 1));
    set_joint_velocity(model, state, model.find_joint(n + "_knee"), vector(&drop.leg_rates[2 * i + 1], 1));
  }
}

// The command line's --q0 and --v0 that place `drop` as place() does.
inline std::string cli_arguments(const Drop& drop) {
  std::ostringstream out;
  out.precision(17);
  const auto values = [&](const double* v, int n) {
    for (int i = 0; i < n; ++i) out << (i ? ":" : "") << v[i];
  };
  const char* names[4] = {"fl", "fr", "hl", "hr"};
  out << "--q0 torso=";
  values(drop.torso_position.data(), 6);
  for (int i = 0; i < 4; ++i)
    out << "," << names[i] << "_abd=" << drop.legs[3 * i] << "," << names[i] << "_hip_j=" << drop.legs[3 * i + 1]
        << "," << names[i] << "_knee=" << drop.legs[3 * i + 2];
  out << " --v0 torso=";
  values(drop.torso_velocity.data(), 6);
  for (int i = 0; i < 4; ++i)
    out << "," << names[i] << "_hip_j=" << drop.leg_rates[2 * i] << "," << names[i] << "_knee=" << drop.leg_rates[2 * i + 1];
  return out.str();
}

// Whether `sim` fails a step within `steps` steps from `state` (a copy).
inline bool fails_within(Simulator& sim, State state, int steps) {
  for (int k = 0; k < steps; ++k)
    if (!sim.step(state).ok()) return true;
  return false;
}

// Steps `drop` (a fresh simulator with `options`) until a plain step
// reports a restart (`restarted(result)`), then takes that same step again
// as the first of two held sub-steps of a step twice as long, and returns
// that step's result; none if a step fails first or no plain step within
// `steps` restarted.
template <class Restarted>
std::optional<StepResult> restart_as_first_substep(const Model& model, const StepOptions& options, const Drop& drop,
                                                   int steps, Restarted restarted) {
  Simulator sim(model, options);
  State s = make_state(model);
  place(model, s, drop);
  for (int k = 0; k < steps; ++k) {
    State before = s;
    const StepResult r = sim.step(s);
    if (!r.ok()) return std::nullopt;
    if (!restarted(r) || r.substeps > 1) continue;
    StepOptions twice = options;
    twice.dt = 2.0 * options.dt;
    before.substep_memory = {2, 0, 1000};  // two sub-steps of dt, held
    Simulator halves(model, twice);
    return halves.step(before);
  }
  return std::nullopt;
}

}  // namespace dynamics::test
