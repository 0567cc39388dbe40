#include "problems.hpp"

#include <cmath>
#include <map>

#include "graphsolve/families.hpp"

namespace bench {

namespace fam = graphsolve::families;

std::string ProblemKey::name() const {
  std::string family_name = family;
  if (variant == Variant::Saddle) family_name += "-saddle";
  if (block != 6) family_name += "-b" + std::to_string(block);
  return family_name + "/" + std::to_string(nodes());
}

int ProblemKey::nodes() const {
  if (family == "net") return size * size;
  if (family == "crystal") return size * size * size;
  if (family == "ladder") return 2 * (size / 2);
  return size;
}

namespace {

graphsolve::Graph body_graph(const ProblemKey& k) {
  if (k.family == "chain") return fam::chain(k.size, k.block);
  if (k.family == "tree") return fam::random_tree(k.size, k.block, 2024);
  if (k.family == "ladder") return fam::ladder(k.size / 2, k.block);
  if (k.family == "net") return fam::net(k.size, k.block);
  if (k.family == "random") return fam::random_graph(k.size, k.size / 2, k.block, 2024);
  return fam::crystal(k.size, k.block);
}

std::unique_ptr<Problem> build(const ProblemKey& k) {
  auto p = std::make_unique<Problem>();
  p->key = k;
  p->graph = body_graph(k);
  fam::Values values = k.variant == Variant::Spd ? fam::Values::SymmetricPositiveDefinite : fam::Values::Unsymmetric;
  if (k.variant == Variant::Saddle) {
    // Bodies 6x6; joints 5 rows on open chains and trees, 3 rows on ladders
    // (5-row joints would overconstrain the ladder's loops).
    p->graph = fam::mechanism(p->graph, k.family == "ladder" ? 3 : 5, true);
    values = fam::Values::SaddleUnsymmetric;
  }
  p->matrix = std::make_unique<graphsolve::BlockMatrix>(std::make_shared<const graphsolve::Pattern>(p->graph));
  fam::fill_values(*p->matrix, values, 42);
  p->sparse = graphsolve::to_sparse(*p->matrix);
  p->rhs = Eigen::VectorXd::LinSpaced(p->matrix->rows(), -1.0, 1.0);
  return p;
}

}  // namespace

const Problem& problem(const ProblemKey& key) {
  static std::map<std::string, std::unique_ptr<Problem>> cache;
  const std::string id = key.name() + (key.variant == Variant::Spd ? "#spd" : "");
  auto& slot = cache[id];
  if (!slot) slot = build(key);
  return *slot;
}

std::vector<ProblemKey> all_keys(Scale scale, const std::vector<int>& chosen_blocks,
                                 const FamilySizes& chosen) {
  using Sizes = std::vector<int>;
  // A family's sizes: the chosen ones, else the scale's.
  const auto sizes = [&](const std::string& family, const Sizes& full, const Sizes& quick, const Sizes& smoke) {
    return sizes_of(chosen, family, scale == Scale::Quick ? quick : scale == Scale::Smoke ? smoke : full);
  };
  std::vector<ProblemKey> keys;
  if (scale == Scale::RandomGraphs) {
    for (int block : chosen_blocks.empty() ? Sizes{6} : chosen_blocks)
      for (Variant v : {Variant::Unsymmetric, Variant::Spd})
        for (int n : sizes("random", {100, 300, 1000, 3000, 10000}, {}, {})) keys.push_back({"random", n, block, v});
    return keys;
  }
  const Sizes linear_full{10, 100, 1000, 10000}, linear_quick{100, 1000}, linear_smoke{10};
  const auto linear = [&](const std::string& family) { return sizes(family, linear_full, linear_quick, linear_smoke); };
  const Sizes nets = sizes("net", {3, 5, 10, 20, 32}, {10}, {3});
  const Sizes crystals = sizes("crystal", {2, 3, 4, 5, 6, 8, 10}, {5}, {2});
  const Sizes blocks = !chosen_blocks.empty() ? chosen_blocks : scale == Scale::Quick ? Sizes{6} : Sizes{6, 3};
  for (int block : blocks)
    for (Variant v : {Variant::Unsymmetric, Variant::Spd}) {
      for (const char* family : {"chain", "tree", "ladder"})
        for (int n : linear(family)) keys.push_back({family, n, block, v});
      for (int s : nets) keys.push_back({"net", s, block, v});
      for (int s : crystals) keys.push_back({"crystal", s, block, v});
    }
  if (!chosen_blocks.empty()) return keys;
  for (const char* family : {"chain", "tree", "ladder"})
    for (int n : linear(family)) keys.push_back({family, n, 6, Variant::Saddle});
  if (scale == Scale::Smoke)  // so that the random graphs' flag cannot rot either
    for (Variant v : {Variant::Unsymmetric, Variant::Spd})
      for (int n : sizes("random", {}, {}, {30})) keys.push_back({"random", n, 6, v});
  if (scale == Scale::Full)  // scalar systems: outside the targets, for users who bring them
    for (Variant v : {Variant::Unsymmetric, Variant::Spd}) {
      for (const char* family : {"chain", "tree", "ladder"})
        for (int n : sizes(family, {1000, 10000}, {}, {})) keys.push_back({family, n, 1, v});
      for (int s : sizes("net", {32}, {}, {})) keys.push_back({"net", s, 1, v});
      for (int s : sizes("crystal", {10}, {}, {})) keys.push_back({"crystal", s, 1, v});
    }
  return keys;
}

}  // namespace bench
