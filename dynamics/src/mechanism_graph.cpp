#include "mechanism_graph.hpp"

namespace dynamics::detail {

MechanismGraph build_mechanism_graph(const Model& model) {
  MechanismGraph mg;
  for (int b = 0; b < model.num_bodies(); ++b) mg.graph.add_node(6);
  mg.joint_node.assign(model.num_joints(), -1);
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    mg.axes.push_back(joint_axes(joint));
    if (joint.num_constraints() == 0) continue;
    const int node = mg.graph.add_node(joint.num_constraints(), graphsolve::NodeKind::ZeroDiagonal);
    mg.joint_node[j] = node;
    mg.graph.add_edge(node, joint.child);
    if (joint.parent != kWorld) mg.graph.add_edge(node, joint.parent);
  }
  return mg;
}

}  // namespace dynamics::detail
