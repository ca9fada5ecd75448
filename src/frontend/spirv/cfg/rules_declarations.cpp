// Rules on the structured control-flow declarations (SPIR-V spec §2.11.1,
// "Rules for Structured Control-flow Declarations", as rewritten around
// structural dominance in 1.6r2; the paper's §4.2), plus the entry-block
// rules of §2.16.1 and the merge-instruction placement of the
// OpSelectionMerge/OpLoopMerge instruction descriptions (§3.42.17).
#include <unordered_map>

#include <spirv-tools/libspirv.h>

#include "frontend/spirv/cfg/rules_internal.h"

namespace sluice::spirv_in::cfg::detail {
namespace {

void check_entry(Checker& c) {
  const bool loop = c.fn.blocks[0].merge_kind == MergeKind::Loop;
  if (loop) c.broken[0] = true;
  if (loop)
    c.report("entry-loop-header", 0, "the entry " + c.name(0) + " of the function is a loop header");
  for (std::uint32_t e : c.cfg.in_edges(0)) {
    const Edge& edge = c.cfg.edges()[e];
    // A loop at the entry is reported once, as entry-loop-header.
    if (edge.kind == EdgeKind::Branch && !loop && c.reachable(edge.from))
      c.report("entry-targeted", edge.from,
               c.name(edge.from) + " branches to the entry " + c.name(0) + " of the function");
  }
}

void check_merge_placement(Checker& c) {
  const auto n = c.cfg.size();
  std::vector<bool> declared(n, false);  // a merge block or continue target of some header
  for (const Block& b : c.fn.blocks) {
    if (b.merge_block != kNone) declared[b.merge_block] = true;
    if (b.continue_target != kNone) declared[b.continue_target] = true;
  }
  for (BlockIndex b = 0; b < n; ++b) {
    if (!c.reachable(b)) continue;
    const Block& block = c.fn.blocks[b];
    const spv::Op t = c.terminator(b);
    if (block.merge_kind == MergeKind::Loop && t != spv::Op::OpBranch && t != spv::Op::OpBranchConditional)
      c.report("merge-terminator", b, "the OpLoopMerge of " + c.name(b) + " precedes " +
                                          spvOpcodeString(static_cast<std::uint32_t>(t)) +
                                          ", not OpBranch or OpBranchConditional");
    if (block.merge_kind == MergeKind::Selection && t != spv::Op::OpBranchConditional && t != spv::Op::OpSwitch)
      c.report("merge-terminator", b, "the OpSelectionMerge of " + c.name(b) + " precedes " +
                                          spvOpcodeString(static_cast<std::uint32_t>(t)) +
                                          ", not OpBranchConditional or OpSwitch");
    if (block.merge != kNone) continue;
    if (t == spv::Op::OpSwitch)
      c.report("unstructured-branch", b, "the OpSwitch of " + c.name(b) + " has no OpSelectionMerge");
    if (t == spv::Op::OpBranchConditional && block.successors[0] != block.successors[1] &&
        !declared[block.successors[0]] && !declared[block.successors[1]])
      c.report("unstructured-branch", b,
               "the OpBranchConditional of " + c.name(b) + " has no OpSelectionMerge and neither target (" +
                   c.cfg.describe(block.successors[0]) + ", " + c.cfg.describe(block.successors[1]) +
                   ") is a merge block or continue target");
  }
}

void check_merges(Checker& c) {
  std::unordered_map<BlockIndex, BlockIndex> header_of_merge;
  for (BlockIndex h = 0; h < c.cfg.size(); ++h) {
    if (!c.is_header(h)) continue;
    const BlockIndex m = c.fn.blocks[h].merge_block;
    const auto [it, fresh] = header_of_merge.emplace(m, h);
    if (!fresh) {
      // The later header cannot dominate the merge past the earlier one's
      // merge edge: reported here only.
      c.report("merge-unique", h, c.name(m) + " is the merge block of both " + c.name(it->second) + " and " +
                                      c.name(h));
      c.shared_merge[m] = true;
      continue;
    }
    if (!c.cfg.structurally_dominates(h, m) || h == m)
      c.report("header-sdom-merge", h, "header " + c.name(h) + " does not strictly structurally dominate its merge " +
                                           c.name(m));
  }
}

void check_loops(Checker& c) {
  for (const Edge& e : c.cfg.edges())
    if (e.back && !c.is_loop_header(e.to) && e.to != 0)  // a branch to the entry: entry-targeted
      c.report("back-edge-target", e.from,
               "the back edge from " + c.name(e.from) + " targets " + c.name(e.to) + ", which is not a loop header");
  for (BlockIndex h = 0; h < c.cfg.size(); ++h) {
    if (!c.is_loop_header(h) || h == 0) continue;  // a loop at the entry: entry-loop-header
    const Block& block = c.fn.blocks[h];
    const BlockIndex ct = block.continue_target, m = block.merge_block;
    const auto& latches = c.cfg.back_edge_blocks(h);
    if (latches.size() != 1) {
      c.broken[h] = true;
      std::string list;
      for (BlockIndex l : latches) list += (list.empty() ? "" : ", ") + c.cfg.describe(l);
      c.report("loop-back-edges", h, "loop header " + c.name(h) + " has " + std::to_string(latches.size()) +
                                         " back-edge blocks" + (list.empty() ? "" : " (" + list + ")") +
                                         ", not exactly one");
    }
    if (ct == m) {
      c.broken[h] = true;
      c.report("continue-is-merge", h, "loop header " + c.name(h) + " declares " + c.name(ct) +
                                           " as both merge block and continue target");
      continue;
    }
    if (!c.cfg.structurally_dominates(h, ct)) {
      c.broken[h] = true;
      c.report("header-sd-continue", h,
               "loop header " + c.name(h) + " does not structurally dominate its continue target " + c.name(ct));
    }
    if (latches.size() != 1) continue;
    const BlockIndex be = latches[0];
    if (!c.cfg.structurally_dominates(ct, be)) {
      c.broken[h] = true;
      c.report("continue-sd-back-edge", ct, "continue target " + c.name(ct) + " of loop " + c.cfg.describe(h) +
                                                " does not structurally dominate the back-edge " + c.name(be));
    }
    if (!c.cfg.structurally_post_dominates(be, ct)) {
      c.broken[h] = true;
      c.report("back-edge-spd-continue", be, "back-edge " + c.name(be) + " of loop " + c.cfg.describe(h) +
                                                 " does not structurally post-dominate the continue target " +
                                                 c.name(ct));
    }
  }
}

}  // namespace

void check_declarations(Checker& c) {
  check_entry(c);
  check_merge_placement(c);
  check_merges(c);
  check_loops(c);
}

}  // namespace sluice::spirv_in::cfg::detail
