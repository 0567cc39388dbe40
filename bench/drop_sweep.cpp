// The quadruped drop sweep of docs/contacts.md ("Centred restart", "Friction
// restarts"): the robot of test/support/quadruped.hpp dropped from random
// poses and rates, each drop stepped with neither restart, with each alone
// and with both (the defaults); prints how many drops fail a step in each.
// Robustness, not speed: it reproduces the documents' failure counts.
//
//   drop_sweep [--drops 400] [--seed 1] [--steps 200] [--plain] [--keep-inequalities]
//
// --plain takes plain steps (StepOptions::max_substeps = 1);
// --keep-inequalities solves every step with its contacts and limits
// (StepOptions::skip_open_inequalities = false).

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "dynamics/dynamics.hpp"
#include "quadruped.hpp"

namespace {

struct SweepOptions {
  int drops = 400;
  unsigned seed = 1;
  int steps = 200;
  bool plain = false;
  bool keep_inequalities = false;
};

SweepOptions parse(int argc, char** argv) {
  SweepOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> long {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      char* end = nullptr;
      errno = 0;
      const long v = std::strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || errno != 0 || v < 0 || v > std::numeric_limits<int>::max())
        throw std::invalid_argument(arg + " needs an integer from 0 to " + std::to_string(std::numeric_limits<int>::max()) +
                                    ", got '" + argv[i] + "'");
      return v;
    };
    if (arg == "--drops") o.drops = static_cast<int>(value());
    else if (arg == "--seed") o.seed = static_cast<unsigned>(value());
    else if (arg == "--steps") o.steps = static_cast<int>(value());
    else if (arg == "--plain") o.plain = true;
    else if (arg == "--keep-inequalities") o.keep_inequalities = true;
    else
      throw std::invalid_argument("unknown argument '" + arg +
                                  "' (use --drops, --seed, --steps, --plain, --keep-inequalities)");
  }
  return o;
}

// A drop: 0.4 to 0.9 m up, any tilt and heading, legs anywhere within their
// limits, torso and leg rates up to 3 m/s, 3 rad/s and 5 rad/s.
dynamics::test::Drop random_drop(std::mt19937& rng) {
  auto u = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  dynamics::test::Drop drop{};
  drop.torso_position = {0, 0, u(0.4, 0.9), u(-1, 1), u(-1, 1), u(-3.14, 3.14)};
  for (auto& v : drop.torso_velocity) v = u(-3, 3);
  for (int i = 0; i < 4; ++i) {
    drop.legs[3 * i] = u(-0.7, 0.7);
    drop.legs[3 * i + 1] = u(-1.4, 1.4);
    drop.legs[3 * i + 2] = u(-2.5, -0.6);
  }
  for (auto& v : drop.leg_rates) v = u(-5, 5);
  return drop;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dynamics;
  SweepOptions o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "drop_sweep: %s\n", e.what());
    return 2;
  }
  const Model model = parse_urdf(test::quadruped_urdf());
  struct Restarts {
    const char* name;
    bool centred, friction;
  };
  const Restarts variants[] = {{"neither restart", false, false},
                               {"the centred restart", true, false},
                               {"the friction restarts", false, true},
                               {"both (the defaults)", true, true}};
  for (const Restarts& v : variants) {
    StepOptions options;
    options.centred_restart = v.centred;
    options.friction_restarts = v.friction;
    if (o.plain) options.max_substeps = 1;
    options.skip_open_inequalities = !o.keep_inequalities;
    Simulator sim(model, options);
    std::mt19937 rng(o.seed);  // the same drops every way
    int failed = 0;
    long centred = 0, restarted = 0;
    for (int d = 0; d < o.drops; ++d) {
      State state = make_state(model);
      test::place(model, state, random_drop(rng));
      for (int k = 0; k < o.steps; ++k) {
        const StepResult r = sim.step(state);
        centred += r.centred_restart;
        restarted += r.friction_restart;
        if (r.ok()) continue;
        ++failed;
        std::printf("%s: drop %d fails step %d (%s, residual %.2g)\n", v.name, d, k, to_string(r.status),
                    r.residual);
        break;
      }
    }
    std::printf("%d drops of %d steps (seed %u%s%s), %s: %d fail (steps carried by the centred restart %ld, by "
                "the friction restarts %ld)\n",
                o.drops, o.steps, o.seed, o.plain ? ", plain steps" : "",
                o.keep_inequalities ? ", inequalities kept" : "", v.name, failed, centred, restarted);
  }
  return 0;
}
