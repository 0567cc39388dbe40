// The dynamics command line program, run as a user would.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "dynamics/dynamics.hpp"
#include "portable_kernels.hpp"
#include "quadruped.hpp"
#include "stalled_landings.hpp"
#include "urdf_text.hpp"

namespace fs = std::filesystem;

namespace {

class DynamicsCli : public CliFixture {
 protected:
  DynamicsCli() : CliFixture(DYNAMICS_CLI, "dyn_cli_") {}
  // The first row after the header of a CSV the program wrote.
  std::string first_row(const std::string& name) {
    std::ifstream csv(dir_ / name);
    std::string header, first;
    std::getline(csv, header);
    std::getline(csv, first);
    return first;
  }
  // Its last row.
  std::string last_row(const std::string& name) {
    std::ifstream csv(dir_ / name);
    std::string line, last;
    while (std::getline(csv, line)) last = line;
    return last;
  }
  // The final energy that `simulate ... --json` reports for a run that must
  // succeed (NaN, with a failure, if it did not).
  double final_energy(const std::string& run_args) {
    const CliResult r = run(run_args + " --json");
    EXPECT_EQ(r.code, 0) << run_args << "\n" << r.err;
    return r.code == 0 ? nlohmann::json::parse(r.out)["energy_final"].get<double>() : std::nan("");
  }
  // A run that goes through with a restart: the JSON summary counts it under
  // `key` and the text summary prints `line`, and the constraints hold.
  void expect_restart_counted(const std::string& run_args, const char* key, const std::string& line) {
    const dynamics::test::PortableKernels portable;  // the stalls were found with them
    const CliResult r = run(run_args + " --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = nlohmann::json::parse(r.out);
    EXPECT_GE(s[key].get<int>(), 1);
    EXPECT_LE(s["max_constraint_violation"].get<double>(), 1e-7);
    const CliResult text = run(run_args);
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
  }
  // 100 steps of `model` that the summaries count between `fewest` and `most`
  // times, under the JSON's `key` and after the text's `line`, and never with
  // --keep-open-inequalities, which takes more Newton iterations. Returns
  // the JSON summary.
  nlohmann::json expect_steps_counted_and_kept(const std::string& model, const char* key, const std::string& line,
                                               long fewest, long most) {
    const std::string run_args = "simulate " + model + " --steps 100";
    const CliResult r = run(run_args + " --json");
    EXPECT_EQ(r.code, 0) << r.err;
    if (r.code != 0) return {};
    const auto s = nlohmann::json::parse(r.out);
    const long count = s[key].get<long>();
    EXPECT_GE(count, fewest);
    EXPECT_LE(count, most);
    const CliResult text = run(run_args);
    EXPECT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find(line + std::to_string(count)), std::string::npos) << text.out;
    const CliResult kept = run(run_args + " --json --keep-open-inequalities");
    EXPECT_EQ(kept.code, 0) << kept.err;
    if (kept.code != 0) return s;
    const auto k = nlohmann::json::parse(kept.out);
    EXPECT_EQ(k[key], 0);
    EXPECT_GT(k["newton_iterations_mean"].get<double>(), s["newton_iterations_mean"].get<double>());
    EXPECT_EQ(run(run_args + " --keep-open-inequalities").out.find(line), std::string::npos);
    return s;
  }
  // A run whose step stalls: exit code 1 and a message that says `advice`.
  void expect_stall_says(const std::string& run_args, const std::string& advice) {
    const dynamics::test::PortableKernels portable;  // the stalls were found with them
    const CliResult r = run(run_args);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("failed: not converged"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(advice), std::string::npos) << r.err;
  }
};

// A URDF robot of one 2 kg link, which floats; `link` is its XML-escaped name.
std::string free_body_urdf(const std::string& link) {
  return "<robot name='r'><link name='" + link +
         "'><inertial><mass value='2'/>"
         "<inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>";
}

// The numbers of one CSV row.
std::vector<double> csv_numbers(const std::string& row) {
  std::stringstream fields(row);
  std::vector<double> v;
  for (std::string f; std::getline(fields, f, ',');) v.push_back(std::stod(f));
  return v;
}

TEST_F(DynamicsCli, ModelsListsEveryBuiltinWithParameters) {
  const CliResult r = run("models --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto list = nlohmann::json::parse(r.out);
  std::vector<std::string> names;
  for (const auto& m : list) names.push_back(m["name"]);
  for (const char* expected : {"pendulum", "n-link-pendulum", "double-pendulum", "damped-pendulum", "three-link-loop",
                               "four-bar", "double-four-bar", "four-link-chain", "t-handle", "scaled-pendulum"})
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
}

// The plain listing (what `dynamics models` prints for a reader) names the
// same models as the JSON one, in the same order, each followed by its
// parameters as key=default.
TEST_F(DynamicsCli, ModelsPrintsTheSameModelsAndParametersAsItsJson) {
  const CliResult text = run("models");
  ASSERT_EQ(text.code, 0) << text.err;
  const CliResult json = run("models --json");
  ASSERT_EQ(json.code, 0) << json.err;
  // Model lines start at the margin, parameter lines are indented.
  std::vector<std::pair<std::string, std::vector<std::string>>> listed;
  std::stringstream lines(text.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("    ", 0) == 0) {
      ASSERT_FALSE(listed.empty()) << line;
      listed.back().second.push_back(line.substr(4, line.find("  ", 4) - 4));
    } else if (line != "or a .urdf file") {
      listed.push_back({line.substr(0, line.find("  ")), {}});
    }
  }
  EXPECT_NE(text.out.find("\nor a .urdf file\n"), std::string::npos);
  const auto list = nlohmann::json::parse(json.out);
  ASSERT_EQ(listed.size(), list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(listed[i].first, list[i]["name"]);
    std::vector<std::string> parameters;
    for (const auto& p : list[i]["parameters"])
      parameters.push_back(p["name"].get<std::string>() + "=" + p["default"].get<std::string>());
    EXPECT_EQ(listed[i].second, parameters) << listed[i].first;
  }
}

TEST_F(DynamicsCli, SimulateWritesOneCsvRowPerStepWithTheDocumentedColumns) {
  const CliResult r = run("simulate double-pendulum --steps 20 --dt 0.01 --out traj.csv --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["steps"], 20);
  EXPECT_LE(summary["max_constraint_violation"].get<double>(), 1e-10);
  EXPECT_EQ(summary["failures"], 0);
  EXPECT_EQ(summary["warnings"], nlohmann::json::array());
  std::ifstream csv(dir_ / "traj.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("step,t,energy,kinetic,potential,constraint_violation,newton_iterations,min_signed_distance,"
                         "ip_iterations,link1.x,link1.y,"
                         "link1.z,link1.qw,link1.qx,link1.qy,link1.qz,link1.vx,link1.vy,link1.vz,link1.wx,link1.wy,"
                         "link1.wz,link2.x",
                         0),
            0u)
      << header;
  int rows = 0;
  std::string last;
  while (std::getline(csv, line)) {
    ++rows;
    last = line;
  }
  EXPECT_EQ(rows, 21);  // step 0 included
  EXPECT_EQ(last.rfind("20,0.2", 0), 0u) << last;
  // Energy column agrees with the summary (full precision).
  std::stringstream fields(last);
  std::string step, t, energy;
  std::getline(fields, step, ',');
  std::getline(fields, t, ',');
  std::getline(fields, energy, ',');
  EXPECT_DOUBLE_EQ(std::stod(energy), summary["energy_final"].get<double>());
}

// The trajectory holds every bit of the states the library computes, in the
// shortest text that reads back exactly (0.03 s, not 0.029999999999999999).
TEST_F(DynamicsCli, TrajectoryHoldsTheLibrarysStatesExactly) {
  const CliResult r = run("simulate double-pendulum --steps 20 --out traj.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  const dynamics::Model model = dynamics::make_builtin("double-pendulum");
  dynamics::State state = dynamics::make_state(model);
  dynamics::Simulator sim(model);
  std::ifstream csv(dir_ / "traj.csv");
  std::string line;
  std::getline(csv, line);  // the header
  for (int step = 0; step <= 20; ++step) {
    if (step > 0) {
      ASSERT_TRUE(sim.step(state).ok()) << step;
    }
    ASSERT_TRUE(std::getline(csv, line)) << step;
    const std::vector<double> v = csv_numbers(line);
    ASSERT_EQ(v.size(), 9u + 13u * 2u) << line;
    EXPECT_EQ(v[1], state.time) << line;
    EXPECT_EQ(v[5], dynamics::constraint_violation(model, state)) << line;
    for (int b = 0; b < 2; ++b) {
      const double* body = &v[9 + 13 * b];
      const dynamics::Quaternion& q = state.orientation[b];
      const double expected[13] = {state.position[b].x(), state.position[b].y(), state.position[b].z(),
                                   q.w(), q.x(), q.y(), q.z(), state.velocity[b].x(), state.velocity[b].y(),
                                   state.velocity[b].z(), state.angular_velocity[b].x(),
                                   state.angular_velocity[b].y(), state.angular_velocity[b].z()};
      for (int i = 0; i < 13; ++i) EXPECT_EQ(body[i], expected[i]) << "step " << step << " body " << b << " " << i;
    }
  }
  EXPECT_FALSE(std::getline(csv, line)) << line;
}

// The reported energy is the step midpoint's (diagnostics.hpp): its error on
// the four-bar is second order, a quarter at half the step.
TEST_F(DynamicsCli, EnergyErrorIsTheStepMidpointsAndSecondOrder) {
  double error[2];
  for (int i = 0; i < 2; ++i) {
    const CliResult r = run(i == 0 ? "simulate four-bar --dt 0.01 --steps 500 --json"
                                   : "simulate four-bar --dt 0.005 --steps 1000 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    error[i] = nlohmann::json::parse(r.out)["max_energy_error"].get<double>();
  }
  EXPECT_GT(error[0] / error[1], 3.5) << error[0] << " " << error[1];
}

// Numbers are decimal, as model parameters are; blanks around them (a quoted
// list written with spaces) read as without.
TEST_F(DynamicsCli, NumbersMayHaveBlanksAroundThem) {
  const double plain = final_energy("simulate pendulum --steps 5 --gravity 0,0,-9.81 --q0 joint1=0.5");
  const double spaced =
      final_energy("simulate pendulum --steps 5 --gravity ' 0, 0, -9.81 ' --q0 'joint1= 0.5' --dt ' 0.01 '");
  EXPECT_EQ(plain, spaced);
  EXPECT_LT(plain, 0.0);  // the pendulum hangs below its pivot: gravity was read
}

// Joint names may have blanks around them too ("a = 1, b = 2", quoted, reads
// as written); a joint named twice, blanks aside, is still given twice.
TEST_F(DynamicsCli, JointNamesMayHaveBlanksAroundThem) {
  const double plain = final_energy("simulate double-pendulum --steps 5 --q0 joint1=0.5,joint2=-0.3 --v0 joint2=1");
  const double spaced =
      final_energy("simulate double-pendulum --steps 5 --q0 'joint1 = 0.5, joint2 = -0.3' --v0 ' joint2=1'");
  EXPECT_EQ(plain, spaced);
  EXPECT_NE(final_energy("simulate double-pendulum --steps 5"), spaced);  // the values were applied
  const CliResult twice = run("simulate double-pendulum --steps 5 --q0 'joint1=0.5, joint1 = 0.2'");
  EXPECT_EQ(twice.code, 1);
  EXPECT_NE(twice.err.find("--q0: joint 'joint1' is given twice (as ' joint1 ' and 'joint1')"), std::string::npos)
      << twice.err;
}

// A value too close to zero for a double rounds to zero, as every reader of
// decimal numbers rounds it; one too large for a double is an error.
TEST_F(DynamicsCli, NumbersBelowTheDoubleRangeRoundToZero) {
  EXPECT_EQ(final_energy("simulate pendulum --steps 5 --q0 joint1=0.5 --v0 joint1=0"),
            final_energy("simulate pendulum --steps 5 --q0 joint1=0.5 --v0 joint1=-1e-400"));
  const CliResult huge = run("simulate pendulum --steps 5 --v0 joint1=-1e400");
  EXPECT_EQ(huge.code, 1);
  EXPECT_NE(huge.err.find("--v0 joint1: must be finite, got '-1e400'"), std::string::npos) << huge.err;
}

// Counts are decimal too: a leading zero is no octal prefix (CLI11 alone ran
// "--steps 010" as 8 steps) and a sign or blanks around them read as without.
TEST_F(DynamicsCli, CountsAreDecimal) {
  for (const std::string steps : {"010", "+10", "' 10 '"}) {
    const CliResult r = run("simulate pendulum --steps " + steps + " --max-iterations 010 --substep-hold 08 --json");
    ASSERT_EQ(r.code, 0) << steps << "\n" << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["steps"], 10) << steps;
  }
}

TEST_F(DynamicsCli, InitialCoordinatesAreSetAndLoopsProjected) {
  const CliResult r = run("simulate four-bar --steps 5 --q0 joint1=0.7 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_TRUE(s["projection"]["applied"].get<bool>());
  EXPECT_GT(s["projection"]["translation_m"].get<double>(), 1e-3);
  EXPECT_LE(s["max_constraint_violation"].get<double>(), 1e-10);
  // The text summary says so too, with the same correction (3 digits).
  const CliResult text = run("simulate four-bar --steps 5 --q0 joint1=0.7");
  ASSERT_EQ(text.code, 0) << text.err;
  char moved[160];
  std::snprintf(moved, sizeof moved, "projected onto the constraints: moved %.3g m, %.3g rad",
                s["projection"]["translation_m"].get<double>(), s["projection"]["rotation_rad"].get<double>());
  EXPECT_NE(text.out.find(moved), std::string::npos) << text.out;
  EXPECT_EQ(run("simulate four-bar --steps 5").out.find("projected"), std::string::npos);
}

// A pendulum turning faster than 2/dt: neither one step nor 2 half steps
// (whose turns are within a quarter, but whose load is past its limit) carry it, 4 sub-steps do, and so do 3 (a count that is not a power of two
// is the last retry); the summary counts them.
TEST_F(DynamicsCli, StepsThatFailAreRetriedAsSubsteps) {
  const CliResult halves = run("simulate pendulum --v0 joint1=250 --max-substeps 2 --steps 5 --json");
  EXPECT_EQ(halves.code, 1);
  EXPECT_NE(halves.err.find("in 2 sub-steps"), std::string::npos) << halves.err;
  for (const int max_substeps : {4, 3}) {
    const CliResult r = run("simulate pendulum --v0 joint1=250 --max-substeps " + std::to_string(max_substeps) +
                            " --steps 5 --json --out t.csv");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["substepped_steps"], 5);
    EXPECT_EQ(s["substeps_max"], max_substeps);
    EXPECT_LE(s["max_constraint_violation"].get<double>(), 1e-10);
    EXPECT_TRUE(fs::exists(dir_ / "t.csv"));
  }
}

// The quadruped's hard landing of test_friction_restarts.cpp, from the
// command line: the step whose iteration stalls is solved by a restart, and
// the summaries count it.
TEST_F(DynamicsCli, StallsWithFrictionRestart) {
  write("quadruped.urdf", dynamics::test::quadruped_urdf());
  const std::string landing =
      "simulate quadruped.urdf --steps 45 --q0 torso=0:0:0.456:0.972:0.573:0.667,fl_abd=-0.536,fl_hip_j=1.337,"
      "fl_knee=-1.832,fr_abd=-0.447,fr_hip_j=-1.148,fr_knee=-0.889,hl_abd=-0.65,hl_hip_j=-0.21,hl_knee=-1.043,"
      "hr_abd=-0.132,hr_hip_j=0.58,hr_knee=-1.13 --v0 torso=-2.56:-2.11:1.47:2.49:-2.32:-2.46,fl_hip_j=-2.14,"
      "fl_knee=-4.24,fr_hip_j=3.04,fr_knee=4.33,hl_hip_j=-3.96,hl_knee=-4.31,hr_hip_j=4.62,hr_knee=3.11";
  expect_restart_counted(landing, "friction_restarted_steps", "steps solved by a friction restart: ");
  // Without it the landing fails at the stalled step, which the message names.
  expect_stall_says(landing + " --no-friction-restarts --max-substeps 1", "with friction, drop --no-friction-restarts");
  // A step it does not carry either says so (one iteration is too few for
  // any of the solves); without friction there is nothing to say.
  const CliResult short_of = run("simulate sliding-box --max-iterations 1 --max-substeps 1 --steps 3");
  EXPECT_EQ(short_of.code, 1);
  EXPECT_NE(short_of.err.find("not converged after 5 Newton iterations"), std::string::npos) << short_of.err;
  EXPECT_NE(short_of.err.find("the centred and friction restarts did not carry it either"), std::string::npos)
      << short_of.err;
  const CliResult frictionless = run("simulate sliding-box --param friction=none --max-iterations 1 --max-substeps 1");
  EXPECT_EQ(frictionless.code, 1);
  EXPECT_EQ(frictionless.err.find("friction restart"), std::string::npos) << frictionless.err;
  // A run that never stalls reports none.
  const CliResult calm = run("simulate pendulum --steps 5 --json");
  ASSERT_EQ(calm.code, 0) << calm.err;
  EXPECT_EQ(nlohmann::json::parse(calm.out)["friction_restarted_steps"], 0);
}

// The cube's fall is solved without its contacts (all open), its landing and
// rest with them; the summaries count the steps, and --keep-open-inequalities
// solves every step with them.
TEST_F(DynamicsCli, StepsWithEveryContactOpenAreCountedAndCanBeKept) {
  // 0.4 m of free fall: 28 steps.
  expect_steps_counted_and_kept("box-drop", "inequalities_skipped_steps",
                                "steps solved without their contacts and limits (all open): ", 25, 29);
}

// A landing of stalled_landings.hpp whose step 46 stalls (a friction pair
// swinging between its bounds) goes through with the centred restart, which
// the summaries count; without it, and without the steps and starts that
// could carry it, the message says what would.
TEST_F(DynamicsCli, StallsWithCentredRestart) {
  write("quadruped.urdf", dynamics::test::quadruped_urdf());
  const dynamics::test::Landing& stalled = dynamics::test::kStalledLandings[0];
  const std::string landing = "simulate quadruped.urdf --steps " + std::to_string(stalled.failed_step + 1) + " " +
                              dynamics::test::cli_arguments(stalled.drop);
  expect_restart_counted(landing, "centred_restarted_steps", "steps solved by the centred restart: ");
  expect_stall_says(landing + " --no-centred-restart --no-friction-restarts --max-substeps 1",
                    "drop --no-centred-restart");
  // Without contacts or limits there is no interior point to restart.
  const CliResult calm = run("simulate pendulum --steps 5 --json");
  ASSERT_EQ(calm.code, 0) << calm.err;
  EXPECT_EQ(nlohmann::json::parse(calm.out)["centred_restarted_steps"], 0);
  const CliResult chain = run("simulate pendulum --max-iterations 1 --tol 1e-15 --steps 3 --no-centred-restart");
  EXPECT_EQ(chain.err.find("centred"), std::string::npos) << chain.err;
}

// A 100-link chain at three times its load limit fails most plain steps.
// With the default --substep-hold the steps after a sub-stepped one start
// as it did instead of failing first, which more than halves the Newton
// iterations (measured: 19.3 against 45 per step); --substep-hold 0
// sub-steps only the steps that fail.
TEST_F(DynamicsCli, SubsteppedStepsHoldTheirCount) {
  const std::string chain = "simulate n-link-pendulum --param n=100 --dt 0.03 --steps 20 --json";
  const CliResult held = run(chain);
  const CliResult only_failures = run(chain + " --substep-hold 0");
  ASSERT_EQ(held.code, 0) << held.err;
  ASSERT_EQ(only_failures.code, 0) << only_failures.err;
  const auto h = nlohmann::json::parse(held.out), f = nlohmann::json::parse(only_failures.out);
  EXPECT_GE(f["substepped_steps"].get<int>(), 10);
  EXPECT_GE(h["substepped_steps"].get<int>(), f["substepped_steps"].get<int>());
  EXPECT_LT(h["newton_iterations_mean"].get<double>(), 0.5 * f["newton_iterations_mean"].get<double>());
  EXPECT_LE(h["max_constraint_violation"].get<double>(), 1e-10);
}

// A hanging chain's tension bounds dt (Simulator::load_frequency): within
// the bound a run is quiet and reports the bound; past it the program warns
// after the first step, explains the step that stalls, and the step size it
// suggests runs.
TEST_F(DynamicsCli, StepsPastTheLoadLimitAreExplained) {
  const std::string chain = "simulate n-link-pendulum --param n=20 --max-substeps 1 --steps 300 --json";
  const CliResult within = run(chain + " --dt 0.04");
  ASSERT_EQ(within.code, 0) << within.err;
  EXPECT_EQ(within.err.find("warning"), std::string::npos) << within.err;
  const double limit = nlohmann::json::parse(within.out)["load_step_limit_s"].get<double>();
  EXPECT_GT(limit, 0.04);
  EXPECT_LT(limit, 0.06);  // 2 / sqrt(12 n g / l) = 0.042 for the top link alone, hanging still

  const CliResult past = run(chain + " --dt 0.06");
  EXPECT_EQ(past.code, 1);
  EXPECT_NE(past.err.find("warning: after step 1: the joints' loads make body 'link"), std::string::npos) << past.err;
  const std::size_t failed = past.err.find("error: step ");
  ASSERT_NE(failed, std::string::npos) << past.err;
  const std::size_t advice = past.err.find("try --dt ", failed);
  ASSERT_NE(advice, std::string::npos) << past.err;
  const double suggested = std::stod(past.err.substr(advice + 9));
  EXPECT_LT(suggested, limit);
  const CliResult advised = run(chain + " --dt " + std::to_string(suggested));
  EXPECT_EQ(advised.code, 0) << advised.err;
  EXPECT_EQ(advised.err.find("warning"), std::string::npos) << advised.err;

  // The quadruped's leg springs swing its trunk at about 100 rad/s (0.02 s
  // runs with an energy error of 0.2 J, 0.03 s with 50 J): the warning
  // names the spring and suggests a step within its limit.
  const CliResult sprung = run("simulate quadruped --dt 0.03 --steps 3");
  EXPECT_NE(sprung.err.find("warning: after step 1: the spring of joint '"), std::string::npos) << sprung.err;
  EXPECT_NE(sprung.err.find("' makes body 'trunk' swing at "), std::string::npos) << sprung.err;
  const std::size_t sprung_advice = sprung.err.find("try --dt ");
  ASSERT_NE(sprung_advice, std::string::npos) << sprung.err;
  EXPECT_LT(std::stod(sprung.err.substr(sprung_advice + 9)), 0.75 * 0.03);  // within the limit's margin
  // The gripper's finger spring (500 N/m on two coupled 0.05 kg fingers,
  // sqrt(500 / 0.1) = 70.71 rad/s alone) only squeezes the cube, whose
  // contacts hold the fingers: no warning at 0.1 s.
  const CliResult squeezing = run("simulate gripper --dt 0.1 --steps 20 --json");
  ASSERT_EQ(squeezing.code, 0) << squeezing.err;
  EXPECT_EQ(squeezing.err.find("warning"), std::string::npos) << squeezing.err;
  EXPECT_TRUE(nlohmann::json::parse(squeezing.out)["load_step_limit_s"].is_null());

  // The damped pendulum (1 m, 1 kg, damping 0.5 N m s/rad, no spring): its
  // damper lengthens 2/rate to (c + sqrt(c^2 + 4 J k)) / k = 0.63 s at rest.
  const CliResult damped = run("simulate damped-pendulum --dt 0.7 --steps 3");
  EXPECT_NE(damped.err.find("lengthened by joint damping"), std::string::npos) << damped.err;
  const CliResult within_damped = run("simulate damped-pendulum --dt 0.55 --steps 3");
  EXPECT_EQ(within_damped.err.find("warning"), std::string::npos) << within_damped.err;

  const CliResult free_body = run("simulate t-handle --steps 5 --json");
  ASSERT_EQ(free_body.code, 0) << free_body.err;
  EXPECT_TRUE(nlohmann::json::parse(free_body.out)["load_step_limit_s"].is_null());
}

// A rod pendulum released from 1.5 rad pulls hardest on its pivot at the
// bottom of its swing (about step 50): F = m g + m w^2 l / 2 with
// w^2 = 3 g (1 - cos 1.5) / l, a lever stiffness F l / 2 on the inertia
// m l^2 / 3, a step limit of 0.337 s. At release and after 100 steps the
// limit is above 1.5 s; the checks during the run (after step 64 here) see
// the swing's peak load.
TEST_F(DynamicsCli, LoadsAreCheckedDuringTheRun) {
  const CliResult r = run("simulate pendulum --param angle=1.5 --steps 100 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const double g = 9.81, w2 = 3.0 * g * (1.0 - std::cos(1.5));
  const double bottom = 2.0 / std::sqrt((g + 0.5 * w2) * 0.5 / (1.0 / 3.0));
  const double limit = nlohmann::json::parse(r.out)["load_step_limit_s"].get<double>();
  EXPECT_GT(limit, 0.99 * bottom);
  EXPECT_LT(limit, 1.25 * bottom);
}

// The pendulum's friction parameter is the joint's Coulomb friction: from
// 0.5 rad a 1 m, 1 kg rod with F = 0.5 N m swings down into its dead band,
// |angle| <= F / (m g L/2), and stays there. Its energy falls by all but at
// most the potential energy of the band's edge, and never below the bottom.
TEST_F(DynamicsCli, PendulumFrictionParameterStopsTheSwing) {
  const CliResult r = run("simulate pendulum --param friction=0.5 --steps 300 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const double torque_scale = 9.81 * 0.5, band = 0.5 / torque_scale;
  const double start = torque_scale * (1.0 - std::cos(0.5)), left_at_most = torque_scale * (1.0 - std::cos(band));
  const double drift = nlohmann::json::parse(r.out)["energy_drift"].get<double>();
  EXPECT_LT(drift, -(start - left_at_most));
  EXPECT_GT(drift, -start);
}

// A resting body sinks by the regularization times |g| dt^2, shared by its
// four bottom corners: about 2.5e-7 m at 1e-3, nothing with rigid contacts.
TEST_F(DynamicsCli, ContactRegularizationSetsHowFarARestingBodySinks) {
  double lowest[2];
  const char* values[2] = {"0", "1e-3"};
  for (int i = 0; i < 2; ++i) {
    const CliResult r = run(std::string("simulate box-drop --param height=0 --steps 20 --json --contact-regularization ") +
                            values[i]);
    ASSERT_EQ(r.code, 0) << r.err;
    lowest[i] = nlohmann::json::parse(r.out)["min_signed_distance"].get<double>();
  }
  EXPECT_GT(lowest[0], -1e-10);
  EXPECT_NEAR(lowest[1], -1e-3 * 9.81 * 1e-4 / 4.0, 0.05 * 1e-3 * 9.81 * 1e-4 / 4.0);
}

// The cube of box-incline sticks on its four lower corners; with friction
// regularization r it creeps down the slope at r g sin(0.3) dt / 4 (see
// test_friction_regularization), and not at all with 0.
TEST_F(DynamicsCli, FrictionRegularizationSetsHowFastAStickingBoxCreeps) {
  double speed[2];
  const char* values[2] = {"0", "0.1"};
  for (int i = 0; i < 2; ++i) {
    const CliResult r =
        run(std::string("simulate box-incline --steps 20 --out t.csv --friction-regularization ") + values[i]);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::vector<double> v = csv_numbers(last_row("t.csv"));
    ASSERT_EQ(v.size(), 9u + 13u);
    speed[i] = std::hypot(v[16], v[17], v[18]);  // box.vx, vy, vz
  }
  const double expected = 0.1 * 9.81 * std::sin(0.3) * 0.01 / 4.0;
  EXPECT_LT(speed[0], 1e-9);
  EXPECT_NEAR(speed[1], expected, 0.01 * expected);
}

// The pendulum held at 0.3 rad by friction twice gravity's torque there
// creeps at v atanh(1/2) (test_joint_friction): 100 times slower at v = 1e-5.
TEST_F(DynamicsCli, JointFrictionVelocitySetsHowFastAHeldJointCreeps) {
  const double load = 9.81 * 0.5 * std::sin(0.3);
  double moved[2];
  const char* values[2] = {"1e-3", "1e-5"};
  for (int i = 0; i < 2; ++i) {
    const CliResult r = run("simulate pendulum --param angle=0.3 --param friction=" + std::to_string(2.0 * load) +
                            " --steps 100 --out t.csv --joint-friction-velocity " + values[i]);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::vector<double> v = csv_numbers(last_row("t.csv"));
    ASSERT_EQ(v.size(), 9u + 13u);
    moved[i] = 0.3 - 2.0 * std::atan2(v[14], v[12]);  // the link's turn about y, from its qw and qy
  }
  const double expected = 1e-3 * std::atanh(0.5) * 1.0;  // 1 s
  EXPECT_NEAR(moved[0], expected, 0.05 * expected);
  EXPECT_NEAR(moved[1], 1e-2 * expected, 0.05 * 1e-2 * expected);
}

TEST_F(DynamicsCli, UrdfModelsRunWithFloatingRoots) {
  write("robot.urdf", free_body_urdf("base"));
  const CliResult r = run("simulate robot.urdf --steps 10 --q0 base=0:0:1:0:0:0 --v0 base=1:0:0:0:0:0 --out t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::vector<double> v = csv_numbers(last_row("t.csv"));
  ASSERT_EQ(v.size(), 9u + 13u);
  EXPECT_TRUE(std::isinf(v[7]));  // no contacts
  EXPECT_EQ(v[8], 0.0);           // no interior-point iterations
  EXPECT_NEAR(v[9], 0.1, 1e-12);  // x after 0.1 s at 1 m/s
  EXPECT_NEAR(v[11], 1.0 - 9.81 * 0.01 * 0.01 * 10 * 11 / 2, 1e-12);
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

// A placeholder link given a token mass between a hinge and a heavy link is
// named before the run (docs/dynamics.md, "Light links between heavy ones");
// a plain double pendulum gets no such warning.
TEST_F(DynamicsCli, LinksFarLighterThanTheirNeighboursAreWarnedOf) {
  const auto robot = [](const std::string& upper_mass) {
    std::string upper = dynamics::test::rod("upper");
    const std::string one = "<mass value='1'/>";
    upper.replace(upper.find(one), one.size(), "<mass value='" + upper_mass + "'/>");
    return "<robot name='r'><link name='world'/>" + upper + dynamics::test::rod("lower") +
           dynamics::test::hinge("shoulder", "world", "upper", "0 0 0") +
           dynamics::test::hinge("elbow", "upper", "lower", "0 0 -1") + "</robot>";
  };
  write("light.urdf", robot("1e-12"));
  const CliResult light = run("simulate light.urdf --steps 1");
  const std::string warning =
      "body 'upper' (1e-12 kg) is 1e-12 times as heavy as body 'lower' (1 kg), jointed to it by 'elbow'";
  EXPECT_NE(light.err.find("warning: " + warning), std::string::npos) << light.err;
  // The step that fails names the light link as the cause, not the step size.
  EXPECT_EQ(light.code, 1);
  EXPECT_NE(light.err.find("); body 'upper' is 1e-12 times as heavy as body 'lower' (warned of above): give it "
                           "more mass and inertia (--bound-mass, --bound-inertia)"),
            std::string::npos)
      << light.err;
  EXPECT_EQ(light.err.find("smaller --dt"), std::string::npos) << light.err;
  // With --json, the summary lists every warning the run printed, as printed.
  const CliResult json = run("simulate light.urdf --steps 0 --json");
  ASSERT_EQ(json.code, 0) << json.err;
  const auto warnings = nlohmann::json::parse(json.out)["warnings"];
  ASSERT_EQ(warnings.size(), 1u) << json.out;
  const std::string line = warnings[0].get<std::string>();
  EXPECT_EQ(line.rfind(warning, 0), 0u) << line;
  EXPECT_NE(json.err.find("dynamics: warning: " + line + "\n"), std::string::npos) << json.err;
  write("plain.urdf", robot("1"));
  const CliResult plain = run("simulate plain.urdf --steps 1");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(plain.err.find("warning"), std::string::npos) << plain.err;
}

// A light end link carries no load between joints: no warning, and it runs.
TEST_F(DynamicsCli, LightEndLinksAreNotWarnedOf) {
  std::string lower = dynamics::test::rod("lower");
  const std::string one = "<mass value='1'/>";
  lower.replace(lower.find(one), one.size(), "<mass value='1e-12'/>");
  write("end.urdf", "<robot name='r'><link name='world'/>" + dynamics::test::rod("upper") + lower +
                        dynamics::test::hinge("shoulder", "world", "upper", "0 0 0") +
                        dynamics::test::hinge("elbow", "upper", "lower", "0 0 -1") + "</robot>");
  const CliResult r = run("simulate end.urdf --steps 100 --q0 shoulder=0.5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

// A link name with a comma and quotes is one quoted header field per column
// (RFC 4180), so a CSV reader still finds 13 columns per body.
TEST_F(DynamicsCli, CsvHeaderQuotesNamesWithCommasAndQuotes) {
  write("robot.urdf", free_body_urdf("arm,&quot;l=r&quot;"));
  // --q0 finds the floating joint, named after the link: a name may hold ','
  // and '=', which values never do.
  const CliResult r = run("simulate robot.urdf --steps 2 --q0 'arm,\"l=r\"=0:0:1:0:0:0' --out t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream csv(dir_ / "t.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",\"arm,\"\"l=r\"\".x\",\"arm,\"\"l=r\"\".y\","), std::string::npos) << header;
  // Split as a CSV reader does: commas inside quotes do not count.
  int fields = 1;
  bool quoted = false;
  for (char c : header) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) ++fields;
  }
  EXPECT_FALSE(quoted);
  EXPECT_EQ(fields, 9 + 13);
  EXPECT_EQ(csv_numbers(last_row("t.csv")).size(), 9u + 13u);
  EXPECT_EQ(csv_numbers(first_row("t.csv"))[11], 1.0);  // z as --q0 set it
}

// File names are bytes: a model path that is not UTF-8 still gets its JSON
// summary, with U+FFFD for the byte JSON cannot hold.
// --out where the path points: "-" is standard output (the summary then goes
// to stderr), a symbolic link keeps pointing at the file it names (whose
// permissions stay), and a FIFO (as /dev/null or /dev/stdout, which a renamed
// temporary would replace with a regular file) is written in place.
TEST_F(DynamicsCli, TrajectoryGoesWhereTheOutPathPoints) {
  CliResult r = run("simulate pendulum --steps 3 --out -");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("step,t,energy", 0), 0u) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5);  // the header and steps 0 to 3
  EXPECT_NE(r.err.find("pendulum: 1 bodies"), std::string::npos) << r.err;

  link_to_private_file("link.csv", "real.csv");
  r = run("simulate pendulum --steps 3 --out link.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.csv"));
  EXPECT_EQ(last_row("real.csv").rfind("3,0.03,", 0), 0u) << last_row("real.csv");
  EXPECT_EQ(fs::status(dir_ / "real.csv").permissions() & fs::perms::all, kOwnerWriteGroupRead);

  std::string text;
  r = run_writing_to_fifo("simulate pendulum --steps 3 --out pipe.csv", "pipe.csv", text);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(text.rfind("step,t,energy", 0), 0u) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe.csv"));
}

// Output to standard output that does not get there (a full disk) fails the
// run instead of passing unseen with exit status 0.
TEST_F(DynamicsCli, StandardOutputThatCannotBeWrittenFailsTheRun) {
  if (!fs::is_character_file("/dev/full")) GTEST_SKIP() << "no /dev/full";
  for (const char* args : {"simulate pendulum --steps 3 --json", "simulate pendulum --steps 3", "models",
                           "simulate pendulum --steps 3 --out -"}) {
    const CliResult r = run(args, "", "/dev/full");
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << args << ": " << r.err;
  }
}

TEST_F(DynamicsCli, JsonSummaryTakesModelPathsThatAreNotUtf8) {
  write("caf\xe9.urdf", free_body_urdf("base"));
  const CliResult r = run("simulate 'caf\xe9.urdf' --steps 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["model"], "caf\xef\xbf\xbd.urdf");
  EXPECT_EQ(summary["steps"], 2);
}

// A file is read as URDF whatever its extension's case or name (robot.xml),
// unless a built-in model has that name; a xacro template is refused with
// how to expand it.
TEST_F(DynamicsCli, UrdfFilesAreFoundByContentNotOnlyByExtension) {
  const std::string robot = free_body_urdf("base");
  for (const char* name : {"ROBOT.URDF", "robot.xml", "robot"}) {
    write(name, robot);
    const CliResult r = run(std::string("simulate ") + name + " --steps 3 --json");
    ASSERT_EQ(r.code, 0) << name << ": " << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["bodies"], 1) << name;
  }
  write("robot.urdf.xacro", robot);
  const CliResult xacro = run("simulate robot.urdf.xacro --steps 3 --fixed-base");
  EXPECT_EQ(xacro.code, 1);
  EXPECT_NE(xacro.err.find("robot.urdf.xacro: a xacro file"), std::string::npos) << xacro.err;
  EXPECT_NE(xacro.err.find("xacro robot.urdf.xacro > robot.urdf"), std::string::npos) << xacro.err;
  // A pipe is read as URDF too (xacro robot.xacro | dynamics simulate /dev/stdin).
  ASSERT_EQ(::mkfifo((dir_ / "piped").c_str(), 0600), 0);
  const CliResult piped = run("simulate piped --steps 3 --json", "(cat robot > piped &)");
  if (const int unblock = ::open((dir_ / "piped").c_str(), O_RDONLY | O_NONBLOCK); unblock >= 0)
    ::close(unblock);  // a writer the program did not read from is let go (SIGPIPE)
  ASSERT_EQ(piped.code, 0) << piped.err;
  EXPECT_EQ(nlohmann::json::parse(piped.out)["bodies"], 1);
  // A built-in name wins over a file of that name in the working directory.
  write("pendulum", "not a URDF file");
  const CliResult builtin = run("simulate pendulum --steps 3 --json");
  ASSERT_EQ(builtin.code, 0) << builtin.err;
  // A path to no file says so, as well as that no built-in model has that name.
  for (const char* path : {"missing.xml", "sub/robot", "."}) {
    const CliResult missing = run(std::string("simulate ") + path);
    EXPECT_EQ(missing.code, 1) << path;
    EXPECT_NE(missing.err.find(std::string(path) + ": " + (path[0] == '.' ? "a directory" : "no such file") +
                               ", and no built-in model has that name (`dynamics models` lists them)"),
              std::string::npos)
        << missing.err;
  }
  // The trajectory never replaces the model file, however the path is spelt.
  const CliResult onto_model = run("simulate robot.xml --steps 3 --out ./robot.xml");
  EXPECT_EQ(onto_model.code, 1);
  EXPECT_NE(onto_model.err.find("--out ./robot.xml is the model file; write the trajectory to another file"),
            std::string::npos)
      << onto_model.err;
  EXPECT_EQ(slurp(dir_ / "robot.xml"), robot);
  // A file that is not URDF says so through the URDF reader.
  write("model.xml", "<mujoco model='m'><worldbody/></mujoco>");
  const CliResult mjcf = run("simulate model.xml --steps 3");
  EXPECT_EQ(mjcf.code, 1);
  EXPECT_NE(mjcf.err.find("model.xml: "), std::string::npos) << mjcf.err;
}

TEST_F(DynamicsCli, BuiltinGripperHoldsItsCube) {
  const CliResult r = run("simulate gripper --steps 50 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["couplings"], 1);
  EXPECT_EQ(s["colliders"], 3);
  EXPECT_GT(s["collider_contacts_max"].get<int>(), 0);
  EXPECT_GT(s["min_signed_distance"].get<double>(), -1e-6);
}

// A slider that falls 0.1 m onto its lower limit and rests there: its
// resting steps are solved with the limit held, counted in both summaries;
// --keep-open-inequalities solves them with the interior point.
TEST_F(DynamicsCli, StepsWithAHeldLimitAreCountedAndCanBeKept) {
  write("slider.urdf",
        "<robot name='s'><link name='world'/><link name='block'><inertial><mass value='1'/>"
        "<inertia ixx='0.01' iyy='0.01' izz='0.01' ixy='0' ixz='0' iyz='0'/></inertial></link>"
        "<joint name='slide' type='prismatic'><parent link='world'/><child link='block'/><axis xyz='0 0 1'/>"
        "<limit lower='-0.1' upper='1' effort='1' velocity='1'/></joint></robot>");
  // 0.1 m of free fall: 15 steps.
  const std::string line = "steps solved holding the joint limits that close, the rest open: ";
  const auto s = expect_steps_counted_and_kept("slider.urdf", "limits_held_steps", line, 75, 90);
  EXPECT_LE(s.value("max_constraint_violation", 1.0), 1e-9);
}

// A gripper-like URDF: the second finger mimics the first. --q0 gives the
// leader; the follower takes its place without a projection.
TEST_F(DynamicsCli, UrdfMimicJointsFollowTheirLeader) {
  const std::string finger =
      "<inertial><mass value='0.1'/><inertia ixx='1e-4' iyy='1e-4' izz='1e-4' ixy='0' ixz='0' iyz='0'/></inertial>";
  const std::string fingers =
      "<robot name='g'><link name='world'/><link name='f1'>" + finger + "</link><link name='f2'>" + finger +
      "</link><joint name='s1' type='prismatic'><parent link='world'/><child link='f1'/><axis xyz='0 0 1'/>"
      "<limit lower='-1' upper='1' effort='1' velocity='1'/></joint>"
      "<joint name='s2' type='prismatic'><parent link='world'/><child link='f2'/><origin xyz='0.1 0 0'/>"
      "<axis xyz='0 0 1'/><limit lower='-1' upper='1' effort='1' velocity='1'/>"
      "<mimic joint='s1' multiplier='-1'/></joint>";
  write("gripper.urdf", fingers + "</robot>");
  CliResult r = run("simulate gripper.urdf --steps 20 --q0 s1=0.2 --json --out t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_EQ(s["couplings"], 1);
  EXPECT_FALSE(s["projection"]["applied"].get<bool>());
  EXPECT_LE(s["max_constraint_violation"].get<double>(), 1e-8);
  const std::vector<double> v = csv_numbers(first_row("t.csv"));
  ASSERT_EQ(v.size(), 9u + 2u * 13u);
  EXPECT_NEAR(v[9 + 2], 0.2, 1e-12);        // f1.z
  EXPECT_NEAR(v[9 + 13 + 2], -0.2, 1e-12);  // f2.z: mimics with multiplier -1
  r = run("simulate gripper.urdf --steps 2 --q0 s2=0.1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--q0: joint 's2' follows joint 's1' (coupling 's2'); give the leader's value"),
            std::string::npos)
      << r.err;
  // A third finger mimics the second: the message names the head of the chain.
  write("chain.urdf", fingers + "<link name='f3'>" + finger +
                          "</link><joint name='s3' type='prismatic'><parent link='world'/><child link='f3'/>"
                          "<origin xyz='0.2 0 0'/><axis xyz='0 0 1'/>"
                          "<limit lower='-1' upper='1' effort='1' velocity='1'/>"
                          "<mimic joint='s2' multiplier='0.5'/></joint></robot>");
  r = run("simulate chain.urdf --steps 2 --q0 s3=0.1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("--q0: joint 's3' follows joint 's2' (coupling 's3'); give the value of the chain's "
                       "leader, 's1'"),
            std::string::npos)
      << r.err;
}

// A hand with mass bolted to an arm: one body by default, two (and a CSV
// block each) with --keep-welded-links.
TEST_F(DynamicsCli, UrdfWeldedLinksFuseUnlessKeptApart) {
  const std::string inertial =
      "<inertial><mass value='1'/><inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>";
  write("arm.urdf", "<robot name='r'><link name='world'/><link name='arm'>" + inertial +
                        "</link><link name='hand'>" + inertial +
                        "</link><joint name='shoulder' type='continuous'><parent link='world'/><child link='arm'/>"
                        "<origin xyz='0 0 -0.5'/><axis xyz='0 1 0'/></joint><joint name='bolt' type='fixed'>"
                        "<parent link='arm'/><child link='hand'/><origin xyz='0 0 -0.5'/></joint></robot>");
  for (const bool keep : {false, true}) {
    const CliResult r = run(std::string("simulate arm.urdf --steps 50 --q0 shoulder=1 --json --out t.csv") +
                            (keep ? " --keep-welded-links" : ""));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["bodies"], keep ? 2 : 1);
    EXPECT_EQ(s["joints"], keep ? 2 : 1);
    EXPECT_LE(s["max_constraint_violation"].get<double>(), 1e-10);
    std::ifstream csv(dir_ / "t.csv");
    std::string header;
    std::getline(csv, header);
    EXPECT_EQ(header.find("hand.x") != std::string::npos, keep) << header;
  }
}

// A root link without a joint to the world floats, unless --fixed-base welds
// it there (the arm then hangs from the origin and swings in place).
TEST_F(DynamicsCli, UrdfFixedBaseWeldsTheRootLink) {
  write("arm.urdf", "<robot name='r'>" + dynamics::test::rod("base") + dynamics::test::rod("arm") +
                        dynamics::test::hinge("shoulder", "base", "arm", "0 0 -1") + "</robot>");
  for (const bool fixed : {false, true}) {
    const CliResult r = run(std::string("simulate arm.urdf --steps 100 --q0 shoulder=1 --json --out t.csv") +
                            (fixed ? " --fixed-base" : ""));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto s = nlohmann::json::parse(r.out);
    EXPECT_EQ(s["bodies"], fixed ? 1 : 2);
    EXPECT_EQ(s["joints"], fixed ? 1 : 2);
    const std::vector<double> v = csv_numbers(last_row("t.csv"));
    const double arm_z = v[9 + (fixed ? 0 : 13) + 2];
    if (fixed)  // the arm's centre stays 0.5 m from its hinge at z = -1
      EXPECT_NEAR(std::hypot(arm_z + 1.0, v[9]), 0.5, 1e-9);
    else  // base and arm fall together
      EXPECT_LT(arm_z, -1.5 - 0.5 * 9.81 * 0.9);
  }
}

// A point mass (PyBullet's zero-inertia sphere) loads with --bound-inertia,
// which the warning names.
TEST_F(DynamicsCli, UrdfBoundInertiaLetsAPointMassLoad) {
  write("ball.urdf", "<robot name='r'><link name='ball'><inertial><mass value='0.1'/><inertia ixx='0' iyy='0' "
                     "izz='0' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>");
  CliResult r = run("simulate ball.urdf --steps 5");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("CLI --bound-inertia"), std::string::npos) << r.err;
  r = run("simulate ball.urdf --steps 5 --bound-inertia 1e-5 --bound-mass 0.01");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: ball.urdf: body 'ball': principal moments below 1e-05 kg m^2 (smallest 0) raised to "
                       "it (bound_mass, bound_inertia)"),
            std::string::npos)
      << r.err;
}

