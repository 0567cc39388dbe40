// The documented sharing rule: one Simulator per thread, any number of them
// over one (const) Model, and URDF loading from several threads at once.
// Every thread must reproduce the serial trajectory bit for bit; a data race
// would show as a differing bit, and under -DGS_SANITIZE=thread as a report.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "dynamics/dynamics.hpp"
#include "urdf_text.hpp"

namespace dyn = dynamics;

namespace {

constexpr int kThreadCount = 4;

// Each thread's run starts from the model's state with its own push on body
// 0, so that the threads follow different trajectories.
std::vector<double> trajectory_end(const dyn::Model& model, int thread, int steps) {
  dyn::Simulator simulator(model);
  dyn::State state = dyn::make_state(model);
  state.velocity[0].x() += 0.05 * thread;
  std::vector<double> trace;
  for (int k = 0; k < steps; ++k) {
    const dyn::StepResult result = simulator.step(state);
    if (result.status != dyn::StepStatus::Success) {
      ADD_FAILURE() << "step " << k << " of thread " << thread << ": " << dyn::to_string(result.status);
      break;
    }
  }
  for (int b = 0; b < model.num_bodies(); ++b) {
    trace.insert(trace.end(), state.position[b].data(), state.position[b].data() + 3);
    trace.insert(trace.end(), state.orientation[b].coeffs().data(), state.orientation[b].coeffs().data() + 4);
    trace.insert(trace.end(), state.velocity[b].data(), state.velocity[b].data() + 3);
  }
  return trace;
}

void expect_threads_reproduce_serial(const dyn::Model& model, int steps) {
  std::vector<std::vector<double>> serial(kThreadCount), parallel(kThreadCount);
  for (int t = 0; t < kThreadCount; ++t) serial[t] = trajectory_end(model, t, steps);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadCount; ++t) threads.emplace_back([&, t] { parallel[t] = trajectory_end(model, t, steps); });
  for (std::thread& thread : threads) thread.join();
  ASSERT_NE(serial[0], serial[1]) << "the pushes should give different trajectories";
  for (int t = 0; t < kThreadCount; ++t) EXPECT_EQ(parallel[t], serial[t]) << "thread " << t;
}

}  // namespace

TEST(Threads, SimulatorsShareOneModel) {
  expect_threads_reproduce_serial(dyn::n_link_pendulum(10, dyn::ChainJoint::Spherical), 100);
  expect_threads_reproduce_serial(dyn::four_link_chain(3), 100);  // loops: regularized redundant rows
}

TEST(Threads, ContactSimulatorsShareOneModel) {  // the interior-point path and the broad phase
  expect_threads_reproduce_serial(dyn::cylinder_chain(4), 60);
}

TEST(Threads, UrdfLoadsOnSeparateThreads) {
  using dyn::test::hinge;
  using dyn::test::rod;
  const std::string xml = "<robot name='dp'><link name='world'/>" + rod("link1") + rod("link2") +
                          hinge("joint1", "world", "link1", "0 0 0") + hinge("joint2", "link1", "link2", "0 0 -1") +
                          "</robot>";
  const dyn::Model reference = dyn::parse_urdf(xml);
  const std::vector<double> expected = trajectory_end(reference, 1, 50);
  std::vector<std::vector<double>> parallel(kThreadCount);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreadCount; ++t)
    threads.emplace_back([&, t] {
      const dyn::Model model = dyn::parse_urdf(xml, "thread " + std::to_string(t));
      parallel[t] = trajectory_end(model, 1, 50);
    });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreadCount; ++t) EXPECT_EQ(parallel[t], expected) << "thread " << t;
}
