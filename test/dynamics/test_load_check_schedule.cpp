// When the dynamics command checks dt against the joints' loads
// (dynamics/tools/load_check.hpp): the steps it checks after, and the time
// budget that keeps the checks of a long mechanism from outlasting its steps.
#include <gtest/gtest.h>

#include <vector>

#include "load_check.hpp"

namespace dynamics::cli {
namespace {

TEST(LoadCheckSchedule, AfterPowersOfFourThenEvery1024StepsAndTheLast) {
  std::vector<long> due;
  for (long step = 1; step <= 5000; ++step)
    if (load_check_due(step, 5000)) due.push_back(step);
  EXPECT_EQ(due, (std::vector<long>{1, 4, 16, 64, 256, 1024, 2048, 3072, 4096, 5000}));
  EXPECT_TRUE(load_check_due(7, 7));
  EXPECT_FALSE(load_check_due(5, 7));
}

TEST(LoadCheckSchedule, ChecksAfterTheFirstKeepToTheirBudget) {
  // The first check runs whatever it costs.
  EXPECT_TRUE(load_check_affordable(1, 0.0, 0.0));
  EXPECT_TRUE(load_check_affordable(1, 50.0, 0.001));
  // A second of checks is free: short mechanisms check on schedule.
  EXPECT_TRUE(load_check_affordable(4, 0.9, 0.01));
  EXPECT_TRUE(load_check_affordable(4, 1.0, 0.0));
  // Past it, the checks may take a tenth of the steps' time.
  EXPECT_FALSE(load_check_affordable(4, 3.0, 0.1));
  EXPECT_FALSE(load_check_affordable(1000, 3.0, 25.0));
  EXPECT_TRUE(load_check_affordable(2048, 3.0, 30.0));
  EXPECT_FALSE(load_check_affordable(2048, 3.0001, 30.0));
}

}  // namespace
}  // namespace dynamics::cli
