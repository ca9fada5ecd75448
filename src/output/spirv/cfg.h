// The structured CFG of one function, built from its block tree.
//
// Every IR block becomes one SPIR-V block (a node); each Loop/DoLoop adds a
// header node (OpLoopMerge, never the function's entry) unless the first
// block of the chain it starts with (a Loop's condition, a DoLoop's body)
// can be the header: one whose exit needs no merge instruction of its own
// (NextBlock, a nested Loop/DoLoop, a DoLoop body's Continue, a Loop
// condition's LoopIf). A Loop without a continue block adds a latch node as
// its continue target, so the continue target is never the header (the
// POPL'23 paper's Fig. 9 idiom), unless its body is one block: that block is
// then the continue target. Layout:
//
//   If:      pre: SelectionMerge M; BranchConditional c T (F | M); a branch
//            holding only `Merge [v]` is left out (T or F is then M itself, the
//            header handing v to M's input: CfgNode::edge_value)
//   Loop:    pre: Branch H;  H: LoopMerge M C; Branch Cond
//            Cond …: LoopIf → BranchConditional c Body M
//            (a first condition block that can be the header is H itself:
//            H = Cond: phis, its code, LoopMerge M C; its exit, e.g.
//            BranchConditional c Body M)
//            Body …: Continue → Branch C;  C … (continue block or latch) → Branch H
//            (a one-block Body without continue block is C: Body: Continue → Branch H)
//   DoLoop:  pre: Branch H;  H: LoopMerge M C; Branch Body
//            (a first body block that can be the header is H itself: phis,
//            its code, LoopMerge M C; its exit)
//            Body …: Continue → Branch C (continue block, else the condition)
//            continue block … → Branch Cond;  Cond …: LoopIf → BranchConditional c H M
//   Switch:  pre: SelectionMerge M; Switch sel default (value case)…, cases in source
//            order so that a Passthrough reaches the next listed case
//   NextBlock: Branch to its merge block.
//
// Nodes are emitted in a pre-order that puts every block after the blocks
// that dominate it. Blocks nothing reaches are dropped, except the merge
// blocks and continue targets that a reachable header names: those become
// stubs holding only their label and an OpUnreachable (a continue target's
// stub branches back to its header, the loop's one back edge).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "ir/module.h"
#include "ir/result.h"

namespace sluice::spirv::detail {

inline constexpr std::uint32_t kNone = ~std::uint32_t{0};

enum class Exit : std::uint8_t { Branch, CondBranch, Switch, Return, Kill, Unreachable };
enum class NodeKind : std::uint8_t { Block, LoopHeader, Latch };

struct CfgNode {
  NodeKind kind = NodeKind::Block;
  ir::BlockId block;                          // Block nodes: the IR block holding the code
  Exit exit = Exit::Unreachable;
  std::uint32_t target[2] = {kNone, kNone};   // Branch: [0]; CondBranch: true, false
  ir::Operand operand;                        // condition, selector or return value
  bool has_operand = false;
  ir::Operand edge_value;                     // what a Branch (or an If header, to M) hands to a merge input
  bool has_edge_value = false;
  std::uint32_t merge = kNone;                // headers: the merge node
  std::uint32_t continue_target = kNone;      // loop headers (and only they: OpLoopMerge)
  std::uint32_t loop = kNone;                 // the innermost loop holding the node (a header and latch: theirs)
  std::uint32_t switch_index = kNone;         // Switch exits: index into Cfg::switches
  bool reachable = false;
  bool stub = false;                          // unreachable but named by a header: label + exit only
  std::uint8_t deferred_error = 0;            // reported only if the node is reachable
};

struct CfgLoop {
  bool do_loop = false;
  std::uint32_t header = kNone, continue_target = kNone, merge = kNone, condition = kNone, body = kNone;
  // Loops are numbered in pre-order of their nesting: the loops inside
  // this one are those numbered from it up to `end`, exclusive.
  std::uint32_t parent = kNone, end = kNone;
};

struct CfgSwitch {
  std::uint32_t default_target = kNone;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> cases;  // (literal, node), source order
  std::vector<std::uint32_t> case_nodes;                         // every case, default included, source order
  bool in_loop = false;  // inside a Loop/DoLoop of the same function
};

struct Cfg {
  std::vector<CfgNode> nodes;        // nodes[0] is the function's entry block
  std::vector<std::uint32_t> order;  // the nodes to emit, in emission order
  std::vector<CfgLoop> loops;
  std::vector<CfgSwitch> switches;
  std::vector<std::uint32_t> pred_start, preds;  // CSR: predecessors among emitted nodes
  // Dominators (dominators.cpp); kNone for nodes the entry does not reach.
  std::vector<std::uint32_t> rpo;                // reachable nodes in reverse post-order
  std::vector<std::uint32_t> rpo_index, idom;    // per node
  std::vector<std::uint32_t> dom_pre, dom_post;  // per node: DFS numbers in the dominator tree

