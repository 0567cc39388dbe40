// A pendulum-like saddle-point system: two bodies (6x6 mass blocks) held by a
// 5-row joint to the world and a 3-row joint between them.
#include <iostream>

#include <graphsolve/graphsolve.hpp>

int main() {
  namespace gs = graphsolve;
  gs::Graph graph;
  const gs::NodeId body1 = graph.add_node(6);
  const gs::NodeId body2 = graph.add_node(6);
  const gs::NodeId ground = graph.add_node(5, gs::NodeKind::ZeroDiagonal);
  const gs::NodeId hinge = graph.add_node(3, gs::NodeKind::ZeroDiagonal);
  graph.add_edge(ground, body1);
  graph.add_edge(body1, hinge);
  graph.add_edge(hinge, body2);

  const gs::Symbolic symbolic = gs::analyze(graph);  // once per pattern
  gs::BlockMatrix a(symbolic);
  a.diag(body1) = 2.0 * Eigen::MatrixXd::Identity(6, 6);
  a.diag(body2) = 3.0 * Eigen::MatrixXd::Identity(6, 6);
  a.block(ground, body1) = Eigen::MatrixXd::Identity(5, 6);  // G
  a.block(body1, ground) = -a.block(ground, body1).transpose();  // -G^T: values need not be symmetric
  a.block(hinge, body1) = Eigen::MatrixXd::Identity(3, 6);
  a.block(hinge, body2) = -Eigen::MatrixXd::Identity(3, 6);
  a.block(body1, hinge) = -a.block(hinge, body1).transpose();
  a.block(body2, hinge) = -a.block(hinge, body2).transpose();

  gs::Factorization ldu(symbolic, gs::Method::LDU);
  if (ldu.factorize(a) != gs::Status::Success) {  // refactorize as often as values change
    std::cerr << "failed at node " << ldu.failed_node() << ": " << gs::to_string(ldu.status()) << "\n";
    return 1;
  }
  Eigen::VectorXd x = Eigen::VectorXd::Ones(a.rows());  // the right-hand side, solved in place
  const Eigen::VectorXd b = x;
  if (const gs::Status solved = ldu.solve_in_place(x); solved != gs::Status::Success) {
    std::cerr << "solve failed: " << gs::to_string(solved) << "\n";
    return 1;
  }
  const double error = gs::backward_error(a, x, b);  // a stable solve: near 1e-16
  std::cout << "ordering " << gs::to_string(symbolic.stats().ordering) << ", fill "
            << symbolic.stats().fill_blocks << ", backward error " << error << "\n";
  return error < 1e-14 ? 0 : 1;
}
