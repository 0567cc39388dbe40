// The contact paper's experiments with the interior-point step on graphsolve,
// next to MuJoCo (its defaults, same models in MJCF) where a peer exists:
//   cylinder/c/graphsolve       one cylinder with c rim contacts, 100 steps
//   cylinder_chain/n/graphsolve n links, n + 1 contacts, 100 steps
//   sphere_chain/n/{graphsolve,mujoco_tree,mujoco_tree_mid,mujoco_free}   1000 steps
//                               (MuJoCo tree rooted at the first or the middle sphere)
//   box_drop/1/{graphsolve,mujoco}                        100 steps
//   box_stack/n/{graphsolve,mujoco}   n cubes resting on each other, 200 steps
//                                     (contacts between bodies: colliders)
// Counters: us_per_step, penetration (largest depth below the ground over the
// run, m), joint_violation (largest, m), ip_iterations (ours, mean per step),
// warnings (MuJoCo: 1 if it dropped contacts or reset bad accelerations).
// MuJoCo runs only if its bodies start where ours do (compared by name).
//
//   contact_bench [--quick] [--sizes=FAMILY:N1,N2,...] [google benchmark flags]
// --sizes runs a family at those sizes instead of the scale's (rim points of
// cylinder; bodies of cylinder_chain, sphere_chain and box_stack; once per family).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "benchmark_main.hpp"
#include "mujoco_models.hpp"
#include "size_flags.hpp"

