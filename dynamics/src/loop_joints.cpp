#include "loop_joints.hpp"

#include <algorithm>
#include <utility>

namespace dynamics::detail {

// Tarjan's bridges, iterative (a chain of 10^5 links must not overflow the
// call stack), over a multigraph: the parent edge is skipped by its id, not
// by its far vertex, so two joints between the same two bodies form a loop.
std::vector<char> joints_on_loops(const Model& model) {
  const int nb = model.num_bodies(), nj = model.num_joints();
  const int world = nb;
  const auto vertex = [&](int body) { return body == kWorld ? world : body; };
  struct Edge {
    int to, id;
  };
  std::vector<std::vector<Edge>> adjacent(nb + 1);
  const auto connect = [&](int a, int b, int id) {
    adjacent[a].push_back({b, id});
    adjacent[b].push_back({a, id});
  };
  for (int j = 0; j < nj; ++j) {
    const Joint& joint = model.joint(j);
    if (joint.num_constraints() > 0) connect(vertex(joint.parent), vertex(joint.child), j);
  }
  int next_id = nj;  // couplings' edges follow the joints'
  for (int c = 0; c < model.num_couplings(); ++c) {
    const JointCoupling& coupling = model.coupling(c);
    const Joint &leader = model.joint(coupling.leader), &follower = model.joint(coupling.follower);
    const int ends[4] = {vertex(leader.parent), vertex(leader.child), vertex(follower.parent),
                         vertex(follower.child)};
    for (int i = 0; i + 1 < 4; ++i) connect(ends[i], ends[i + 1], next_id++);
  }
  std::vector<char> bridge(next_id, 0);
  std::vector<int> order(nb + 1, -1), low(nb + 1, 0);
  struct Frame {
    int vertex, parent_edge;
    std::size_t next = 0;
  };
  std::vector<Frame> stack;
  int time = 0;
  for (int root = 0; root <= nb; ++root) {
    if (order[root] >= 0) continue;
    order[root] = low[root] = time++;
    stack.push_back({root, -1});
    while (!stack.empty()) {
      Frame& top = stack.back();
      if (top.next < adjacent[top.vertex].size()) {
        const Edge e = adjacent[top.vertex][top.next++];
        if (e.id == top.parent_edge) continue;
        if (order[e.to] < 0) {
          order[e.to] = low[e.to] = time++;
          stack.push_back({e.to, e.id});
        } else {
          low[top.vertex] = std::min(low[top.vertex], order[e.to]);
        }
        continue;
      }
      const Frame done = top;
      stack.pop_back();
      if (stack.empty()) break;
      const int above = stack.back().vertex;
      low[above] = std::min(low[above], low[done.vertex]);
      if (low[done.vertex] > order[above]) bridge[done.parent_edge] = 1;
    }
  }
  std::vector<char> on_loop(nj, 0);
  for (int j = 0; j < nj; ++j) on_loop[j] = model.joint(j).num_constraints() > 0 && !bridge[j];
  return on_loop;
}

}  // namespace dynamics::detail
