#pragma once
// Physical quantities of a state, as free functions over model and state.
// Energies use the state's velocities (those of the last step).

#include "dynamics/model.hpp"
#include "dynamics/state.hpp"

namespace dynamics {

double kinetic_energy(const Model& model, const State& state);
double gravitational_energy(const Model& model, const State& state);  // zero at the world origin
double spring_energy(const Model& model, const State& state);
double potential_energy(const Model& model, const State& state);  // gravitational + springs
double total_energy(const Model& model, const State& state);

Vector3 linear_momentum(const Model& model, const State& state);
// About the world origin. With dt > 0 the rotational part is the discrete
// momentum the integrator conserves exactly, R(q) dt/2 (s J w - w x J w);
// dt = 0 gives the continuous R(q) J w (they differ by O(dt)).
Vector3 angular_momentum(const Model& model, const State& state, double dt = 0.0);

// Largest |g| over all joint constraints (metres for translations, quaternion
// components, about half the angle in radians, for rotations).
double constraint_violation(const Model& model, const State& state);

// Smallest signed distance (m) over the ground contacts and every pair of
// colliders that may collide (all pairs are measured: O(colliders^2); box
// pairs at their corners, as their contacts are); +inf without either.
double min_signed_distance(const Model& model, const State& state);

}  // namespace dynamics
