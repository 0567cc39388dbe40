#pragma once
// Everything of the dynamics library.
#include "dynamics/contact.hpp"
#include "dynamics/contact_models.hpp"
#include "dynamics/coordinates.hpp"
#include "dynamics/diagnostics.hpp"
#include "dynamics/joint.hpp"
#include "dynamics/model.hpp"
#include "dynamics/models.hpp"
#include "dynamics/quaternion.hpp"
#include "dynamics/shapes.hpp"
#include "dynamics/simulator.hpp"
#include "dynamics/state.hpp"
#include "dynamics/urdf.hpp"
