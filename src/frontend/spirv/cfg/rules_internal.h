// Shared helpers of the rule checks (rules_*.cpp).
#pragma once

#include <string>
#include <vector>

#include "frontend/spirv/cfg/rules.h"

namespace sluice::spirv_in::cfg::detail {

struct Checker {
  const FunctionCfg& cfg;
  const Function& fn;
  std::vector<Violation> out;
  // Headers (loop or switch) whose declaration rules already failed: the
  // construct rules, which presuppose them, skip their constructs so that
  // one cause gives one report.
  std::vector<bool> broken;
  // Merge blocks declared by more than one header (merge-unique).
  std::vector<bool> shared_merge;

  bool skipped(ConstructIndex k) const { return k != kNone && broken[cfg.constructs()[k].header]; }

  void report(std::string_view rule, BlockIndex where, std::string message) {
    out.push_back(Violation{std::string(rule), std::move(message), where});
  }
  std::string name(BlockIndex b) const { return "block " + cfg.describe(b); }
  bool reachable(BlockIndex b) const { return cfg.reachable(b); }
  // Reachable headers (blocks with a merge instruction).
  bool is_header(BlockIndex b) const { return fn.blocks[b].merge != kNone && reachable(b); }
  bool is_loop_header(BlockIndex b) const { return is_header(b) && fn.blocks[b].merge_kind == MergeKind::Loop; }
  spv::Op terminator(BlockIndex b) const { return cfg.module().instructions[fn.blocks[b].terminator].opcode; }
  // Walks up the construct tree from c, skipping kinds for which skip() is
  // true; the first construct not skipped, or kNone.
  template <class Skip>
  ConstructIndex up_to(ConstructIndex c, Skip skip) const {
    while (c != kNone && skip(cfg.constructs()[c].kind)) c = cfg.constructs()[c].parent;
    return c;
  }
};

// Declarations: entry, merge instructions, back edges, continue targets.
void check_declarations(Checker& c);
// OpSwitch: case constructs and fall-through.
void check_switches(Checker& c);
// Constructs: exits, entries, nesting of headers and merges.
void check_constructs(Checker& c);

}  // namespace sluice::spirv_in::cfg::detail