// Moments no rigid body has (PyBullet's TwoJointRobot has such links) load
// with --balance-inertia, which the error names and the warning reports.
TEST_F(DynamicsCli, UrdfBalanceInertiaLetsImpossibleMomentsLoad) {
  write("arm.urdf", "<robot name='r'><link name='arm'><inertial><mass value='0.5'/><inertia ixx='0.002' iyy='0.167' "
                    "izz='0.17' ixy='0' ixz='0' iyz='0'/></inertial></link></robot>");
  CliResult r = run("simulate arm.urdf --steps 5");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("link 'arm': <inertia>'s principal moments 0.002, 0.167 and 0.17 violate the triangle "
                       "inequality"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("CLI --balance-inertia"), std::string::npos) << r.err;
  r = run("simulate arm.urdf --steps 5 --balance-inertia");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: arm.urdf: link 'arm': <inertia>'s principal moments 0.002, 0.167 and 0.17 violate "
                       "the triangle inequality; replaced by their mean 0.113 kg m^2 (balance_inertia)"),
            std::string::npos)
      << r.err;
}

// PyBullet's cart-pole: a cart whose box reaches 0.1 m into the ground,
// held there by its slider. The first step cannot lift it, or (at rest) a
// later one; the error says why, and --no-contacts runs it without the ground.
TEST_F(DynamicsCli, UrdfShapesHeldInsideTheGroundAreNamedAsTheCause) {
  write("cart.urdf",
        "<robot name='r'><link name='world'/><link name='cart'><inertial><mass value='1'/><inertia ixx='1' iyy='1' "
        "izz='1' ixy='0' ixz='0' iyz='0'/></inertial><collision><geometry><box size='0.5 0.5 0.2'/></geometry>"
        "</collision></link><joint name='slide' type='prismatic'><parent link='world'/><child link='cart'/>"
        "<axis xyz='1 0 0'/><limit lower='-15' upper='15' effort='1' velocity='1'/></joint></robot>");
  CliResult r = run("simulate cart.urdf --steps 10 --v0 slide=1");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("step 1 (t = 0.01 s) failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the shapes started 0.1 m inside the ground or each other: place the model with --q0 or move "
                       "the ground with --ground (or drop it with --no-contacts)"),
            std::string::npos)
      << r.err;
  r = run("simulate cart.urdf --steps 10");  // at rest the first step converges, pushing in vain
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find("step 1 (t = 0.01 s) failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the shapes started 0.1 m inside the ground or each other and are still 0.1 m deep: place "
                       "the model with --q0"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("try a smaller --dt"), std::string::npos) << r.err;
  r = run("simulate cart.urdf --steps 10 --v0 slide=1 --no-contacts --json --out t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["contacts"], 0);
  EXPECT_NEAR(csv_numbers(last_row("t.csv"))[9], 0.1, 1e-12);  // cart.x: 10 steps at 1 m/s
}

