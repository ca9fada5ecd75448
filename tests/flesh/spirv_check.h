// What the fleshing tests require of every module they generate: spirv-val
// (Vulkan 1.0) and Sluice's own structured-control-flow analysis (`sluice
// cfg`, docs/spirv-cfg.md) of each function.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "frontend/spirv/cfg/analysis.h"
#include "frontend/spirv/module.h"
#include "output/spirv/spirv_output.h"

namespace sluice::flesh::testing {

// spirv-val's and the cfg analysis's first complaint about the module, or "".
inline std::string spirv_problems(const std::vector<std::uint32_t>& words) {
  const auto messages = spirv::validate(words, spirv::TargetEnv::Vulkan1_0);
  if (!messages.empty()) return "spirv-val: " + messages.front();
  auto parsed = spirv_in::parse_binary(words);
  if (!parsed.ok()) return "parse: " + parsed.error().describe();
  for (const auto& f : parsed.value().functions) {
    const auto cfg = spirv_in::cfg::analyze(parsed.value(), f);
    if (!cfg.valid()) return "sluice cfg: [" + cfg.violations().front().rule + "] " + cfg.violations().front().message;
  }
  return "";
}

}  // namespace sluice::flesh::testing
