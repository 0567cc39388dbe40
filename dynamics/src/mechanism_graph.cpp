#include "mechanism_graph.hpp"

#include <cmath>

namespace dynamics::detail {

int contact_node_size(FrictionModel friction, int directions) {
  switch (friction) {
    case FrictionModel::None: return 1;                         // gamma
    case FrictionModel::Linearized: return 2 + directions;      // gamma, beta, psi
    case FrictionModel::Cone: return 4;                                   // gamma, beta (2), psi
  }
  return 1;
}

void add_damper_edges(const Model& model, MechanismGraph& mg) {
  for (const Joint& joint : model.joints())
    if (has_damper(joint) && joint.parent != kWorld && !mg.graph.has_edge(joint.parent, joint.child))
      mg.graph.add_edge(joint.parent, joint.child);
}

MechanismGraph build_mechanism_graph(const Model& model, bool for_steps, const std::vector<ContactSite>& sites,
                                     bool with_limits) {
  MechanismGraph mg;
  for (int b = 0; b < model.num_bodies(); ++b) mg.graph.add_node(6);
  const int nj = model.num_joints();
  mg.joint_node.assign(nj, -1);
  mg.joint_first_limit.assign(nj, 0);
  mg.joint_limit_count.assign(nj, 0);
  mg.limit_node.assign(nj, -1);
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    mg.axes.push_back(joint_axes(joint));
    mg.joint_first_limit[j] = static_cast<int>(mg.limits.size());
    if (for_steps && with_limits) {
      for (int i = 0; i < joint.num_coordinates(); ++i) {
        if (!joint.lower.empty() && std::isfinite(joint.lower[i])) mg.limits.push_back({j, i, 1.0, joint.lower[i]});
        if (!joint.upper.empty() && std::isfinite(joint.upper[i])) mg.limits.push_back({j, i, -1.0, joint.upper[i]});
      }
    }
    mg.joint_limit_count[j] = static_cast<int>(mg.limits.size()) - mg.joint_first_limit[j];
    if (joint.num_constraints() > 0) {
      const int node = mg.graph.add_node(joint.num_constraints(), graphsolve::NodeKind::ZeroDiagonal);
      mg.joint_node[j] = node;
      mg.graph.add_edge(node, joint.child);
      if (joint.parent != kWorld) mg.graph.add_edge(node, joint.parent);
    }
    if (mg.joint_limit_count[j] > 0) {  // slack / multiplier on the diagonal: a regular node
      const int node = mg.graph.add_node(mg.joint_limit_count[j]);
      mg.limit_node[j] = node;
      mg.graph.add_edge(node, joint.child);
      if (joint.parent != kWorld) mg.graph.add_edge(node, joint.parent);
    }
  }
  if (for_steps) add_damper_edges(model, mg);
  for (const JointCoupling& coupling : model.couplings()) {
    const CouplingBodies bodies = coupling_bodies(model, coupling);
    const int node = mg.graph.add_node(1, graphsolve::NodeKind::ZeroDiagonal);
    mg.coupling_node.push_back(node);
    mg.coupling_bodies.push_back(bodies);
    for (int i = 0; i < bodies.count; ++i) mg.graph.add_edge(node, bodies.body[i]);
  }
  if (for_steps) {
    for (const ContactSite& site : sites) {
      const int node = mg.graph.add_node(contact_node_size(site.friction, site.friction_directions));
      mg.contact_node.push_back(node);
      for (int body : {site.body_a, site.body_b})
        if (body != kWorld) mg.graph.add_edge(node, body);
    }
  }
  return mg;
}

}  // namespace dynamics::detail
