// dynamics: simulate built-in or URDF mechanisms with the variational integrator.
#include <iostream>

#include <CLI/CLI.hpp>

#include "cli_errors.hpp"
#include "cli_real_number.hpp"
#include "cli_whole_number.hpp"
#include "output_file.hpp"
#include "cli_options.hpp"

int main(int argc, char** argv) {
  using namespace dynamics::cli;
  using graphsolve::cli_real_number::real_number;
  using graphsolve::cli_real_number::Sign;
  using graphsolve::cli_whole_number::whole_number;
  CLI::App app{"dynamics: maximal-coordinate variational integrator on graphsolve"};
  app.require_subcommand(1);

  bool models_json = false;
  auto* models = app.add_subcommand("models", "list the built-in models and their parameters");
  models->add_flag("--json", models_json, "print JSON on stdout");

  SimulateOptions o;
  auto* sim = app.add_subcommand("simulate", "simulate a built-in model or a URDF file");
  sim->add_option("MODEL", o.model, "built-in model name (see `dynamics models`) or a URDF file (.urdf, or any other file that is not a built-in name)")->required();
  sim->add_option("--param", o.params, "model parameter key=value (built-in models), repeatable");
  sim->add_option("--dt", o.dt, "time step, s (default 0.01)")->transform(real_number(Sign::positive));
  sim->add_option("--steps", o.steps, "number of steps (default 1000)")->transform(whole_number(0L));
  sim->add_option("--tol", o.tolerance,
                  "equation tolerance of the step: constraints in m, momenta in N s per kg of the mass scale "
                  "(default 1e-10; 1e-8 for steps solved with contacts or limits)")
      ->transform(real_number(Sign::positive));
  sim->add_option("--max-iterations", o.max_iterations, "Newton iterations per step (default 50)")
      ->transform(whole_number(1));
  sim->add_option("--max-substeps", o.max_substeps,
                  "retry a failed step as 2, 4, ... equal sub-steps, ending with this many, from the first count "
                  "within 3/4 of the joints' load limit (default 8; 1: never)")
      ->transform(whole_number(1));
  sim->add_option("--substep-hold", o.substep_hold,
                  "steps after a sub-stepped one that start with its count before one tries fewer (declined, or "
                  "the count raised, past 3/4 of the joints' load limit); each failed try doubles the wait "
                  "(default 4; 0: only failed steps sub-step)")
      ->transform(whole_number(0));
  sim->add_option("--contact-regularization", o.contact_regularization,
                  "contacts yield by this much: a resting body sinks by it times |g| dt^2 (default 1e-6; 0: rigid)")
      ->transform(real_number(Sign::zero_or_positive));
  sim->add_option("--friction-regularization", o.friction_regularization,
                  "friction yields by this much: a sticking contact creeps at it over the body mass times its "
                  "friction impulse (default 1e-9; 0: exact sticking)")
      ->transform(real_number(Sign::zero_or_positive));
  sim->add_option("--joint-friction-velocity", o.joint_friction_velocity,
                  "joint Coulomb friction acts in full above about this rate and as a damper below it: a joint "
                  "held by friction creeps at it times atanh(load / friction) (m/s or rad/s, default 1e-3)")
      ->transform(real_number(Sign::positive));
  sim->add_flag("--no-centred-restart", o.no_centred_restart,
                "a step with contacts or limits that stalls goes on at once to the friction restarts, sub-steps "
                "or failure (default: it is first solved again with its steps kept near the central path)");
  sim->add_flag("--no-friction-restarts", o.no_friction_restarts,
                "a step with friction that stalls fails (or sub-steps) at once (default: it is solved again from "
                "other starts: a frictionless, then a half-friction solution's velocities, then rest)");
  sim->add_flag("--keep-open-inequalities", o.keep_open_inequalities,
                "solve every step with its contacts and limits (default: a step whose contacts and limits are all "
                "open, and stay so, is solved without them, as a step of the joints alone)");
  sim->add_option("--gravity", o.gravity, "gravity vector x,y,z (default: the model's, 0,0,-9.81)");
  sim->add_option("--ground", o.ground, "ground half-space of every contact nx,ny,nz[,offset] (default 0,0,1,0)");
  sim->add_option("--friction", o.friction,
                  "friction coefficient of every contact (URDF: where no <contact_coefficients mu> is given)")
      ->transform(real_number(Sign::zero_or_positive));
  sim->add_flag("--keep-welded-links", o.keep_welded_links,
               "URDF: links with mass welded by fixed joints stay separate bodies (default: fused into one)");
  sim->add_flag("--fixed-base", o.fixed_base,
                "URDF: weld every root link to the world at the origin (default: a root link floats)");
  sim->add_flag("--no-contacts", o.no_contacts,
                "URDF: no ground contacts (default: <collision> spheres, boxes, capsules and cylinders touch the ground)");
  sim->add_option("--bound-mass", o.bound_mass, "URDF: lower bound on every body's mass, kg (default 0: none)")
      ->transform(real_number(Sign::zero_or_positive));
  sim->add_option("--bound-inertia", o.bound_inertia,
                  "URDF: lower bound on every body's principal moments, kg m^2 (default 0: none)")
      ->transform(real_number(Sign::zero_or_positive));
  sim->add_flag("--balance-inertia", o.balance_inertia,
                "URDF: replace principal moments that violate the triangle inequality by their mean (default: an "
                "error)");
  sim->add_option("--q0", o.q0, "initial joint coordinates joint=v[:v...],...");
  sim->add_option("--v0", o.v0, "initial joint rates joint=v[:v...],...");
  sim->add_option("--out", o.out, "trajectory CSV, one row per step including step 0");
  sim->add_flag("--json", o.json, "print the summary as JSON on stdout");

  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    std::cerr << "dynamics: error: " << graphsolve::cli_errors::explain_parse_error(app, error) << " (see dynamics --help)\n";
    return 2;
  }
  try {
    const int status = models->parsed() ? run_models(models_json) : run_simulate(o);
    graphsolve::output_file::check_standard_output();
    return status;
  } catch (const std::exception& error) {
    std::cerr << "dynamics: error: " << error.what() << "\n";
    return 1;
  }
}