// A hinge limited to [0.2, 1] whose default angle, 0, lies outside: the run
// starts on the limit at rest (instead of being thrown there within the
// first step), and says so; a --q0 outside the limits is an error.
TEST_F(DynamicsCli, DefaultCoordinatesOutsideTheirLimitsStartOnThem) {
  const std::string inertial =
      "<inertial><origin xyz='0 0 -0.5'/><mass value='1'/>"
      "<inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>";
  const std::string hinge = "<axis xyz='0 1 0'/><limit lower='0.2' upper='1' effort='1' velocity='1'/>";
  write("arm.urdf", "<robot name='r'><link name='world'/><link name='a'>" + inertial + "</link><link name='b'>" +
                        inertial + "</link><joint name='j1' type='revolute'><parent link='world'/><child link='a'/>" +
                        hinge + "</joint><joint name='j2' type='revolute'><parent link='world'/><child link='b'/>" +
                        "<origin xyz='1 0 0'/>" + hinge + "<mimic joint='j1'/></joint></robot>");
  CliResult r = run("simulate arm.urdf --steps 20 --json --out t.csv");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("dynamics: warning: initial state: joint 'j1' at 0 lies below its lower limit 0.2; it starts "
                       "on the limit (choose with --q0)"),
            std::string::npos)
      << r.err;
  const auto s = nlohmann::json::parse(r.out);
  EXPECT_LT(std::abs(s["max_energy_error"].get<double>()), 1e-3);  // no kick
  const std::vector<double> v = csv_numbers(first_row("t.csv"));
  ASSERT_EQ(v.size(), 9u + 2u * 13u);
  EXPECT_NEAR(v[9], -0.5 * std::sin(0.2), 1e-12);            // a.x, hanging 0.2 rad from the vertical
  EXPECT_NEAR(v[9 + 13], 1.0 - 0.5 * std::sin(0.2), 1e-12);  // b.x: the follower came along
  for (const auto& [args, message] : std::vector<std::pair<std::string, std::string>>{
           {"--q0 j1=1.5", "--q0: joint 'j1' at 1.5 lies above its upper limit 1"},
           {"--q0 j1=0.1", "--q0: joint 'j1' at 0.1 lies below its lower limit 0.2"},
       }) {
    r = run("simulate arm.urdf --steps 2 " + args);
    EXPECT_EQ(r.code, 1) << args;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  // The follower's limits exclude where its leader starts it.
  write("tight.urdf", "<robot name='r'><link name='world'/><link name='a'>" + inertial + "</link><link name='b'>" +
                          inertial + "</link><joint name='j1' type='continuous'><parent link='world'/>"
                          "<child link='a'/><axis xyz='0 1 0'/></joint><joint name='j2' type='revolute'>"
                          "<parent link='world'/><child link='b'/><origin xyz='1 0 0'/>" + hinge +
                          "<mimic joint='j1'/></joint></robot>");
  r = run("simulate tight.urdf --steps 2");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("initial state: joint 'j2' at 0 lies below its lower limit 0.2; its value follows from joint "
                       "'j1': choose values inside the limits with --q0"),
            std::string::npos)
      << r.err;
}

