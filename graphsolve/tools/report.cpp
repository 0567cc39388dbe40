#include "report.hpp"

#include <sstream>

namespace graphsolve::cli {

nlohmann::json to_json(const AnalysisStats& s) {
  return {{"nodes", s.nodes},
          {"edges", s.edges},
          {"components", s.components},
          {"cycle_rank", s.cycle_rank},
          {"dimension", s.dimension},
          {"ordering", to_string(s.ordering)},
          {"fill_blocks", s.fill_blocks},
          {"relaxed_blocks", s.relaxed_blocks},
          {"factor_blocks", s.factor_blocks},
          {"factor_nonzeros", s.factor_nonzeros},
          {"flops", s.flops},
          {"solve_flops", s.solve_flops},
          {"max_front", s.max_front},
          {"tree_height", s.tree_height},
          {"deferred_nodes", s.deferred_nodes}};
}

std::string to_line(const AnalysisStats& s) {
  std::ostringstream out;
  out << "nodes=" << s.nodes << " edges=" << s.edges << " components=" << s.components
      << " cycle_rank=" << s.cycle_rank << " ordering=" << to_string(s.ordering) << " fill_blocks=" << s.fill_blocks
      << " flops=" << s.flops;
  return out.str();
}

}  // namespace graphsolve::cli
