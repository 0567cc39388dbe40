// 1000 steps of the papers' timing mechanisms with the variational integrator
// on graphsolve and with MuJoCo (Euler and RK4, same dt, same model in MJCF),
// in one process. Counters: time per step, Newton iterations and
// factorizations per step (ours),
// |energy error| after the run, max constraint violation.
//
// Energies are measured two ways for both simulators. Our velocities and
// MuJoCo Euler's (semi-implicit: v first, then q += dt v) are those of the
// last step, so the state's energy mixes the step's midpoint (kinetic) with
// its end (potential); `energy_error_state` is that. `energy_error` evaluates
// both at the step's midpoint: ours by diagnostics' step energy, MuJoCo's at
// q - dt/2 v. RK4's state is not staggered; it gets the state's energy only.
//
//   dynamics_bench [--quick] [--sizes=FAMILY:N1,N2,...] [google benchmark flags]
// --sizes runs a family at those sizes instead of the scale's (links of
// nlink_revolute, nlink_spherical, limits_apart and limits_reached, segments of
// fourlink_chain; once per family).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <mujoco/mujoco.h>

#include "dynamics/dynamics.hpp"
#include "benchmark_main.hpp"
#include "mujoco_models.hpp"
#include "size_flags.hpp"
#include "with_limits.hpp"

