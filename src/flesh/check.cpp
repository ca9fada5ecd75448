#include "flesh/check.h"

#include "frontend/spirv/cfg/analysis.h"
#include "output/spirv/spirv_output.h"

namespace sluice::flesh {

std::string structure_problem(const Test& t) { return module_problem(t.spirv); }

std::string module_problem(const std::vector<std::uint32_t>& words) {
  namespace sv = spirv_in;
  const auto messages = spirv::validate(words, spirv::TargetEnv::Vulkan1_0);
  if (!messages.empty()) return "spirv-val: " + messages.front();
  auto parsed = sv::parse_binary(words);
  if (!parsed.ok()) return "parse: " + parsed.error().describe();
  for (const auto& f : parsed.value().functions) {
    const auto cfg = sv::cfg::analyze(parsed.value(), f);
    if (!cfg.valid()) return "sluice cfg: [" + cfg.violations().front().rule + "] " + cfg.violations().front().message;
  }
  return "";
}

std::string cfg_problem(const Cfg& cfg) {
  if (cfg.blocks.empty()) return "the CFG has no blocks";
  if (exit_distances(cfg)[0] == kUnreachableDistance) return "no path leads from the entry block to a return";
  auto t = flesh(cfg, 1, FleshOptions{});
  if (!t) return t.error();
  return structure_problem(*t);
}

}  // namespace sluice::flesh