namespace {

constexpr double kDt = 0.01;

struct Case {
  std::string name;  // family/size/solver
  std::function<void(benchmark::State&)> run;
};

void report(benchmark::State& bs, int steps, double penetration, double violation) {
  bs.counters["us_per_step"] = benchmark::Counter(double(bs.iterations()) * steps * 1e-6,
                                                  benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  bs.counters["penetration"] = penetration;
  bs.counters["joint_violation"] = violation;
}

void run_ours(benchmark::State& bs, const dynamics::Model& model, int steps) {
  dynamics::StepOptions options;
  options.dt = kDt;
  options.max_substeps = 1;  // every step at dt, as MuJoCo's; a failure is reported, not retried
  dynamics::Simulator sim(model, options);
  const dynamics::State start = dynamics::make_state(model);
  double penetration = 0.0, violation = 0.0, iterations = 0.0;
  for (auto _ : bs) {
    bs.PauseTiming();
    dynamics::State s = start;
    long total = 0;
    double lowest = 0.0;
    violation = 0.0;
    bs.ResumeTiming();
    for (int k = 0; k < steps; ++k) {
      const dynamics::StepResult r = sim.step(s);
      if (!r.ok()) {
        bs.SkipWithError("step failed");
        return;
      }
      total += r.iterations;
      lowest = std::min(lowest, r.min_signed_distance);
      if (model.num_joints() > 1) {  // the joint check costs as much as a step: only where there are joints
        bs.PauseTiming();
        violation = std::max(violation, dynamics::constraint_violation(model, s));
        bs.ResumeTiming();
      }
    }
    penetration = -lowest;
    iterations = double(total) / steps;
  }
  report(bs, steps, penetration, violation);
  bs.counters["ip_iterations"] = iterations;
}

// Empty if MuJoCo's bodies start where ours do (matched by name; at least
// one must match), else what differs: the MJCF must be the same model.
std::string compare_start(const mjModel* m, mjData* d, const dynamics::Model& ours) {
  mj_forward(m, d);
  const dynamics::State start = dynamics::make_state(ours);
  int matched = 0;
  for (int b = 0; b < ours.num_bodies(); ++b) {
    const int id = mj_name2id(m, mjOBJ_BODY, ours.body(b).name.c_str());
    if (id < 0) continue;
    ++matched;
    const Eigen::Vector3d theirs(d->xpos[3 * id], d->xpos[3 * id + 1], d->xpos[3 * id + 2]);
    if ((theirs - start.position[b]).norm() > 1e-9) return "MuJoCo's body " + ours.body(b).name + " starts elsewhere";
  }
  return matched > 0 ? "" : "no MuJoCo body is named like one of ours";
}

void run_mujoco(benchmark::State& bs, const bench::Mjcf& xml, const dynamics::Model& ours, int steps) {
  mjModel* m = nullptr;
  try {
    m = bench::load_mujoco(xml);
  } catch (const std::exception& e) {
    bs.SkipWithError(e.what());
    return;
  }
  mjData* d = mj_makeData(m);
  if (const std::string differs = compare_start(m, d, ours); !differs.empty()) {
    bs.SkipWithError(differs.c_str());
    mj_deleteData(d);
    mj_deleteModel(m);
    return;
  }
  double penetration = 0.0, violation = 0.0;
  bool failed = false;
  for (auto _ : bs) {
    bs.PauseTiming();
    mj_resetData(m, d);
    penetration = violation = 0.0;
    bs.ResumeTiming();
    for (int k = 0; k < steps; ++k) {
      mj_step(m, d);
      bs.PauseTiming();
      for (int i = 0; i < d->ncon; ++i) penetration = std::max(penetration, -d->contact[i].dist);
      for (int i = 0; i < d->nefc; ++i)
        if (d->efc_type[i] == mjCNSTR_EQUALITY) violation = std::max(violation, std::abs(d->efc_pos[i]));
      failed = failed || d->warning[mjWARN_CONTACTFULL].number > 0 || d->warning[mjWARN_CNSTRFULL].number > 0 ||
               d->warning[mjWARN_BADQACC].number > 0;
      bs.ResumeTiming();
    }
  }
  report(bs, steps, penetration, violation);
  // Contacts dropped (buffer full) or accelerations reset: the run is not valid physics.
  bs.counters["warnings"] = failed ? 1.0 : 0.0;
  mj_deleteData(d);
  mj_deleteModel(m);
}

// --sizes' families, up to 1000 points or bodies.
const std::vector<bench::SizeRange> kSizeRanges = {{"cylinder", "a rim point count", 1, 1000, false},
                                                   {"cylinder_chain", "a body count", 1, 1000, false},
                                                   {"sphere_chain", "a body count", 1, 1000, false},
                                                   {"box_stack", "a body count", 1, 1000, false}};

std::vector<Case> cases(bool quick, const bench::FamilySizes& chosen) {
  using dynamics::FrictionModel;
  // A family's sizes: the chosen ones, else the scale's.
  const auto sizes = [&](const std::string& family, const std::vector<int>& full, const std::vector<int>& fast) {
    return bench::sizes_of(chosen, family, quick ? fast : full);
  };
  std::vector<Case> list;
  const auto add = [&](const std::string& name, std::function<void(benchmark::State&)> run) {
    list.push_back({name, std::move(run)});
  };
  const dynamics::FrictionSpec paper{FrictionModel::Linearized, 0.2, 4};
  for (int c : sizes("cylinder", {2, 4, 10, 20, 50, 100}, {4})) {
    add("cylinder/" + std::to_string(c) + "/graphsolve",
        [=](benchmark::State& s) { run_ours(s, dynamics::cylinder_contacts(c, 1.0, paper), 100); });
  }
  for (int n : sizes("cylinder_chain", {2, 5, 10, 20, 50, 100}, {3})) {
    add("cylinder_chain/" + std::to_string(n) + "/graphsolve",
        [=](benchmark::State& s) { run_ours(s, dynamics::cylinder_chain(n, 1.0, paper), 100); });
  }
  const double height = 0.1, mu = 0.5;
  const int chain_steps = quick ? 20 : 1000;
  for (int n : sizes("sphere_chain", {5, 10, 20, 44, 50, 100}, {5})) {
    const std::string base = "sphere_chain/" + std::to_string(n) + "/";
    add(base + "graphsolve", [=](benchmark::State& s) {
      run_ours(s, dynamics::sphere_chain(n, height, {FrictionModel::Linearized, mu, 4}), chain_steps);
    });
    using bench::ChainLayout;
    for (const auto& [solver, layout] : {std::pair{"mujoco_tree", ChainLayout::TreeFromEnd},
                                         std::pair{"mujoco_tree_mid", ChainLayout::TreeFromMiddle},
                                         std::pair{"mujoco_free", ChainLayout::FreeBodies}}) {
      const ChainLayout chain_layout = layout;  // C++17 lambdas cannot capture a structured binding
      add(base + solver, [=](benchmark::State& s) {
        run_mujoco(s, bench::mjcf_sphere_chain(n, height, mu, chain_layout),
                   dynamics::sphere_chain(n, height, {FrictionModel::Linearized, mu, 4}), chain_steps);
      });
    }
  }
  add("box_drop/1/graphsolve", [](benchmark::State& s) { run_ours(s, dynamics::box_drop(0.5, 1.0, 0.4), 100); });
  add("box_drop/1/mujoco", [](benchmark::State& s) {
    run_mujoco(s, bench::mjcf_box_drop(0.5, 0.4, 0.5), dynamics::box_drop(0.5, 1.0, 0.4), 100);
  });
  for (int n : sizes("box_stack", {2, 5, 10, 20}, {2})) {
    const std::string base = "box_stack/" + std::to_string(n) + "/";
    const dynamics::FrictionSpec friction{FrictionModel::Linearized, mu, 4};
    add(base + "graphsolve", [=](benchmark::State& s) { run_ours(s, dynamics::box_stack(n, friction), 200); });
    add(base + "mujoco", [=](benchmark::State& s) {
      run_mujoco(s, bench::mjcf_box_stack(n, 0.5, 0.01, mu), dynamics::box_stack(n, friction), 200);
    });
  }
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  bench::FamilySizes sizes;
  std::vector<char*> rest;
  if (!bench::take_size_flags(argc, argv, kSizeRanges, "contact_bench", sizes, rest)) return 2;
  return bench::run_benchmarks(static_cast<int>(rest.size()), rest.data(), [&sizes](bool quick) {
    static std::vector<Case> all = cases(quick, sizes);
    for (const Case& c : all) benchmark::RegisterBenchmark(c.name.c_str(), c.run)->Unit(benchmark::kMillisecond);
  });
}
