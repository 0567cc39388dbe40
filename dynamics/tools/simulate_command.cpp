// `dynamics simulate` and `dynamics models`.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_options.hpp"
#include "exact_decimal.hpp"
#include "format_number.hpp"
#include "light_links.hpp"
#include "load_check.hpp"
#include "output_file.hpp"
#include "dynamics/dynamics.hpp"

namespace dynamics::cli {

namespace output_file = graphsolve::output_file;
namespace {

// Every warning goes to standard error as it happens and into the --json
// summary's "warnings", so that a script reads them as data.
class Warnings {
 public:
  void add(const std::string& line) {
    std::cerr << "dynamics: warning: " << line << '\n';
    lines_.push_back(line);
  }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
};

// `urdf`: is_urdf_path(o.model), decided once per run (it looks at the file).
Model load_model(const SimulateOptions& o, bool urdf, Warnings& warnings) {
  if (urdf) {
    if (!o.params.empty()) throw std::invalid_argument("--param applies to built-in models only, not to URDF files");
    UrdfOptions options;
    options.fuse_welded_links = !o.keep_welded_links;
    options.fixed_base = o.fixed_base;
    options.collision_contacts = !o.no_contacts;
    options.bound_mass = o.bound_mass;
    options.bound_inertia = o.bound_inertia;
    options.balance_inertia = o.balance_inertia;
    if (o.friction >= 0.0) options.contacts.friction_coefficient = o.friction;
    std::vector<std::string> ignored;
    Model model = load_urdf(o.model, options, &ignored);
    for (const std::string& line : ignored) warnings.add(o.model + ": " + line);
    return model;
  }
  check_model_file(o.model);
  if (o.keep_welded_links) throw std::invalid_argument("--keep-welded-links applies to URDF files only");
  if (o.fixed_base) throw std::invalid_argument("--fixed-base applies to URDF files only");
  if (o.no_contacts) throw std::invalid_argument("--no-contacts applies to URDF files only");
  if (o.bound_mass > 0.0 || o.bound_inertia > 0.0)
    throw std::invalid_argument("--bound-mass and --bound-inertia apply to URDF files only");
  if (o.balance_inertia) throw std::invalid_argument("--balance-inertia applies to URDF files only");
  return make_builtin(o.model, parse_params(o.params));
}

// Initial rates that no step can carry, not even the finest sub-steps allowed
// (a quarter turn per step, |w| >= sqrt(2)/dt: see Simulator), are bad
// input, named before anything else uses them. Returns the longest of the step sizes a
// step tries (dt, dt/2, ...: next_substeps) that carries them: the step size
// of the initial state's midpoint energy.
double check_initial_spin(const Model& model, const State& state, double dt, int max_substeps) {
  for (int pieces = 1;; pieces = next_substeps(pieces, max_substeps)) {
    const double h = dt / pieces;
    int fast = -1;
    for (int b = 0; b < model.num_bodies() && fast < 0; ++b)
      if (!turns_within_a_quarter(state.angular_velocity[b], h)) fast = b;
    if (fast < 0) return h;
    if (next_substeps(pieces, max_substeps) > 0) continue;
    std::ostringstream message;
    message << "initial state: body '" << model.body(fast).name << "' turns at "
            << state.angular_velocity[fast].stableNorm() << " rad/s, but ";
    const double quarter_turn = std::sqrt(2.0) * pieces / dt;
    if (pieces == 1)
      message << "a step of --dt " << dt << " s carries at most a quarter turn, sqrt(2)/dt = " << quarter_turn
              << " rad/s";
    else
      message << pieces << " sub-steps of --dt " << dt << " s carry at most a quarter turn each, " << quarter_turn
              << " rad/s";
    message << "; lower --dt or --v0";
    throw std::invalid_argument(message.str());
  }
}

// A header field as RFC 4180 writes it: quoted, with its quotes doubled, when
// it holds a comma, a quote or a line break (URDF link names may), so that
// every body keeps its 13 columns for a CSV reader.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

// What the trajectory and the summary report of a state, computed once per
// step for both. The energies are those of the step's midpoint
// (diagnostics.hpp, dt > 0).
struct StepDiagnostics {
  double kinetic, potential, violation;