TEST_F(DynamicsCli, UrdfElementsLeftOutAreWarnedAbout) {
  write("meshy.urdf",
        "<robot name='r'><link name='base'><inertial><mass value='2'/>"
        "<inertia ixx='0.1' iyy='0.1' izz='0.1' ixy='0' ixz='0' iyz='0'/></inertial>"
        "<collision><geometry><mesh filename='base.stl'/></geometry></collision></link></robot>");
  const CliResult r = run("simulate meshy.urdf --steps 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("dynamics: warning: meshy.urdf: link 'base': <collision> mesh 'base.stl' gets no contacts"),
            std::string::npos)
      << r.err;
}

TEST_F(DynamicsCli, ContactModelsReportDistanceAndInteriorPointIterations) {
  // A box dropped on a ground tilted by 0.2 rad, friction 0.1: it lands and slides.
  const CliResult r = run("simulate box-drop --param height=0.1 --steps 80 --ground 0.19866933,0,0.98006658,0 "
                          "--friction 0.1 --out box.csv --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["contacts"], 8);
  EXPECT_GE(summary["min_signed_distance"].get<double>(), -1e-6);
  std::ifstream csv(dir_ / "box.csv");
  std::string line, last;
  std::getline(csv, line);
  int rows = 0;
  double min_distance = 1e9;
  while (std::getline(csv, line)) {
    const std::vector<double> v = csv_numbers(line);
    min_distance = std::min(min_distance, v[7]);
    if (rows > 0) {
      EXPECT_GE(v[8], 1.0);  // every step ran the interior-point method
    }
    ++rows;
    last = line;
  }
  EXPECT_EQ(rows, 81);
  EXPECT_GE(min_distance, -1e-6);
  EXPECT_LT(min_distance, 1e-3);  // it did land
  const std::vector<double> v = csv_numbers(last);
  EXPECT_GT(v[9], 0.01);  // box.x: sliding down the incline (downhill is +x)
  EXPECT_EQ(r.err.find("inside the ground"), std::string::npos) << r.err;
  // A ground raised 0.3 m above the box's lowest corners, 0.1 m up.
  const CliResult buried = run("simulate box-drop --param height=0.1 --steps 2 --ground 0,0,1,0.3");
  ASSERT_EQ(buried.code, 0) << buried.err;
  EXPECT_NE(buried.err.find("dynamics: warning: initial state: shapes start 0.2 m inside the ground or each other"),
            std::string::npos)
      << buried.err;
  const CliResult bad = run("simulate box-drop --ground 0,0,0");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find("ground normal is zero"), std::string::npos) << bad.err;
  const CliResult bad2 = run("simulate box-drop --ground 1,2");
  EXPECT_EQ(bad2.code, 1);
  EXPECT_NE(bad2.err.find("--ground: expected nx,ny,nz[,offset]"), std::string::npos) << bad2.err;
}

