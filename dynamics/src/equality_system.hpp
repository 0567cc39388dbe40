#pragma once
// The Newton system of a step without its inequalities (internal; see
// StepOptions::skip_open_inequalities): the bodies, joints and couplings,
// analysed on their own. Leaving the inequality nodes of the whole graph
// inactive solves the same equations, but keeps that graph's elimination
// order and fill: a limited joint's node closes a short cycle through the two
// bodies of its joint, so a limited chain loses its tree order and every open
// step pays the fill blocks of nodes it does not use (a 20-link chain with
// limits 30% over the same chain without them). This graph is the graph of
// the model without limits or contacts, so an open step factorizes exactly as
// that model's steps do.

#include <array>
#include <vector>

#include <Eigen/Core>
#include <graphsolve/graphsolve.hpp>

#include "dynamics/model.hpp"
#include "mechanism_graph.hpp"

namespace dynamics::detail {

// Where the blocks the step writes live in a mechanism graph's matrix,
// resolved once per graph (BlockMatrix's checked lookups cost 2% of a step).
struct BlockTables {
  // Per joint: its diagonal block, the body-joint and joint-body blocks of
  // the child and the parent, and for a damped joint between two bodies
  // their body-body blocks (null where the joint has none).
  struct Joint {
    double* joint_diagonal = nullptr;
    double *child_joint = nullptr, *joint_child = nullptr, *parent_joint = nullptr, *joint_parent = nullptr;
    double *child_parent = nullptr, *parent_child = nullptr;
  };
  // Per joint coupling: its diagonal and its blocks with each of its bodies
  // (MechanismGraph::coupling_bodies order).
  struct Coupling {
    double* diagonal = nullptr;
    std::array<double*, 4> body_coupling{}, coupling_body{};
  };
  std::vector<double*> body_diagonal;
  std::vector<Joint> joints;
  std::vector<Coupling> couplings;
};

BlockTables resolve_blocks(const Model& model, const MechanismGraph& mg, graphsolve::BlockMatrix& matrix);

class EqualitySystem {
 public:
  // `full` is the pattern of the step's whole graph, `full_graph` its nodes.
  EqualitySystem(const Model& model, const MechanismGraph& full_graph, const graphsolve::Pattern& full);

  // Maps the rows again, for a new whole graph of the same model (the broad
  // phase's contacts changed it).
  void map_rows(const Model& model, const MechanismGraph& full_graph, const graphsolve::Pattern& full);

  // The node of the whole graph that node `node` of this one is.
  int full_node(int node) const { return node < 0 ? node : full_node_[node]; }

  // Solves with `lu` (a factorization of this graph's matrix) for vectors in
  // the whole graph's layout: the rows of the nodes outside this graph keep
  // their values, as an inactive node's would (solve_refined: x = rhs there).
  void solve_in_place(graphsolve::Factorization& lu, Eigen::VectorXd& x);
  void solve_refined(graphsolve::Factorization& lu, const graphsolve::BlockMatrix& matrix,
                     const Eigen::VectorXd& rhs, Eigen::VectorXd& x);

  MechanismGraph graph;
  graphsolve::Symbolic symbolic;
  graphsolve::BlockMatrix matrix;
  graphsolve::Factorization lu;
  BlockTables blocks;

 private:
  struct Run {  // rows [full, full + length) are rows [own, own + length) here
    int full, own, length;
  };
  void gather(const Eigen::VectorXd& full, Eigen::VectorXd& own) const;
  void scatter(const Eigen::VectorXd& own, Eigen::VectorXd& full) const;
  std::vector<int> full_node_;
  std::vector<Run> runs_;
  Eigen::VectorXd rhs_, x_;
};

}  // namespace dynamics::detail