  StepDiagnostics(const Model& m, const State& s, double dt)
      : kinetic(kinetic_energy(m, s)), potential(potential_energy(m, s, dt)), violation(constraint_violation(m, s)) {}
};

class TrajectoryCsv {
 public:
  // `model_path`: the model's file, if any, which the trajectory must not
  // replace. The file is replaced only by a complete trajectory
  // (output_file.hpp; "-" is standard output).
  TrajectoryCsv(const std::string& path, const Model& model, const std::string& model_path) {
    if (path.empty()) return;
    if (output_file::replaces_input(path, model_path))
      throw std::invalid_argument("--out " + path + " is the model file; write the trajectory to another file");
    std::ostream& out = file_.emplace(path, "--out").stream();
    out_ = &out;
    out << "step,t,energy,kinetic,potential,constraint_violation,newton_iterations,min_signed_distance,"
           "ip_iterations";
    for (const Body& b : model.bodies())
      for (const char* c : {"x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"})
        out << ',' << csv_field(b.name + '.' + c);
    out << '\n';
  }

  // min_distance: +inf (written "inf") for a model without contacts. Every
  // number is written exactly (exact_decimal.hpp), the row in one write.
  void row(const Model& m, const State& s, const StepDiagnostics& d, int iterations, double min_distance) {
    if (!out_) return;
    line_ = std::to_string(s.steps);
    const auto put = [&](double v) {
      line_ += ',';
      graphsolve::exact_decimal::append(line_, v);
    };
    for (double v : {s.time, d.kinetic + d.potential, d.kinetic, d.potential, d.violation}) put(v);
    line_ += ',' + std::to_string(iterations);
    put(min_distance);
    line_ += ',' + std::to_string(m.has_inequalities() ? iterations : 0);
    for (int b = 0; b < m.num_bodies(); ++b) {
      const Quaternion& q = s.orientation[b];
      for (double v : {s.position[b].x(), s.position[b].y(), s.position[b].z(), q.w(), q.x(), q.y(), q.z(),
                       s.velocity[b].x(), s.velocity[b].y(), s.velocity[b].z(), s.angular_velocity[b].x(),
                       s.angular_velocity[b].y(), s.angular_velocity[b].z()})
        put(v);
    }
    line_ += '\n';
    out_->write(line_.data(), static_cast<std::streamsize>(line_.size()));
  }

  void commit() {
    if (file_) file_->commit();
  }

