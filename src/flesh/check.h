// Whether a fleshed test is a valid structured SPIR-V module: spirv-val
// (SPIRV-Tools, Vulkan 1.0 environment) and Sluice's own SPIR-V 1.6r2
// structured-control-flow analysis (`sluice cfg`, docs/spirv-cfg.md). The
// generator's tests use it, and so do the CFGs that come from elsewhere
// (an Alloy instance, a reduction step) before they are run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "flesh/flesh.h"

namespace sluice::flesh {

// The first complaint ("spirv-val: ...", "sluice cfg: [rule] ..."), or ""
// when the test is valid.
std::string structure_problem(const Test& test);
// The same for any module (a block tree's, a bundle's).
std::string module_problem(const std::vector<std::uint32_t>& words);

// The same for a CFG alone: fleshed in basic mode with a fixed seed and
// checked; also "" only when the entry can reach a return.
std::string cfg_problem(const Cfg& cfg);

}  // namespace sluice::flesh
