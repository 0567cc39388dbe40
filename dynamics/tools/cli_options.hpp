#pragma once
// Options of the `dynamics` command line program and the parsing of its
// value lists (--param, --q0/--v0, --gravity).

#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"

namespace dynamics::cli {

struct SimulateOptions {
  std::string model;                  // built-in name or path to a URDF file (see is_urdf_path)
  std::vector<std::string> params;    // key=value
  double dt = 0.01;
  long steps = 1000;
  double tolerance = 0.0;             // 0: the library defaults (1e-10, 1e-8 with contacts)
  int max_iterations = 50;
  int max_substeps = 8;               // StepOptions::max_substeps
  int substep_hold = 4;               // StepOptions::substep_hold
  double contact_regularization = 1e-6;  // StepOptions::contact_regularization
  double friction_regularization = 1e-9;  // StepOptions::friction_regularization
  double joint_friction_velocity = 1e-3;  // StepOptions::joint_friction_velocity
  bool no_centred_restart = false;    // !StepOptions::centred_restart
  bool no_friction_restarts = false;  // !StepOptions::friction_restarts
  bool keep_open_inequalities = false;  // !StepOptions::skip_open_inequalities
  std::string gravity;                // "x,y,z"; empty keeps the model's
  std::string ground;                 // "nx,ny,nz[,offset]"; empty keeps the model's
  double friction = -1.0;             // < 0 keeps the model's (URDF: 0.5 where no mu is given)
  bool keep_welded_links = false;     // URDF: !UrdfOptions::fuse_welded_links
  bool fixed_base = false;            // URDF: UrdfOptions::fixed_base
  bool no_contacts = false;           // URDF: !UrdfOptions::collision_contacts
  double bound_mass = 0.0;            // URDF: UrdfOptions::bound_mass
  double bound_inertia = 0.0;         // URDF: UrdfOptions::bound_inertia
  bool balance_inertia = false;       // URDF: UrdfOptions::balance_inertia
  std::vector<std::string> q0, v0;    // joint=value[:value...][,joint=...]
  std::string out;                    // trajectory CSV
  bool json = false;
};

std::map<std::string, std::string> parse_params(const std::vector<std::string>& items);
Eigen::Vector3d parse_gravity(const std::string& text);
HalfSpace parse_ground(const std::string& text);
// joint name -> values, from "a=1,b=0:0:1".
std::map<std::string, std::vector<double>> parse_joint_values(const std::vector<std::string>& items,
                                                              const char* option);

// MODEL names a URDF file: it ends in .urdf (any case), or it is no
// built-in model's name and names a file other than a directory (a pipe
// too: /dev/stdin), and not a .xacro template.
bool is_urdf_path(const std::string& model);
// For a MODEL that is no URDF file: throws if it is a xacro template (saying
// how to expand it) or a path to no file (saying so, not only that no
// built-in model has that name).
void check_model_file(const std::string& model);

struct InitialState {
  State state;
  bool projected = false;
  double correction_translation = 0.0, correction_rotation = 0.0, velocity_change = 0.0;
  std::vector<std::string> warnings;  // default coordinates moved onto their limits
};

// The model's default state with the given joint coordinates and rates,
// projected onto the constraints. Default coordinates outside their limits
// start on them (one warning each); given ones there are an error.
InitialState initial_state(const Model& model, const std::map<std::string, std::vector<double>>& q0,
                           const std::map<std::string, std::vector<double>>& v0);

int run_models(bool json);
int run_simulate(const SimulateOptions& options);

}  // namespace dynamics::cli
