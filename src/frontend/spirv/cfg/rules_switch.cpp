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
#include <unordered_map>
#include <unordered_set>

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
  // Hash sets and maps keep a switch of k targets O(k).
  std::vector<BlockIndex> distinct;
  std::unordered_set<BlockIndex> target_set;
  for (BlockIndex t : targets)
    if (t != merge && target_set.insert(t).second) distinct.push_back(t);
  for (BlockIndex t : distinct)
    if (!c.cfg.structurally_dominates(w, t)) {
      c.broken[w] = true;
      c.report("switch-sd-case", w, "switch header " + c.name(w) + " does not structurally dominate its case " +
                                        c.name(t));
    }
  // Fall-through: branch edges from a case construct of w to another target of w.
  std::unordered_set<std::uint64_t> fall_seen;  // (from target, to target)
  std::unordered_map<BlockIndex, std::vector<BlockIndex>> falls_out, falls_in;
  for (BlockIndex t : distinct)
    for (std::uint32_t i : c.cfg.in_edges(t)) {
      const Edge& e = c.cfg.edges()[i];
      if (e.kind != EdgeKind::Branch || e.from == w || !c.reachable(e.from)) continue;
      const ConstructIndex from = case_of(c, w, e.from);
      if (from == kNone || cs[from].entry == t) continue;
      const std::uint64_t key = (std::uint64_t{cs[from].entry} << 32) | t;
      if (fall_seen.insert(key).second) {
        falls_out[cs[from].entry].push_back(t);
        falls_in[t].push_back(cs[from].entry);
      }
    }
  const auto fall_from = [&](BlockIndex t) {
    const auto it = falls_out.find(t);
    return it == falls_out.end() ? kNone : it->second.front();
  };
  const auto list = [&](const std::vector<BlockIndex>& blocks) {
    std::string s;
    for (BlockIndex b : blocks) s += (s.empty() ? "" : ", ") + c.cfg.describe(b);
    return s;
  };
  for (BlockIndex t : distinct) {
    if (auto it = falls_out.find(t); it != falls_out.end() && it->second.size() > 1)
      c.report("case-fallthrough-out", t, "the case construct of " + c.name(t) +
                                              " branches to several case constructs: " + list(it->second));
    if (auto it = falls_in.find(t); it != falls_in.end() && it->second.size() > 1)
      c.report("case-fallthrough-in", t, "the case construct of " + c.name(t) +
                                             " is branched to by several case constructs: " + list(it->second));
  }
  // Order and adjacency in the case-target list (targets[1..]).
  const BlockIndex deflt = targets[0];
  const bool default_is_case = std::find(targets.begin() + 1, targets.end(), deflt) != targets.end();
  std::unordered_set<BlockIndex> scattered;
  std::unordered_map<BlockIndex, std::size_t> last_position;
  for (std::size_t i = 1; i < targets.size(); ++i) last_position[targets[i]] = i;
  for (std::size_t i = 1; i < targets.size(); ++i) {
    const BlockIndex t = targets[i];
    if (i > 1 && targets[i - 1] == t) continue;  // handled at the first of the run
    if (scattered.count(t)) continue;
    std::size_t last = i;
    while (last + 1 < targets.size() && targets[last + 1] == t) ++last;
    // Repeated targets must be adjacent where their order matters: when
    // the case falls through or is fallen into (the paper's model states it
    // for every target; the specification's text and spirv-val only order
    // fall-through, and e.g. Tint's DefaultIsMerge_CasesWithDup relies on it).
    const bool in_fall = falls_out.count(t) != 0 || falls_in.count(t) != 0;
    if (in_fall && last_position[t] > last) {
      scattered.insert(t);
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
