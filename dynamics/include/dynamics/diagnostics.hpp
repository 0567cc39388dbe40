#pragma once
// Physical quantities of a state, as free functions over model and state.
//
// Energies and the step midpoint. After a step from t_k to t_k+1 the state
// holds the poses z_k+1 and the velocities that carried the bodies from z_k
// to z_k+1 (state.hpp): velocities of the step's midpoint, poses of its end.
// With dt = 0 the energies are those of the state as it stands, kinetic
// energy of its velocities plus potential energy of its poses; that sum mixes
// two instants half a step apart and swings by O(dt) along a trajectory whose
// true energy is constant. With dt > 0, the step size that produced the
// state, the potential energies are the mean over the step's two end poses
// (z_k is recovered from the velocities: x - dt v, and q turned back by w):
// the energy of the step's midpoint, which the variational integrator keeps
// within O(dt^2) of its start (docs/dynamics.md, "Energy"). Kinetic energy
// belongs to the midpoint either way and takes no dt.
// Every function taking dt throws std::invalid_argument for a dt that is
// negative or not finite, or one no step could have taken with the state's
// angular velocities (|w| >= 2 / dt).

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"

namespace dynamics {

double kinetic_energy(const Model& model, const State& state);
double gravitational_energy(const Model& model, const State& state, double dt = 0.0);  // zero at the world origin
double spring_energy(const Model& model, const State& state, double dt = 0.0);
double potential_energy(const Model& model, const State& state, double dt = 0.0);  // gravitational + springs
double total_energy(const Model& model, const State& state, double dt = 0.0);

Vector3 linear_momentum(const Model& model, const State& state);
// About the world origin. With dt > 0 the rotational part is the discrete
// momentum the integrator conserves exactly, R(q) dt/2 (s J w - w x J w);
// dt = 0 gives the continuous R(q) J w (they differ by O(dt)).
Vector3 angular_momentum(const Model& model, const State& state, double dt = 0.0);

// Largest |g| over all joint constraints (metres for translations, quaternion
// components, about half the angle in radians, for rotations) and joint
// couplings (the follower's error, metres or radians).
double constraint_violation(const Model& model, const State& state);

// Smallest signed distance (m) over the ground contacts and every pair of
// colliders that may collide (all pairs are measured: O(colliders^2); box
// pairs at their corners, as their contacts are); +inf without either.
double min_signed_distance(const Model& model, const State& state);

}  // namespace dynamics
