#pragma once
// urdfdom's parser, with its errors caught. On a malformed <link> part (an
// <inertia> without ixy, a <box> without size, an <origin> of two numbers)
// urdfdom logs an error through console_bridge and goes on with what it read,
// which would silently drop a collision shape or zero an inertia. Here every
// error it logs rejects the description, in urdfdom's words.

#include <string>

#include <urdf_world/types.h>

namespace dynamics::urdf_detail {

// The parsed model, or null with `errors` set to what urdfdom logged
// ("Box shape has no size attribute; Could not parse collision element for
// Link [a]"). Serialized: console_bridge's handler is one per process.
// Warnings and lower go on to the handler that was installed.
urdf::ModelInterfaceSharedPtr parse_with_urdfdom(const std::string& xml, std::string& errors);

}  // namespace dynamics::urdf_detail
