// Graphviz drawing of a FunctionCfg: branch edges solid (back edges bold),
// merge edges dashed, continue edges dotted; each construct a cluster
// nested as the construct tree nests; blocks named by id and OpName.
#pragma once

#include <string>

#include "frontend/spirv/cfg/analysis.h"

namespace sluice::spirv_in::cfg {

std::string to_dot(const FunctionCfg& cfg);

}  // namespace sluice::spirv_in::cfg
