// Rules on the structured control-flow constructs (SPIR-V spec §2.11.3,
// "Rules for Structured Control-flow Constructs"; the exit rules are the
// paper's §4.3 "Unambiguous exit rules"):
//  * exit: a branch edge A→B that leaves the innermost construct I of A is
//    one of: breaking from a selection (I is a selection, B its merge);
//    breaking from or continuing the innermost loop (the first loop or
//    continue construct above A is a loop L, B is L's merge or continue
//    target); a back edge (A is the back-edge block of loop header B);
//    leaving a continue construct from its back-edge block to the loop
//    merge; falling through from a case construct (I is a case, B a target
//    of the same OpSwitch); breaking from the innermost switch (the first
//    switch, loop or continue construct above A is a switch W, B W's merge).
//  * header-merge-contained: a construct that contains a header contains
//    its merge block. Checked against the innermost construct containing
//    the header (other than the header's own), which the construct tree
//    nests in all outer ones; that keeps the check linear.
//  * enter-via-header: a branch edge P→X entering constructs that contain
//    X but not P must target their entry.
//  * continue-from-outside: only the loop construct (or the back edge)
//    branches to a continue target (spirv-val's rule; the paper's Alloy
//    model, predicate BranchToContinue).
#include "frontend/spirv/cfg/rules_internal.h"

namespace sluice::spirv_in::cfg::detail {
namespace {

bool is_loop_or_continue(ConstructKind k) { return k == ConstructKind::Loop || k == ConstructKind::Continue; }

bool structured_exit(const Checker& c, const Edge& e, ConstructIndex inner) {
  const auto& cs = c.cfg.constructs();
  const Construct& I = cs[inner];
  const BlockIndex a = e.from, b = e.to;
  if (I.kind == ConstructKind::Selection && b == I.merge) return true;
  // The innermost loop or continue construct, across selections, switches and cases.
  const ConstructIndex l = c.up_to(inner, [](ConstructKind k) { return !is_loop_or_continue(k); });
  if (l != kNone) {
    const Construct& L = cs[l];
    if (L.kind == ConstructKind::Loop && (b == L.merge || b == L.continue_target)) return true;
    if (L.kind == ConstructKind::Continue && a == L.back_edge_block && b == L.merge) return true;
  }
  if (e.back && c.is_loop_header(b)) {
    const auto& latches = c.cfg.back_edge_blocks(b);
    if (!latches.empty() && latches.front() == a) return true;
  }
  if (I.kind == ConstructKind::Case) {
    const ConstructIndex target = c.cfg.case_construct(b);
    if (target != kNone && cs[target].header == I.header && cs[target].entry == b) return true;
  }
  // The innermost switch, across selections and cases but not loops.
  const ConstructIndex w = c.up_to(
      inner, [](ConstructKind k) { return k == ConstructKind::Selection || k == ConstructKind::Case; });
  return w != kNone && cs[w].kind == ConstructKind::Switch && b == cs[w].merge;
}

std::string construct_name(const Checker& c, ConstructIndex k) {
  const Construct& x = c.cfg.constructs()[k];
  return std::string("the ") + to_string(x.kind) + " construct of " + c.name(x.entry);
}

void check_exits_and_entries(Checker& c) {
  const auto& cs = c.cfg.constructs();
  for (const Edge& e : c.cfg.edges()) {
    if (e.kind != EdgeKind::Branch || !c.reachable(e.from)) continue;
    const ConstructIndex inner = c.cfg.innermost(e.from);
    if (inner != kNone && !c.skipped(inner) && !c.cfg.contains(inner, e.to) && !structured_exit(c, e, inner))
      c.report("exit", e.from,
               "the branch from " + c.name(e.from) + " to " + c.name(e.to) + " leaves " + construct_name(c, inner) +
                   " but is no structured exit (break from the innermost selection, loop or switch, continue of "
                   "the innermost loop, back edge, or case fall-through)");
    for (ConstructIndex k = c.cfg.innermost(e.to); k != kNone && !c.cfg.contains(k, e.from); k = cs[k].parent)
      if (cs[k].entry != e.to && c.cfg.contains(k, e.to) && !c.skipped(k)) {
        c.report("enter-via-header", e.from,
                 "the branch from " + c.name(e.from) + " to " + c.name(e.to) + " enters " + construct_name(c, k) +
                     " but not through its entry");
        break;
      }
  }
}

void check_header_merges(Checker& c) {
  const auto& cs = c.cfg.constructs();
  for (BlockIndex h = 0; h < c.cfg.size(); ++h) {
    if (!c.is_header(h) || c.shared_merge[c.fn.blocks[h].merge_block]) continue;
    ConstructIndex k = c.cfg.innermost(h);
    while (k != kNone && cs[k].header == h)  // h's own constructs
      k = cs[k].parent;
    const BlockIndex m = c.fn.blocks[h].merge_block;
    if (k != kNone && !c.skipped(k) && !c.cfg.contains(k, m))
      c.report("header-merge-contained", h, c.name(h) + " is a header in " + construct_name(c, k) +
                                                " but its merge " + c.name(m) + " is not");
  }
}

void check_continue_entries(Checker& c) {
  for (BlockIndex h = 0; h < c.cfg.size(); ++h) {
    if (!c.is_loop_header(h) || c.broken[h]) continue;
    const BlockIndex ct = c.fn.blocks[h].continue_target;
    const ConstructIndex loop = c.cfg.construct_of_header(h);
    if (ct == h || ct == c.fn.blocks[h].merge_block) continue;
    for (std::uint32_t i : c.cfg.in_edges(ct)) {
      const Edge& e = c.cfg.edges()[i];
      if (e.kind != EdgeKind::Branch || e.back || !c.reachable(e.from) || c.cfg.contains(loop, e.from)) continue;
      c.report("continue-from-outside", e.from, c.name(e.from) + " branches to the continue target " + c.name(ct) +
                                                    " of loop " + c.cfg.describe(h) +
                                                    " but is not in that loop's construct");
    }
  }
}

}  // namespace

void check_constructs(Checker& c) {
  check_exits_and_entries(c);
  check_header_merges(c);
  check_continue_entries(c);
}

}  // namespace sluice::spirv_in::cfg::detail