 private:
  std::optional<output_file::OutputFile> file_;
  std::ostream* out_ = nullptr;
  std::string line_;  // kept: its storage serves every row
};

// Whether some contact of the model (ground or between colliders) has friction.
bool has_friction(const Model& model) {
  for (const Contact& c : model.contacts())
    if (c.friction != FrictionModel::None && c.friction_coefficient > 0.0) return true;
  const CollisionOptions& collisions = model.collision_options();
  return model.num_colliders() > 1 && collisions.friction != FrictionModel::None &&
         collisions.friction_coefficient > 0.0;
}

}  // namespace

int run_models(bool json) {
  if (json) {
    nlohmann::json list = nlohmann::json::array();
    for (const BuiltinModel& m : builtin_models()) {
      nlohmann::json params = nlohmann::json::array();
      for (const ModelParameter& p : m.parameters)
        params.push_back({{"name", p.name}, {"default", p.default_value}, {"description", p.description}});
      list.push_back({{"name", m.name}, {"description", m.description}, {"parameters", params}});
    }
    std::cout << list.dump(2) << '\n';
    return 0;
  }
  for (const BuiltinModel& m : builtin_models()) {
    std::cout << m.name << "  " << m.description << '\n';
    for (const ModelParameter& p : m.parameters)
      std::cout << "    " << p.name << "=" << p.default_value << "  " << p.description << '\n';
  }
  std::cout << "or a .urdf file\n";
  return 0;
}

int run_simulate(const SimulateOptions& o) {
  const bool urdf = is_urdf_path(o.model);
  Warnings warnings;
  Model model = load_model(o, urdf, warnings);
  if (!o.gravity.empty()) model.gravity = parse_gravity(o.gravity);
  if (!o.ground.empty()) model.set_ground(parse_ground(o.ground));
  if (o.friction >= 0.0 && !urdf) model.set_friction_coefficient(o.friction);
  StepOptions step_options;
  step_options.dt = o.dt;
  if (o.tolerance > 0.0) step_options.tolerance = step_options.interior_tolerance = o.tolerance;
  step_options.max_iterations = o.max_iterations;
  step_options.max_substeps = o.max_substeps;
  step_options.substep_hold = o.substep_hold;
  step_options.centred_restart = !o.no_centred_restart;
  step_options.skip_open_inequalities = !o.keep_open_inequalities;
  step_options.friction_restarts = !o.no_friction_restarts;
  step_options.contact_regularization = o.contact_regularization;
  step_options.friction_regularization = o.friction_regularization;
  step_options.joint_friction_velocity = o.joint_friction_velocity;
  if (o.steps < 0) throw std::invalid_argument("--steps must be >= 0");
  if (o.out == "-" && o.json)
    throw std::invalid_argument("--out - and --json both write to standard output: give --out a file");
  // Before the projections, which such a body can already fail.
  const std::vector<LightLink> light = light_links(model);
  for (const std::string& line : light_link_warnings(model, light)) warnings.add(line);
  const InitialState init =
      initial_state(model, parse_joint_values(o.q0, "--q0"), parse_joint_values(o.v0, "--v0"));
  for (const std::string& line : init.warnings) warnings.add(line);
  State state = init.state;
  const double first_dt = check_initial_spin(model, state, o.dt, o.max_substeps);
  Simulator sim(model, step_options);
  TrajectoryCsv csv(o.out, model, o.model);
  double lowest = min_signed_distance(model, state);
  const double initial_distance = lowest;
  double step_start_distance = lowest;  // of the state the next step starts from
  const double kDeepStart = 1e-6;  // m: well beyond the interior-point tolerance
  if (lowest < -kDeepStart)
    warnings.add("initial state: shapes start " + detail::format_number(-lowest) +
                 " m inside the ground or each other; the first step throws them apart (place the model with --q0)");
  const StepDiagnostics start_diagnostics(model, state, first_dt);
  csv.row(model, state, start_diagnostics, 0, lowest);
  const bool touches = model.num_contacts() > 0 || model.num_colliders() > 1;
  int most_collider_contacts = 0;

  const double e0 = start_diagnostics.kinetic + start_diagnostics.potential;
  double max_violation = start_diagnostics.violation, max_energy_error = 0.0;
  long total_iterations = 0, substepped = 0, centred = 0, restarted = 0, skipped = 0, held = 0;
  int max_iterations = 0, most_substeps = 1;
  double last_dt = o.dt;  // of the last step: a sub-stepped one ends with a sub-step
  // dt against the joints' loads (see load_check_due): warn once if they
  // let a swing grow.
  double load_step_limit = std::numeric_limits<double>::infinity();
  bool load_warned = false;
  double check_seconds = 0.0;  // left out of the wall time, which times the steps
  const auto note_loads = [&](long step) {
    const auto begin = std::chrono::steady_clock::now();
    const LoadCheck loads = check_loads(sim, state, o.dt);
    check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    load_step_limit = std::min(load_step_limit, loads.step_limit);
    if (loads.advice.empty() || load_warned) return;
    warnings.add("after step " + std::to_string(step) + ": " + loads.advice);
    load_warned = true;
  };
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < o.steps; ++k) {
    const StepResult r = sim.step(state);
    if (!r.ok()) {
      std::string where;
      if (r.failed_body >= 0) where = ", body '" + model.body(r.failed_body).name + "'";
      if (r.failed_joint >= 0) where = ", joint '" + model.joint(r.failed_joint).name + "'";
      if (r.failed_coupling >= 0) where = ", coupling '" + model.coupling(r.failed_coupling).name + "'";
      if (r.failed_contact >= 0) where = ", contact '" + model.contact(r.failed_contact).name + "'";
      if (r.failed_collider_a >= 0)
        where = ", contact between colliders '" + model.collider(r.failed_collider_a).name + "' and '" +
                model.collider(r.failed_collider_b).name + "'";
      std::cerr << "dynamics: error: step " << k + 1 << " (t = " << state.time + o.dt << " s) failed: "
                << to_string(r.status) << where << " after " << r.iterations << " Newton iterations"
                << (r.substeps > 1 ? ", the last ones in " + std::to_string(r.substeps) + " sub-steps" : "")
                << " (residual "
                << r.residual << ", constraint residual " << r.constraint_residual;
      if (model.has_inequalities())
        std::cerr << ", inequality residual " << r.inequality_residual << ", complementarity " << r.complementarity;
      // Joints may hold the shapes where they started: the steps then push
      // against them, and the first or one of the next ones fails (PyBullet's
      // cart-pole, 0.1 m deep, fails at the fourth). A step that starts at
      // least half as deep as the model did is still held there.
      if (initial_distance < -kDeepStart && step_start_distance < 0.5 * initial_distance) {
        std::cerr << "); the shapes started " << -initial_distance << " m inside the ground or each other";
        if (k > 0) std::cerr << " and are still " << -step_start_distance << " m deep";
        std::cerr << ": place the model with --q0 or move the ground with --ground"
                  << (urdf && !o.no_contacts ? " (or drop it with --no-contacts)\n" : "\n");
        return 1;
      }
      // A link warned of as too light is the likelier cause than the step size.
      if (!light.empty()) {
        std::cerr << "); body '" << model.body(light.front().body).name << "' is "
                  << detail::format_number(light.front().ratio) << " times as heavy as body '"
                  << model.body(light.front().neighbour).name
                  << "' (warned of above): give it more mass and inertia"
                  << (urdf ? " (--bound-mass, --bound-inertia)\n" : "\n");
        return 1;
      }
      const LoadCheck loads = check_loads(sim, state, o.dt);  // the state is where the step started
      if (!loads.advice.empty()) {
        std::cerr << "); " << loads.advice << '\n';
        return 1;
      }
      std::cerr << "); try a smaller --dt" << (o.max_substeps < 2 ? ", --max-substeps 8" : "")
                << " or a larger --tol";
      // Interior-point stalls (docs/contacts.md, "Centred restart" and
      // "Friction restarts") often do not yield to smaller steps.
      const bool stalled = r.status == StepStatus::NotConverged && model.has_inequalities();
      if (stalled && o.no_centred_restart)
        std::cerr << "; drop --no-centred-restart (a pair of the interior-point method driven to its bound "
                     "yields to steps kept near the central path)";
      if (stalled && has_friction(model))
        std::cerr << (o.no_friction_restarts ? "; with friction, drop --no-friction-restarts"
                      : o.no_centred_restart ? "; the friction restarts did not carry it either"
                                             : "; the centred and friction restarts did not carry it either")
                  << " (a stall that friction causes yields to other starts or lower friction coefficients, not "
                     "to smaller steps)";
      std::cerr << '\n';
      return 1;
    }
    total_iterations += r.iterations;
    max_iterations = std::max(max_iterations, r.iterations);
    substepped += r.substeps > 1;
    centred += r.centred_restart;
    restarted += r.friction_restart;
    skipped += r.inequalities_skipped;
    held += r.limits_held;
    most_substeps = std::max(most_substeps, r.substeps);
    last_dt = o.dt / r.substeps;
    const StepDiagnostics diagnostics(model, state, last_dt);
    max_violation = std::max(max_violation, diagnostics.violation);
    max_energy_error = std::max(max_energy_error, std::abs(diagnostics.kinetic + diagnostics.potential - e0));
    lowest = std::min(lowest, r.min_signed_distance);
    step_start_distance = r.min_signed_distance;
    most_collider_contacts = std::max(most_collider_contacts, r.collider_contacts);
    csv.row(model, state, diagnostics, r.iterations, r.min_signed_distance);
    if (load_check_due(k + 1, o.steps)) {
      const double step_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - check_seconds;
      if (load_check_affordable(k + 1, check_seconds, step_seconds)) note_loads(k + 1);
    }
  }
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() - check_seconds;
  csv.commit();
  const double e1 = total_energy(model, state, last_dt);
  const double mean_iterations = o.steps > 0 ? double(total_iterations) / double(o.steps) : 0.0;
  if (o.json) {
    nlohmann::json j = {{"model", o.model},
                        {"bodies", model.num_bodies()},
                        {"joints", model.num_joints()},
                        {"couplings", model.num_couplings()},
                        {"steps", o.steps},
                        {"dt", o.dt},
                        {"tolerance", model.has_inequalities() ? step_options.interior_tolerance
                                                               : step_options.tolerance},
                        {"contacts", model.num_contacts()},
                        {"colliders", model.num_colliders()},
                        {"collider_contacts_max", most_collider_contacts},
                        {"min_signed_distance", touches ? nlohmann::json(lowest) : nlohmann::json()},
                        {"wall_time_s", wall},
                        {"time_per_step_us", o.steps > 0 ? 1e6 * wall / double(o.steps) : 0.0},
                        {"newton_iterations_mean", mean_iterations},
                        {"newton_iterations_max", max_iterations},
                        {"substepped_steps", substepped},
                        {"substeps_max", most_substeps},
                        {"centred_restarted_steps", centred},
                        {"friction_restarted_steps", restarted},
                        {"inequalities_skipped_steps", skipped},
                        {"limits_held_steps", held},
                        {"max_constraint_violation", max_violation},
                        {"energy_initial", e0},
                        {"energy_final", e1},
                        {"energy_drift", e1 - e0},
                        {"max_energy_error", max_energy_error},
                        {"fill_blocks", sim.fill_blocks()},
                        {"load_step_limit_s",
                         std::isfinite(load_step_limit) ? nlohmann::json(load_step_limit) : nlohmann::json()},
                        {"failures", 0},
                        {"projection",
                         {{"applied", init.projected},
                          {"translation_m", init.correction_translation},
                          {"rotation_rad", init.correction_rotation},
                          {"velocity_change", init.velocity_change}}},
                        {"warnings", warnings.lines()}};
    // A model path need not be UTF-8 (file names are bytes): JSON gets U+FFFD
    // for a byte it cannot hold instead of an exception after the whole run.
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    // With the trajectory on standard output (--out -), the summary goes to stderr.
    std::FILE* summary = o.out == "-" ? stderr : stdout;
    std::fprintf(summary, "%s: %d bodies, %d joints", o.model.c_str(), model.num_bodies(), model.num_joints());
    if (model.num_couplings() > 0) std::fprintf(summary, ", %d joint couplings", model.num_couplings());
    std::fprintf(summary, ", %ld steps of %g s in %.3f s (%.1f us/step)\n", o.steps, o.dt, wall,
                o.steps > 0 ? 1e6 * wall / double(o.steps) : 0.0);
    std::fprintf(summary, "  Newton iterations per step: mean %.2f, max %d\n", mean_iterations, max_iterations);
    if (substepped > 0)
      std::fprintf(summary, "  steps retried as sub-steps: %ld (up to %d sub-steps)\n", substepped, most_substeps);
    if (centred > 0) std::fprintf(summary, "  steps solved by the centred restart: %ld\n", centred);
    if (restarted > 0) std::fprintf(summary, "  steps solved by a friction restart: %ld\n", restarted);
    if (skipped > 0)
      std::fprintf(summary, "  steps solved without their contacts and limits (all open): %ld\n", skipped);
    if (held > 0)
      std::fprintf(summary, "  steps solved holding the joint limits that close, the rest open: %ld\n", held);
    std::fprintf(summary, "  max constraint violation: %.3g\n", max_violation);
    if (touches) {
      std::fprintf(summary, "  %d ground contacts", model.num_contacts());
      if (model.num_colliders() > 0)
        std::fprintf(summary, ", %d colliders (contacts between them: up to %d)", model.num_colliders(), most_collider_contacts);
      std::fprintf(summary, ", min signed distance: %.3g m\n", lowest);
    }
    std::fprintf(summary, "  energy: initial %.10g, final %.10g, drift %.3g, max error %.3g\n", e0, e1, e1 - e0,
                max_energy_error);
    if (init.projected)
      std::fprintf(summary, "  initial coordinates projected onto the constraints: moved %.3g m, %.3g rad\n",
                  init.correction_translation, init.correction_rotation);
    if (!o.out.empty()) std::fprintf(summary, "  trajectory: %s\n", o.out.c_str());
  }
  return 0;
}

}  // namespace dynamics::cli