namespace {

constexpr int kSteps = 1000;
constexpr double kDt = 0.01;

struct Case {
  std::string family;  // nlink_revolute, nlink_spherical, limits_apart, limits_reached, fourlink_chain
  int size;
  dynamics::Model model;
  bench::Mjcf mjcf;
  std::vector<double> qpos_start;  // MuJoCo initial qpos entries to set (index, value) pairs
};

void run_ours(benchmark::State& bs, const dynamics::Model& model) {
  dynamics::StepOptions options;
  options.dt = kDt;
  options.tolerance = 1e-10;
  options.max_substeps = 1;  // every step at dt, as MuJoCo's; a failure is reported, not retried
  dynamics::Simulator sim(model, options);
  const dynamics::State start = dynamics::make_state(model);
  const double e0 = dynamics::total_energy(model, start, kDt), e0_state = dynamics::total_energy(model, start);
  double energy_error = 0.0, energy_error_state = 0.0, iterations = 0.0, factorizations = 0.0, violation = 0.0;
  double open = 0.0, held = 0.0;
  for (auto _ : bs) {
    bs.PauseTiming();
    dynamics::State s = start;
    long total = 0, factored = 0, skipped = 0, held_steps = 0;
    bs.ResumeTiming();
    for (int k = 0; k < kSteps; ++k) {
      const dynamics::StepResult r = sim.step(s);
      if (!r.ok()) {
        // Sub-steps are off here: a mechanism whose loads outrun dt fails
        // (the library's default, and the CLI's, retry it as sub-steps).
        char why[160];
        std::snprintf(why, sizeof why, "step %d failed: %s (residual %.3g; no sub-steps in this benchmark)", k + 1,
                      dynamics::to_string(r.status), r.residual);
        bs.SkipWithError(why);
        return;
      }
      total += r.iterations;
      factored += r.factorizations;
      skipped += r.inequalities_skipped;
      held_steps += r.limits_held;
    }
    bs.PauseTiming();
    energy_error = std::abs(dynamics::total_energy(model, s, kDt) - e0);
    energy_error_state = std::abs(dynamics::total_energy(model, s) - e0_state);
    violation = dynamics::constraint_violation(model, s);
    iterations = double(total) / kSteps;
    factorizations = double(factored) / kSteps;
    open = double(skipped) / kSteps;
    held = double(held_steps) / kSteps;
    bs.ResumeTiming();
  }
  bs.counters["us_per_step"] = benchmark::Counter(double(bs.iterations()) * kSteps * 1e-6,
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bs.counters["newton_iterations"] = iterations;
  bs.counters["factorizations"] = factorizations;
  // Shares of the steps solved without their limits, all open, and with the
  // limits pushed at their start held (models with limits).
  if (model.has_inequalities()) {
    bs.counters["open_steps"] = open;
    bs.counters["held_steps"] = held;
  }
  bs.counters["energy_error"] = energy_error;
  bs.counters["energy_error_state"] = energy_error_state;
  bs.counters["constraint_violation"] = violation;
}

double mujoco_energy(const mjModel* m, mjData* d) {
  mj_forward(m, d);
  return d->energy[0] + d->energy[1];
}

// The energy at the midpoint of the last Euler step, q - dt/2 v (scratch: a
// second mjData that d is copied into).
double mujoco_midpoint_energy(const mjModel* m, const mjData* d, mjData* scratch) {
  mj_copyData(scratch, m, d);
  mj_integratePos(m, scratch->qpos, scratch->qvel, -0.5 * kDt);
  return mujoco_energy(m, scratch);
}

void run_mujoco(benchmark::State& bs, const bench::Mjcf& xml, const std::vector<double>& qpos, int integrator) {
  mjModel* m = nullptr;
  try {
    m = bench::load_mujoco(xml);
  } catch (const std::exception& e) {
    bs.SkipWithError(e.what());
    return;
  }
  m->opt.integrator = integrator;
  m->opt.enableflags |= mjENBL_ENERGY;
  mjData* d = mj_makeData(m);
  mjData* scratch = mj_makeData(m);
  const auto reset = [&] {
    mj_resetData(m, d);
    for (std::size_t i = 0; i < qpos.size(); ++i) d->qpos[i] = qpos[i];
  };
  reset();
  const bool euler = integrator == mjINT_EULER;
  const double e0_state = mujoco_energy(m, d), e0 = euler ? mujoco_midpoint_energy(m, d, scratch) : e0_state;
  double energy_error = 0.0, energy_error_state = 0.0, violation = 0.0;
  for (auto _ : bs) {
    bs.PauseTiming();
    reset();
    bs.ResumeTiming();
    for (int k = 0; k < kSteps; ++k) mj_step(m, d);
    bs.PauseTiming();
    energy_error_state = std::abs(mujoco_energy(m, d) - e0_state);
    energy_error = euler ? std::abs(mujoco_midpoint_energy(m, d, scratch) - e0) : energy_error_state;
    violation = 0.0;
    for (int i = 0; i < d->nefc; ++i)
      if (d->efc_type[i] == mjCNSTR_EQUALITY) violation = std::max(violation, std::abs(d->efc_pos[i]));
    bs.ResumeTiming();
  }
  bs.counters["us_per_step"] = benchmark::Counter(double(bs.iterations()) * kSteps * 1e-6,
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bs.counters["energy_error"] = energy_error;
  bs.counters["energy_error_state"] = energy_error_state;
  bs.counters["constraint_violation"] = violation;
  mj_deleteData(scratch);
  mj_deleteData(d);
  mj_deleteModel(m);
}

// MuJoCo's initial pose: first joint at `angle` about y (hinge angle or ball quaternion).
std::vector<double> first_joint_qpos(bool ball, double angle, int nq) {
  std::vector<double> q(nq, 0.0);
  if (ball) {
    for (int i = 0; i < nq; i += 4) q[i] = 1.0;
    q[0] = std::cos(0.5 * angle);
    q[2] = std::sin(0.5 * angle);
  } else {
    q[0] = angle;
  }
  return q;
}

// --sizes' families, up to 1000 bodies: MuJoCo's steps of a spherical chain
// grow as n^2.5 (50 links: 0.45 ms, 100: 2.6 ms), so 1000 steps of 1000
// links would take it about a quarter of an hour.
const std::vector<bench::SizeRange> kSizeRanges = {{"nlink_revolute", "a link count", 1, 1000, false},
                                                   {"nlink_spherical", "a link count", 1, 1000, false},
                                                   {"limits_apart", "a link count", 1, 1000, false},
                                                   {"limits_reached", "a link count", 1, 1000, false},
                                                   {"fourlink_chain", "a segment count", 1, 250, false}};

// The limited chains' families and their hinges' limit (rad): the chain
// swings from 0.5 rad at its first joint, and its joints stay within 0.5 rad.
const std::vector<std::pair<std::string, double>> kLimitedFamilies = {{"limits_apart", 3.0}, {"limits_reached", 0.4}};

std::vector<Case> cases(bool quick, const bench::FamilySizes& chosen) {
  // A family's sizes: the chosen ones, else the scale's.
  const auto sizes = [&](const std::string& family, const std::vector<int>& full, const std::vector<int>& fast) {
    return bench::sizes_of(chosen, family, quick ? fast : full);
  };
  std::vector<Case> list;
  const double angle = 0.5;
  for (bool spherical : {false, true}) {
    for (int n : sizes(spherical ? "nlink_spherical" : "nlink_revolute", {1, 2, 5, 10, 20, 50, 100}, {5, 20})) {
      Case c;
      c.family = spherical ? "nlink_spherical" : "nlink_revolute";
      c.size = n;
      c.model = dynamics::n_link_pendulum(n, spherical ? dynamics::ChainJoint::Spherical
                                                        : dynamics::ChainJoint::Revolute, 1.0, 1.0, angle);
      c.mjcf = bench::mjcf_n_link_pendulum(n, spherical, angle);
      c.qpos_start = first_joint_qpos(spherical, angle, spherical ? 4 * n : n);
      list.push_back(std::move(c));
    }
  }
  // Revolute chains with every hinge limited, as a robot's joints are:
  // limits the chain never reaches (its steps are solved without them, see
  // StepOptions::skip_open_inequalities) and limits its first joint reaches
  // on every swing (interior-point steps; MuJoCo's soft limits).
  for (const auto& [family, limit] : kLimitedFamilies) {
    for (int n : sizes(family, {5, 20, 50}, {5})) {
      Case c;
      c.family = family;
      c.size = n;
      const dynamics::Model chain = dynamics::n_link_pendulum(n, dynamics::ChainJoint::Revolute, 1.0, 1.0, angle);
      c.model = dynamics::test::with_limits(chain, limit);
      c.mjcf = bench::mjcf_n_link_pendulum(n, false, angle, limit);
      c.qpos_start = first_joint_qpos(false, angle, n);
      list.push_back(std::move(c));
    }
  }
  for (int k : sizes("fourlink_chain", {1, 2, 5, 10, 20}, {2})) {
    Case c;
    c.family = "fourlink_chain";
    c.size = k;
    c.model = dynamics::four_link_chain(k, 1.0, 1.0, 0.3);
    c.mjcf = bench::mjcf_four_link_chain(k, 0.3);
    c.qpos_start = first_joint_qpos(false, 0.3, 4 * k);
    list.push_back(std::move(c));
  }
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  bench::FamilySizes sizes;
  std::vector<char*> rest;
  if (!bench::take_size_flags(argc, argv, kSizeRanges, "dynamics_bench", sizes, rest)) return 2;
  return bench::run_benchmarks(static_cast<int>(rest.size()), rest.data(), [&sizes](bool quick) {
    static std::vector<Case> all = cases(quick, sizes);
    for (const Case& c : all) {
      const std::string base = c.family + "/" + std::to_string(c.size) + "/";
      benchmark::RegisterBenchmark((base + "graphsolve").c_str(), [&c](benchmark::State& s) { run_ours(s, c.model); })
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((base + "mujoco_euler").c_str(), [&c](benchmark::State& s) {
        run_mujoco(s, c.mjcf, c.qpos_start, mjINT_EULER);
      })->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((base + "mujoco_rk4").c_str(), [&c](benchmark::State& s) {
        run_mujoco(s, c.mjcf, c.qpos_start, mjINT_RK4);
      })->Unit(benchmark::kMillisecond);
    }
  });
}