TEST_F(DynamicsCli, CollidersReportTheirContactsAndTakeTheFrictionOption) {
  // Head-on collision of equal spheres: perfectly inelastic, half the energy goes.
  CliResult r = run("simulate sphere-collision --steps 60 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["contacts"], 0);
  EXPECT_EQ(summary["colliders"], 2);
  EXPECT_EQ(summary["collider_contacts_max"], 1);
  EXPECT_GE(summary["min_signed_distance"].get<double>(), -1e-6);
  EXPECT_NEAR(summary["energy_final"].get<double>(), 1.0, 1e-3);
  // The text summary counts the same colliders and contacts.
  const CliResult text = run("simulate sphere-collision --steps 60");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("0 ground contacts, 2 colliders (contacts between them: up to 1), min signed distance"),
            std::string::npos)
      << text.out;
  // A ball sliding on the table keeps its energy without friction; with it,
  // it ends rolling at 5/7 of its speed, having lost 2/7 of 0.5 J: --friction
  // reaches collider contacts.
  for (const char* friction : {"0", "0.5"}) {
    r = run(std::string("simulate ball-on-table --param height=0 --param speed=1 --steps 30 --json --friction ") +
            friction);
    ASSERT_EQ(r.code, 0) << r.err;
    summary = nlohmann::json::parse(r.out);
    const double drift = summary["energy_drift"].get<double>();
    if (std::string(friction) == "0") EXPECT_NEAR(drift, 0.0, 1e-6);
    else EXPECT_NEAR(drift, -0.5 * 2.0 / 7.0, 2e-3);
  }
}

