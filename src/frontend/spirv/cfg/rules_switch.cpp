// OpSwitch rules (SPIR-V spec §2.11.3; the fall-through order as refined in
// the paper's Alloy model, predicate OrderOfOpSwitchTargetOperands):
//  * switch-sd-case: the switch header structurally dominates every target
//    that is not its merge block;
//  * case-fallthrough-out / -in: a case construct branches to at most one
//    other case construct of the same OpSwitch, and is branched to by at
//    most one;
//  * case-fallthrough-order: when the case of target T1 branches to the
//    case of T2 (or to the Default's case, which branches to T2, when the
//    Default is not also a case target), the last T1 immediately precedes
//    the first T2 in the OpSwitch target list;
//  * switch-targets-adjacent: equal targets are adjacent in that list.
#include <algorithm>

#include "frontend/spirv/cfg/rules_internal.h"

namespace sluice::spirv_in::cfg::detail {
namespace {

// The case construct (of switch header w) containing block a, or kNone.
ConstructIndex case_of(const Checker& c, BlockIndex w, BlockIndex a) {
  const auto& cs = c.cfg.constructs();
  for (ConstructIndex k = c.cfg.innermost(a); k != kNone; k = cs[k].parent) {
    if (cs[k].kind == ConstructKind::Case && cs[k].header == w) return k;
    if (cs[k].kind == ConstructKind::Switch && cs[k].header == w) return kNone;
  }
  return kNone;
}

void check_switch(Checker& c, BlockIndex w) {
  const auto& cs = c.cfg.constructs();
  const Block& block = c.fn.blocks[w];
  const BlockIndex merge = block.merge_block;
  // targets[0] is the Default, the rest the case targets in operand order.
  const std::vector<BlockIndex>& targets = block.successors;
  std::vector<BlockIndex> distinct;
  for (BlockIndex t : targets)
    if (t != merge && std::find(distinct.begin(), distinct.end(), t) == distinct.end()) distinct.push_back(t);
  for (BlockIndex t : distinct)
    if (!c.cfg.structurally_dominates(w, t)) {
      c.broken[w] = true;
      c.report("switch-sd-case", w, "switch header " + c.name(w) + " does not structurally dominate its case " +
                                        c.name(t));
    }
  // Fall-through: branch edges from a case construct of w to another target of w.
  std::vector<std::pair<BlockIndex, BlockIndex>> falls;  // (from target, to target)
  for (BlockIndex t : distinct)
    for (std::uint32_t i : c.cfg.in_edges(t)) {
      const Edge& e = c.cfg.edges()[i];
      if (e.kind != EdgeKind::Branch || e.from == w || !c.reachable(e.from)) continue;
      const ConstructIndex from = case_of(c, w, e.from);
      if (from == kNone || cs[from].entry == t) continue;
      const std::pair<BlockIndex, BlockIndex> f{cs[from].entry, t};
      if (std::find(falls.begin(), falls.end(), f) == falls.end()) falls.push_back(f);
    }
  const auto fall_from = [&](BlockIndex t) {
    for (const auto& f : falls)
      if (f.first == t) return f.second;
    return kNone;
  };
  for (BlockIndex t : distinct) {
    std::string outs, ins;
    int n_out = 0, n_in = 0;
    for (const auto& [from, to] : falls) {
      if (from == t) outs += (n_out++ ? ", " : "") + c.cfg.describe(to);
      if (to == t) ins += (n_in++ ? ", " : "") + c.cfg.describe(from);
    }
    if (n_out > 1)
      c.report("case-fallthrough-out", t, "the case construct of " + c.name(t) +
                                              " branches to several case constructs: " + outs);
    if (n_in > 1)
      c.report("case-fallthrough-in", t, "the case construct of " + c.name(t) +
                                             " is branched to by several case constructs: " + ins);
  }
  // Order and adjacency in the case-target list (targets[1..]).
  const BlockIndex deflt = targets[0];
  const bool default_is_case = std::find(targets.begin() + 1, targets.end(), deflt) != targets.end();
  std::vector<BlockIndex> scattered;
  for (std::size_t i = 1; i < targets.size(); ++i) {
    const BlockIndex t = targets[i];
    if (i > 1 && targets[i - 1] == t) continue;  // handled at the first of the run
    if (std::find(scattered.begin(), scattered.end(), t) != scattered.end()) continue;
    std::size_t last = i;
    while (last + 1 < targets.size() && targets[last + 1] == t) ++last;
    // Repeated targets must be adjacent where their order matters: when
    // the case falls through or is fallen into (the paper's model states it
    // for every target; the specification's text and spirv-val only order
    // fall-through, and e.g. Tint's DefaultIsMerge_CasesWithDup relies on it).
    const bool in_fall = fall_from(t) != kNone ||
                       std::any_of(falls.begin(), falls.end(), [&](const auto& f) { return f.second == t; });
    if (in_fall &&
        std::find(targets.begin() + static_cast<std::ptrdiff_t>(last) + 1, targets.end(), t) != targets.end()) {
      scattered.push_back(t);
      c.report("switch-targets-adjacent", w, "the OpSwitch of " + c.name(w) + " lists the target " +
                                                 c.cfg.describe(t) + " at non-adjacent positions");
      continue;
    }
    if (t == merge) continue;
    BlockIndex to = fall_from(t);
    if (to == deflt && !default_is_case) to = fall_from(deflt);
    if (to == kNone || to == merge) continue;
    if (last + 1 >= targets.size() || targets[last + 1] != to)
      c.report("case-fallthrough-order", w, "the case construct of " + c.name(t) + " branches to the case of " +
                                                c.cfg.describe(to) +
                                                " but does not immediately precede it in the OpSwitch targets of " +
                                                c.cfg.describe(w));
  }
}

}  // namespace

void check_switches(Checker& c) {
  for (BlockIndex w = 0; w < c.cfg.size(); ++w)
    if (c.is_header(w) && c.fn.blocks[w].merge_kind == MergeKind::Selection &&
        c.terminator(w) == spv::Op::OpSwitch)
      check_switch(c, w);
}

}  // namespace sluice::spirv_in::cfg::detail

namespace sluice::spirv_in::cfg {

std::vector<Violation> check_rules(const FunctionCfg& cfg) {
  detail::Checker c{cfg, cfg.function(), {}, std::vector<bool>(cfg.size(), false),
                    std::vector<bool>(cfg.size(), false)};
  detail::check_declarations(c);
  detail::check_switches(c);
  detail::check_constructs(c);
  return std::move(c.out);
}

}  // namespace sluice::spirv_in::cfg