  bool reachable(std::uint32_t n) const { return rpo_index[n] != kNone; }
  // Whether loop `outer` holds loop `inner` (or is it); kNone is the
  // function, which holds every loop and no loop holds.
  bool loop_holds(std::uint32_t outer, std::uint32_t inner) const {
    if (outer == kNone) return true;
    return inner != kNone && outer <= inner && inner < loops[outer].end;
  }
  // Whether a dominates b (both reachable; a node dominates itself).
  bool dominates(std::uint32_t a, std::uint32_t b) const {
    return dom_pre[a] <= dom_pre[b] && dom_post[b] <= dom_post[a];
  }

  std::span<const std::uint32_t> preds_of(std::uint32_t n) const {
    return {preds.data() + pred_start[n], preds.data() + pred_start[n + 1]};
  }
  // The k-th successor of n (in for_each_successor's order), kNone past the last.
  std::uint32_t successor(std::uint32_t n, std::uint32_t k) const {
    const CfgNode& node = nodes[n];
    switch (node.exit) {
      case Exit::Branch: return k == 0 ? node.target[0] : kNone;
      case Exit::CondBranch: return k < 2 ? node.target[k] : kNone;
      case Exit::Switch: {
        const CfgSwitch& s = switches[node.switch_index];
        if (k == 0) return s.default_target;
        return k - 1 < s.cases.size() ? s.cases[k - 1].second : kNone;
      }
      default: return kNone;
    }
  }
  template <class F>
  void for_each_successor(std::uint32_t n, F&& f) const {
    const CfgNode& node = nodes[n];
    switch (node.exit) {
      case Exit::Branch: f(node.target[0]); break;
      case Exit::CondBranch:
        f(node.target[0]);
        if (node.target[1] != node.target[0]) f(node.target[1]);
        break;
      case Exit::Switch: {
        const CfgSwitch& s = switches[node.switch_index];
        f(s.default_target);
        // Empty cases share the next case's target (cfg.cpp): equal
        // targets are adjacent.
        std::uint32_t previous = s.default_target;
        for (const auto& [value, target] : s.cases) {
          if (target != s.default_target && target != previous) f(target);
          previous = target;
        }
        break;
      }
      default: break;
    }
  }
};

// Fills rpo, rpo_index, idom, dom_pre and dom_post (dominators.cpp).
void compute_dominators(Cfg& cfg);

// Choices of shape the SPIR-V output's options make.
struct CfgShape {
  // A Loop without continue block whose body is one block has that block
  // as its continue target (spirv-opt's shape); false: an empty latch node
  // after it is, unless the body stores a whole vector variable (the
  // loop-latch driver workaround, docs/workarounds.md).
  bool one_block_body_continues = true;
};

// Builds the CFG without recursion (an explicit stack walks the tree) of a
// function of valid IR; fails on trees SPIR-V cannot express (see cfg.cpp).
Result<Cfg> build_cfg(const ir::Module& m, const ir::Function& f, CfgShape shape = {});

}  // namespace sluice::spirv::detail
