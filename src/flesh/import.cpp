#include "flesh/import.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "frontend/spirv/cfg/analysis.h"

namespace sluice::flesh {

Result<Cfg> import_cfg(const spirv_in::Module& m) {
  namespace sv = spirv_in;
  // The entry point's function, else the first with blocks.
  const sv::Function* f = nullptr;
  for (const auto& ins : m.instructions)
    if (ins.opcode == spv::Op::OpEntryPoint && ins.words.size() >= 2)
      for (const auto& fn : m.functions)
        if (fn.id == ins.words[1] && !fn.blocks.empty()) f = &fn;
  for (const auto& fn : m.functions)
    if (!f && !fn.blocks.empty()) f = &fn;
  if (!f) return Error{"the module has no function with blocks"};
  const auto analysis = sv::cfg::analyze(m, *f);
  if (!analysis.valid()) {
    const auto& v = analysis.violations().front();
    return Error{fmt::format("[{}] {}", v.rule, v.message)};
  }
  Cfg cfg;
  for (const sv::Block& b : f->blocks) {
    Block k;
    const spv::Op op = m.instructions[b.terminator].opcode;
    for (sv::BlockIndex s : b.successors) k.targets.push_back(s);
    switch (op) {
      case spv::Op::OpBranch: k.terminator = Terminator::Branch; break;
      case spv::Op::OpBranchConditional: k.terminator = Terminator::Conditional; break;
      case spv::Op::OpSwitch: {
        k.terminator = Terminator::Switch;
        std::set<std::uint32_t> used;
        for (std::uint64_t lit : b.case_literals) {
          k.case_literals.push_back(static_cast<std::uint32_t>(lit));
          used.insert(static_cast<std::uint32_t>(lit));
        }
        while (used.count(k.default_selector)) ++k.default_selector;
        break;
      }
      case spv::Op::OpUnreachable: k.terminator = Terminator::Unreachable; break;
      default: k.terminator = Terminator::Return; k.targets.clear(); break;  // return, return value, kill, terminate
    }
    if (b.merge_kind == sv::MergeKind::Selection) {
      k.merge_kind = MergeKind::Selection;
      k.merge = b.merge_block;
    } else if (b.merge_kind == sv::MergeKind::Loop) {
      k.merge_kind = MergeKind::Loop;
      k.merge = b.merge_block;
      k.continue_target = b.continue_target;
    }
    cfg.blocks.push_back(std::move(k));
  }
  // The module's block order was valid for it; keep it.
  for (BlockIndex b = 0; b < cfg.size(); ++b) cfg.layout.push_back(b);
  if (exit_distances(cfg)[0] == kUnreachableDistance) return Error{"no path leads from the entry block to a return"};
  return cfg;
}

}  // namespace sluice::flesh
