#include "urdf_composite.hpp"

#include <cmath>

#include "format_number.hpp"
#include "principal_moments.hpp"

namespace dynamics::urdf_detail {
namespace {

// The inertia of one link about its centre of mass, in its inertial frame.
Matrix3 checked_inertia(const urdf::Link& link, bool balance, const UrdfError& fail,
                        std::vector<std::string>& ignored) {
  const std::string who = "link '" + link.name + "'";
  const urdf::Inertial& in = *link.inertial;
  if (!(in.mass > 0.0) || !std::isfinite(in.mass))
    fail(who + ": mass must be positive, got " + detail::format_number(in.mass) +
         (in.mass == 0.0 ? " (mass 0 with an inertia marks a static base on a root link only)" : ""));
  Matrix3 inertia;
  inertia << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  if (!inertia.allFinite()) fail(who + ": <inertia> has a non-finite entry");
  const detail::PrincipalMoments moments = detail::principal_moments(inertia);
  const Vector3& eig = moments.values;
  if (eig(0) < -1e-12 * eig.cwiseAbs().maxCoeff())
    fail(who + ": <inertia> has a negative principal moment (" + detail::format_number(eig(0)) + ")");
  if (moments.triangle) return inertia;
  const auto number = detail::format_number;
  const std::string values = number(eig(0)) + ", " + number(eig(1)) + " and " + number(eig(2));
  if (!balance)
    fail(who + ": <inertia>'s principal moments " + values +
         " violate the triangle inequality (the two smaller must add up to at least the largest; no rigid body "
         "has them): correct the file, or replace them by their mean (UrdfOptions::balance_inertia, CLI "
         "--balance-inertia)");
  const double mean = eig.sum() / 3.0;
  ignored.push_back(who + ": <inertia>'s principal moments " + values +
                    " violate the triangle inequality; replaced by their mean " + number(mean) +
                    " kg m^2 (balance_inertia)");
  return mean * Matrix3::Identity();
}

}  // namespace

std::map<std::string, CompositeInertial> fuse_bodies(const urdf::ModelInterface& parsed,
                                                     const std::vector<std::string>& links,
                                                     std::map<std::string, LinkPlacement>& placed,
                                                     bool balance_inertia, const UrdfError& fail,
                                                     std::vector<std::string>& ignored) {
  struct Part {
    double mass;
    Vector3 centre;   // in the anchor's inertial frame
    Matrix3 inertia;  // about `centre`, in the anchor's inertial axes
  };
  std::map<std::string, std::vector<Part>> parts;
  std::map<std::string, CompositeInertial> bodies;
  for (const std::string& name : links) {
    const LinkPlacement& p = placed.at(name);
    const urdf::Link& link = *parsed.getLink(name);
    if (is_massless(link) || (marks_static_base(link) && p.anchor == "world")) continue;
    const Matrix3 own = checked_inertia(link, balance_inertia, fail, ignored);  // also where the world carries it
    if (p.anchor == "world") continue;
    const Transform inertial = p.link_in_body * from_urdf(link.inertial->origin);
    const Matrix3 r = inertial.rotation.toRotationMatrix();
    std::vector<std::string>& names = bodies[p.anchor].links;
    names.insert(name == p.anchor ? names.begin() : names.end(), name);
    parts[p.anchor].push_back({link.inertial->mass, inertial.position, r * own * r.transpose()});
  }
  std::map<std::string, Vector3> centre_of;
  for (auto& [anchor, body] : bodies) {
    Vector3 moment = Vector3::Zero();
    for (const Part& part : parts[anchor]) {
      body.mass += part.mass;
      moment += part.mass * part.centre;
    }
    const Vector3 centre = moment / body.mass;
    for (const Part& part : parts[anchor]) {  // parallel axes
      const Vector3 d = part.centre - centre;
      body.inertia += part.inertia + part.mass * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
    }
    body.inertia = 0.5 * (body.inertia + body.inertia.transpose());
    centre_of[anchor] = centre;
  }
  for (auto& [name, p] : placed)
    if (auto c = centre_of.find(p.anchor); c != centre_of.end()) p.link_in_body.position -= c->second;
  return bodies;
}

std::string raise_to_bounds(CompositeInertial& body, double mass, double moment) {
  std::string raised;
  if (body.mass < mass) {
    raised = "mass " + detail::format_number(body.mass) + " raised to " + detail::format_number(mass) + " kg";
    body.mass = mass;
  }
  const Eigen::SelfAdjointEigenSolver<Matrix3> eigen(body.inertia);
  const Vector3 moments = eigen.eigenvalues();
  if (moments(0) < moment) {
    raised += std::string(raised.empty() ? "" : ", ") + "principal moments below " + detail::format_number(moment) +
              " kg m^2 (smallest " + detail::format_number(moments(0)) + ") raised to it";
    body.inertia = eigen.eigenvectors() * moments.cwiseMax(moment).asDiagonal() * eigen.eigenvectors().transpose();
    body.inertia = 0.5 * (body.inertia + body.inertia.transpose());
  }
  return raised;
}

}  // namespace dynamics::urdf_detail
