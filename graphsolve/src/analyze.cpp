// analyze(): proposes orderings, plays the elimination game for each and keeps
// the requested one, or for Auto the one with the fewest predicted flops.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "graphsolve/symbolic.hpp"
#include "symbolic_data.hpp"

namespace graphsolve {

namespace {

std::vector<NodeId> checked_given_order(const Pattern& p, const std::vector<NodeId>& order) {
  if (static_cast<int>(order.size()) != p.num_nodes)
    throw std::invalid_argument("graphsolve::analyze: the given order has " + std::to_string(order.size()) +
                                " entries but the graph has " + std::to_string(p.num_nodes) + " nodes");
  std::vector<char> seen(p.num_nodes, 0);
  for (NodeId v : order) {
    if (v < 0 || v >= p.num_nodes)
      throw std::invalid_argument("graphsolve::analyze: the given order names node " + std::to_string(v) +
                                  ", which does not exist");
    if (seen[v]) throw std::invalid_argument("graphsolve::analyze: the given order lists node " + std::to_string(v) + " twice");
    seen[v] = 1;
  }
  return order;
}

// Null if the order costs more than flop_budget LDU flops.
std::shared_ptr<detail::SymbolicData> analyze_one(const std::shared_ptr<const Pattern>& pattern, Ordering ordering,
                                                  const std::vector<NodeId>& given,
                                                  double flop_budget = std::numeric_limits<double>::infinity(),
                                                  int seed = -1) {
  std::vector<NodeId> proposed;
  switch (ordering) {
    case Ordering::DFS: proposed = dfs_ordering(*pattern); break;
    case Ordering::AMD: proposed = amd_ordering(*pattern); break;
    case Ordering::ND: proposed = nd_ordering(*pattern, seed); break;
    case Ordering::Given: proposed = checked_given_order(*pattern, given); break;
    case Ordering::Auto: throw std::logic_error("graphsolve: Auto is not a concrete ordering");
  }
  return detail::build_symbolic(pattern, detail::play_elimination_game(*pattern, proposed), ordering, flop_budget);
}

// Auto: fewest flops, then least fill, then dfs before amd before nd. On
// forests only fill-free candidates qualify, so acyclic graphs always keep
// their linear-time factorization.
bool better(const AnalysisStats& a, const AnalysisStats& b, bool acyclic) {
  if (acyclic && (a.fill_blocks == 0) != (b.fill_blocks == 0)) return a.fill_blocks == 0;
  if (a.flops != b.flops) return a.flops < b.flops;
  if (a.fill_blocks != b.fill_blocks) return a.fill_blocks < b.fill_blocks;
  return static_cast<int>(a.ordering) < static_cast<int>(b.ordering);
}

// A candidate whose flops pass this can no longer win or tie against best:
// the stored flop counts are rounded, hence the slack.
double flop_budget_against(const AnalysisStats& best) { return best.flops * (1 + 1e-9) + 1.0; }

// Scalar entries of the matrix: diagonal blocks and both blocks of each edge.
double matrix_nonzeros(const Pattern& p) {
  double entries = 0;
  for (int size : p.size) entries += static_cast<double>(size) * size;
  for (const auto& [a, b] : p.edges) entries += 2.0 * p.size[a] * p.size[b];
  return entries;
}

bool has_constraint_nodes(const Pattern& p) {
  for (int v = 0; v < p.num_nodes; ++v)
    if (p.kind[v] == NodeKind::ZeroDiagonal && p.size[v] > 0) return true;
  return false;
}

// Nested dissection pays on meshes whose minimum-degree factor is several
// times the matrix (crystals from 4^3 nodes up). Where the best factor so far
// stores less than twice the matrix's entries (ladders, strips, 5x5 nets),
// METIS never won on the benchmark families and costs most of the analysis
// (70% on a 10000-node ladder). Of 1017 random sparse, strip and geometric
// graphs below that line, ND would have won 19, by at most 5% of the flops.
// CHOLMOD's default makes the same test at 5x, which would drop ND on
// crystals it wins by 6-11%. Saddle-point graphs always try ND: there the
// deferred constraints can make ND's order the best even at little fill
// (fewer flops on half of 400 loop mechanisms with random extra edges, up to
// 1.57x), at the price of METIS where it loses (docs/design.md).
constexpr double kTryNestedDissectionAboveFill = 2.0;

bool worth_trying_nested_dissection(const Pattern& p, const AnalysisStats& best_so_far) {
  return has_constraint_nodes(p) || best_so_far.factor_nonzeros >= kTryNestedDissectionAboveFill * matrix_nonzeros(p);
}

// METIS's separators depend on its random seed, and so do the flops: on
// crystals of 6x6 blocks some seeds cost 1.5x (16^3 nodes) and 1.66x (18^3)
// fewer than its default, 1.28x on 10^3, and on nets up to 128 x 128 up to
// 1.2x. Other seeds are tried where the factorization is costly against
// their analysis. A seed's analysis (METIS, then the elimination game over
// the filled pattern, dropped halfway where it loses) took 80-125 ns per
// block of the factor on crystals of 10^3 to 20^3 nodes, of 3x3 or 6x6
// blocks, and a factorization about 0.04 ns per flop: a seed costs about
// 2500 / (flops per block) factorizations. One seed per
// kFlopsPerBlockPerSeed flops per block keeps them all within about half of
// one factorization (three quarters on a 128 x 128 net; up to kMostSeeds),
// which the factorizations on a cheaper order pay back where a seed wins:
// the crystals of 6x6 blocks try 1 at 6^3 nodes, 5 at 10^3, 8 from 14^3 up;
// those of 3x3 blocks 1 at 14^3 and 16^3, 2 at 18^3 and 20^3; nets of 6x6
// blocks 1 to 5 from 32 x 32 to 128 x 128, of 3x3 blocks none (docs/design.md).
constexpr double kFlopsPerBlockPerSeed = 5000.0;
constexpr int kMostSeeds = 8;

int extra_seeds(const AnalysisStats& best) {
  const double blocks = static_cast<double>(best.factor_blocks) + best.nodes;
  if (!(blocks > 0)) return 0;
  return static_cast<int>(std::min(static_cast<double>(kMostSeeds), best.flops / blocks / kFlopsPerBlockPerSeed));
}

// Auto on graphs with cycles: replaces `best` by METIS's order with its
// default seed and then with seeds 1, 2, ... (extra_seeds() of that order)
// wherever one is better; each is dropped halfway once it costs more than
// the best. The seeds are tried only if the default seed's order is the best
// so far: where amd wins (random graphs) they would take 3-4x the analysis
// for a rare gain of a few percent. Ordering::ND itself stays METIS's
// default seed, so Auto never costs more than any ordering asked for.
void try_nested_dissection(const std::shared_ptr<const Pattern>& pattern, std::shared_ptr<detail::SymbolicData>& best) {
  const auto consider = [&](int seed) {
    auto nd = analyze_one(pattern, Ordering::ND, {}, flop_budget_against(best->stats), seed);
    if (!nd || !better(nd->stats, best->stats, false)) return false;
    best = std::move(nd);
    return true;
  };
  if (!consider(-1)) return;
  const int seeds = extra_seeds(best->stats);
  for (int seed = 1; seed <= seeds; ++seed) consider(seed);
}

// A fill-free order of a forest is leaves first from one root per tree, and
// every such order costs the same LDU flops: moving the root across an edge
// swaps which end is the pivot, and a pivot of b rows with a later neighbour
// of w costs 2/3 b^3 + 2 b^2 w + 2 b w^2, whose coupling terms are
// symmetric in b and w. Ties go to dfs, so neither amd nor nd could replace
// it; skipping them makes the analysis of a 10000-node chain about 7x faster
// (METIS alone cost 5x the dfs analysis). With fill (constraint leaves) a
// fill-free candidate wins at any cost, so every candidate is weighed in full.
std::shared_ptr<detail::SymbolicData> auto_on_a_forest(const std::shared_ptr<const Pattern>& pattern) {
  auto best = analyze_one(pattern, Ordering::DFS, {});
  if (best->stats.fill_blocks == 0) return best;
  for (Ordering candidate : {Ordering::AMD, Ordering::ND}) {
    if (candidate == Ordering::ND && !worth_trying_nested_dissection(*pattern, best->stats)) break;
    auto data = analyze_one(pattern, candidate, {});
    if (better(data->stats, best->stats, true)) best = std::move(data);
  }
  return best;
}

// With cycles amd goes first: dfs orders can cost many times more (3.9x the
// flops on a 10^3 crystal), and a candidate is dropped halfway through its
// pattern as soon as it costs more than the best so far.
std::shared_ptr<detail::SymbolicData> auto_with_cycles(const std::shared_ptr<const Pattern>& pattern) {
  auto best = analyze_one(pattern, Ordering::AMD, {});
  if (auto dfs = analyze_one(pattern, Ordering::DFS, {}, flop_budget_against(best->stats));
      dfs && better(dfs->stats, best->stats, false))
    best = std::move(dfs);
  if (worth_trying_nested_dissection(*pattern, best->stats)) try_nested_dissection(pattern, best);
  return best;
}

}  // namespace

Symbolic analyze_with_pattern(std::shared_ptr<const Pattern> pattern, const AnalyzeOptions& options) {
  if (!pattern) throw std::invalid_argument("graphsolve::analyze: null pattern");
  // An order left beside another ordering would be ignored without a word.
  if (!options.order.empty() && options.ordering != Ordering::Given)
    throw std::invalid_argument(std::string("graphsolve::analyze: AnalyzeOptions::order has ") +
                                std::to_string(options.order.size()) + " entries but the ordering is " +
                                to_string(options.ordering) +
                                ", which ignores it; set ordering = Ordering::Given to use it, or clear it");
  Symbolic result;
  try {
    if (options.ordering != Ordering::Auto) {
      result.data_ = analyze_one(pattern, options.ordering, options.order);
      return result;
    }
    const bool forest = pattern->num_edges == pattern->num_nodes - pattern->components;
    result.data_ = forest ? auto_on_a_forest(pattern) : auto_with_cycles(pattern);
  } catch (const std::bad_alloc&) {  // the filled pattern: its size is what could not be stored
    throw OutOfMemory("graphsolve::analyze: out of memory for the filled pattern of " +
                      std::to_string(pattern->num_nodes) + " nodes and " + std::to_string(pattern->num_edges) +
                      " edges with the " + to_string(options.ordering) + " ordering" +
                      (options.ordering == Ordering::Auto ? "" : "; Ordering::Auto picks the cheapest of dfs, amd and nd"));
  }
  return result;
}

Symbolic analyze(const Graph& graph, const AnalyzeOptions& options) {
  return analyze_with_pattern(std::make_shared<const Pattern>(graph), options);
}

const AnalysisStats& Symbolic::stats() const { return data_->stats; }
const Pattern& Symbolic::pattern() const { return *data_->pattern; }
const std::shared_ptr<const Pattern>& Symbolic::pattern_ptr() const { return data_->pattern; }
const std::vector<NodeId>& Symbolic::order() const { return data_->order; }

int Symbolic::position(NodeId node) const {
  if (node < 0 || node >= data_->pattern->num_nodes)
    throw std::out_of_range("graphsolve::Symbolic::position: node " + std::to_string(node) + " does not exist");
  return data_->position[node];
}

NodeId Symbolic::parent(NodeId node) const {
  const int k = data_->parent[position(node)];
  return k < 0 ? -1 : data_->order[k];
}

std::vector<NodeId> Symbolic::later_neighbours(NodeId node) const {
  const int k = position(node);
  std::vector<NodeId> nodes;
  for (int e = data_->struct_begin[k]; e < data_->struct_begin[k + 1]; ++e)
    nodes.push_back(data_->order[data_->struct_pos[e]]);
  return nodes;
}

double Symbolic::flops(Method method) const { return detail::predicted_flops(*data_, method); }

}  // namespace graphsolve
