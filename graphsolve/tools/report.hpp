#pragma once
// Formatting analysis statistics for people (one line) and machines (JSON).
#include <string>

#include <nlohmann/json.hpp>

#include "graphsolve/graphsolve.hpp"

namespace graphsolve::cli {

nlohmann::json to_json(const AnalysisStats& stats);
std::string to_line(const AnalysisStats& stats);

}  // namespace graphsolve::cli
