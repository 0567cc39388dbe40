#pragma once
// MuJoCo as an oracle for the simulator: its models owned, and the check that
// our first-order integrator approaches MuJoCo's RK4 reference solution.
// MuJoCo's RK4 at a small step is the reference. Our integrator is first
// order, so our results must approach it linearly in dt: small at the finer
// step, about twice that at a step twice as long. A modelling difference
// would instead leave a gap that does not shrink.
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

namespace dynamics::test {

struct MujocoModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct MujocoDataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};

using MujocoModel = std::unique_ptr<mjModel, MujocoModelDeleter>;
using MujocoData = std::unique_ptr<mjData, MujocoDataDeleter>;

// A model from XML text (MJCF, or URDF through MuJoCo's own importer), read
// through MuJoCo's virtual file system (2 MB of fixed arrays, hence the
// heap) under `file_name`, whose extension says which; null with `error`
// set when MuJoCo refuses it.
inline MujocoModel load_mujoco_text(const std::string& file_name, const std::string& text, std::string& error) {
  const auto vfs = std::make_unique<mjVFS>();
  mj_defaultVFS(vfs.get());
  if (mj_makeEmptyFileVFS(vfs.get(), file_name.c_str(), static_cast<int>(text.size())) != 0) {
    error = "MuJoCo's virtual file system refused the file";
    return nullptr;
  }
  char* file = static_cast<char*>(vfs->filedata[mj_findFileVFS(vfs.get(), file_name.c_str())]);
  std::copy(text.begin(), text.end(), file);
  char message[1000] = "";
  MujocoModel model(mj_loadXML(file_name.c_str(), vfs.get(), message, sizeof message));
  mj_deleteVFS(vfs.get());
  if (!model) error = message;
  return model;
}

inline double largest(const std::vector<double>& values) {
  double most = 0.0;
  for (const double v : values) most = std::max(most, std::abs(v));
  return most;
}

// Our results at two steps as their differences from MuJoCo's reference
// (per coordinate), and how far the reference moved: the gap must be small,
// halve with the step (first order), and all but vanish in the Richardson
// combination 2 e(dt/2) - e(dt), which cancels our first-order error.
inline void expect_first_order_approach(const std::vector<double>& to_coarse, const std::vector<double>& to_fine,
                                        double motion) {
  ASSERT_FALSE(to_fine.empty());
  ASSERT_EQ(to_coarse.size(), to_fine.size());
  double extrapolated = 0.0;
  for (std::size_t i = 0; i < to_fine.size(); ++i)
    extrapolated = std::max(extrapolated, std::abs(2.0 * to_fine[i] - to_coarse[i]));
  const double gap_coarse = largest(to_coarse), gap_fine = largest(to_fine);
  EXPECT_GT(motion, 0.05);
  EXPECT_LT(gap_fine, 5e-3 * std::max(1.0, motion));
  EXPECT_GT(gap_coarse / gap_fine, 1.8) << "coarse " << gap_coarse << ", fine " << gap_fine;
  EXPECT_LT(gap_coarse / gap_fine, 2.2) << "coarse " << gap_coarse << ", fine " << gap_fine;
  EXPECT_LT(extrapolated, 2e-2 * gap_fine) << "fine " << gap_fine;
}

}  // namespace dynamics::test