TEST_F(DynamicsCli, BadInputFailsWithAClearMessageAndNoOutput) {
  struct Case {
    std::string args, message;
    int code;
  };
  write("bad.urdf", "<robot name='r'><link name='a'>");
  fs::create_directory(dir_ / "outdir");
  for (const Case& c : std::vector<Case>{
           {"simulate nope", "unknown model 'nope'", 1},
           {"simulate pendulum --param size=3", "has no parameter 'size'", 1},
           {"simulate pendulum --param length=abc", "must be a number", 1},
           {"simulate pendulum --param mass=1e200", "body 'link1': mass 1e+200 kg is outside [1e-150, 1e+150] kg", 1},
           {"simulate n-link-pendulum --param joint=hinge", "revolute or spherical", 1},
           {"simulate pendulum --q0 elbow=1", "unknown joint 'elbow' (joints with coordinates: joint1; fixed joints have none)", 1},
           {"simulate pendulum --q0 Joint_1=1", "unknown joint 'Joint_1', did you mean 'joint1'? (joints with", 1},
           {"simulate double_pendulum", "unknown model 'double_pendulum', did you mean 'double-pendulum'?", 1},
           // The loop-closing joint4 and the joints past the twelfth are not listed.
           {"simulate four-bar --q0 crank=1", "unknown joint 'crank' (joints with coordinates: joint1, joint2, joint3;", 1},
           {"simulate n-link-pendulum --param n=20 --v0 x=1", "joint11, joint12, ... (20 in all); fixed", 1},
           {"simulate pendulum --q0 joint1=1:2", "has 1 coordinate, got 2", 1},
           {"simulate pendulum --q0 joint1", "expected joint=value", 1},
           {"simulate pendulum --q0 joint1=1 --q0 joint1=2", "--q0: joint 'joint1' is given twice", 1},
           {"simulate pendulum --param length=1 --param length=2", "--param: 'length' is given twice", 1},
           {"simulate pendulum --param length", "--param: expected key=value, got 'length'", 1},
           {"simulate pendulum --steps 2 --out outdir", "--out outdir: cannot write: Is a directory", 1},
           {"simulate pendulum --steps 2 --out nodir/o.csv", "--out nodir/o.csv: cannot write: No such file or directory", 1},
           {"simulate pendulum --steps 2 --out - --json", "--out - and --json both write to standard output", 1},
           // Mistyped words get the nearest command or option; a repeated option says so.
           {"simulat pendulum", "unknown command 'simulat' (did you mean simulate?); the commands are models, simulate", 2},
           {"simulate pendulum --stpes 3", "unknown option --stpes (did you mean --steps?)", 2},
           {"simulate pendulum --toll=3", "unknown option --toll (did you mean --tol?)", 2},
           {"simulate pendulum --frobnicate", "unknown option --frobnicate (see dynamics --help)", 2},
           {"simulate pendulum --dt 0.1 --dt 0.2", "--dt is given 2 times; give it once", 2},
           {"simulate pendulum extra", "unexpected argument: 'extra'", 2},
           {"simulate pendulum --out o.csv --steps", "--steps needs a value (INT:NONNEGATIVE)", 2},
           {"simulate pendulum --v0 joint1=250 --max-substeps 1", "initial state: body 'link1' turns at 250 rad/s, but a step of --dt 0.01 s carries at most a quarter turn, sqrt(2)/dt = 141.421 rad/s", 1},
           {"simulate pendulum --v0 joint1=2000",
            "initial state: body 'link1' turns at 2000 rad/s, but 8 sub-steps of --dt 0.01 s carry at most a quarter turn each, 1131.37 rad/s", 1},
           {"simulate four-bar --q0 joint4=0.1", "closes a loop", 1},
           {"simulate pendulum --gravity 0,9", "expected x,y,z", 1},
           {"simulate pendulum --gravity 0x1,0,-9.81", "--gravity: '0x1' is not a number", 1},
           {"simulate pendulum --v0 joint1=1e999", "--v0 joint1: must be finite, got '1e999'", 1},
           {"simulate pendulum --gravity 0,0,-inf", "--gravity: must be finite, got '-inf'", 1},
           // The options of one number read it as --q0 does: decimal only.
           {"simulate pendulum --dt 0x1p-7", "--dt: '0x1p-7' is not a number", 2},
           {"simulate pendulum --tol 1e-400", "--tol: must be positive, got 1e-400", 2},
           {"simulate pendulum --q0 'joint1=0.5 rad'", "'0.5 rad' is not a number", 1},
           {"simulate bad.urdf", "malformed XML", 1},
           {"simulate missing.urdf", "cannot open", 1},
           {"simulate bad.urdf --param n=2", "built-in models only", 1},
           {"simulate pendulum --keep-welded-links", "--keep-welded-links applies to URDF files only", 1},
           {"simulate pendulum --fixed-base", "--fixed-base applies to URDF files only", 1},
           {"simulate pendulum --no-contacts", "--no-contacts applies to URDF files only", 1},
           {"simulate pendulum --bound-mass 0.01", "--bound-mass and --bound-inertia apply to URDF files only", 1},
           {"simulate pendulum --balance-inertia", "--balance-inertia applies to URDF files only", 1},
           {"simulate pendulum --bound-inertia -1", "--bound-inertia: must be zero or positive, got -1", 2},
           {"simulate pendulum --dt -1", "--dt: must be positive, got -1", 2},
           {"simulate pendulum --dt 0", "--dt: must be positive, got 0", 2},
           {"simulate pendulum --joint-friction-velocity 0", "--joint-friction-velocity: must be positive, got 0", 2},
           {"simulate pendulum --tol abc", "--tol: 'abc' is not a number", 2},
           {"simulate pendulum --steps -5", "--steps: must be zero or positive, got -5", 2},
           // A count past the range of long is no endless run (CLI11 alone made it LONG_MAX).
           {"simulate pendulum --steps 99999999999999999999",
            "--steps: must be at most 9223372036854775807, got 99999999999999999999", 2},
           {"simulate pendulum --steps -99999999999999999999", "--steps: must be zero or positive, got -9999", 2},
           {"simulate pendulum --steps 0x10", "--steps: '0x10' is not a whole number", 2},
           {"simulate pendulum --steps 1e3", "--steps: '1e3' is not a whole number", 2},
           {"simulate pendulum --max-iterations 3000000000", "--max-iterations: must be at most 2147483647", 2},
           {"simulate pendulum --max-iterations 0", "--max-iterations: must be positive, got 0", 2},
           {"simulate pendulum --dt 0.5 --param angle=3 --max-iterations 1 --out o.csv", "failed", 1},
           {"simulate pendulum --dt 0.5 --param angle=3 --max-iterations 1 --max-substeps 1",
            "try a smaller --dt, --max-substeps 8", 1},
           {"simulate pendulum --dt 0.5 --param angle=3 --max-iterations 1",
            "after 4 Newton iterations, the last ones in 8 sub-steps", 1},
           {"simulate pendulum --max-substeps 0", "--max-substeps: must be positive, got 0", 2},
           {"simulate pendulum --substep-hold -1", "--substep-hold: must be zero or positive, got -1", 2},
           {"simulate box-drop --contact-regularization -1", "--contact-regularization: must be zero or positive", 2},
           {"simulate box-drop --friction-regularization nan", "--friction-regularization: 'nan' is not a number", 2},
           {"simulate pendulum --dt inf", "--dt: must be finite, got inf", 2},
           // Finite, but m g dt overflows: once a step of no iteration, exit code 0.
           {"simulate pendulum --dt 1e308 --max-substeps 1", "failed: diverged after 0 Newton iterations", 1},
           {"simulate pendulum --tol 1e400", "--tol: must be finite, got 1e400", 2},
           {"simulate pendulum --v0 joint1=300 --max-substeps 2",
            "2 sub-steps of --dt 0.01 s carry at most a quarter turn each, 282.843 rad/s; lower --dt or --v0", 1},
           {"simulate pendulum --v0 joint1=430 --max-substeps 3",
            "3 sub-steps of --dt 0.01 s carry at most a quarter turn each, 424.264 rad/s; lower --dt or --v0", 1},
       }) {
    const CliResult r = run(c.args + (c.args.find("--out") == std::string::npos ? " --out o.csv" : ""));
    EXPECT_EQ(r.code, c.code) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << "\n" << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "o.csv")) << c.args;
    for (const auto& entry : fs::directory_iterator(dir_))  // nor a temporary
      EXPECT_EQ(entry.path().filename().string().rfind("o.csv", 0), std::string::npos) << c.args;
  }
}

}  // namespace
