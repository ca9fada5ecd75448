// Dominator trees (Cooper, Harvey & Kennedy, "A Simple, Fast Dominance
// Algorithm", 2001): the iterative data-flow solution over reverse
// post-order with the two-finger `intersect`. On reducible graphs — which
// every structurally valid SPIR-V CFG is — one pass over the reverse
// post-order already finds every immediate dominator and a second pass
// confirms it, so the work is linear in the edges times the length of the
// `intersect` walks. Queries are O(1) through pre/post numbers of the tree.
//
// Dominance follows the textbook definition used by the SPIR-V
// specification (§2.2.5): A dominates B when every path from the root to B
// includes A, so every node vacuously dominates a node that the root does
// not reach (the paper's §3.4 relies on this for the 1.6r1 definitions).
#pragma once

#include "frontend/spirv/cfg/graph.h"

namespace sluice::spirv_in::cfg {

class DominatorTree {
 public:
  DominatorTree() = default;
  DominatorTree(const Graph& graph, Node root);

  bool reachable(Node n) const { return n < pre_.size() && pre_[n] != kNoNode; }
  Node idom(Node n) const { return idom_[n]; }  // kNoNode for the root and unreachable nodes
  Node root() const { return root_; }
  // A dominates B (vacuously when B is unreachable).
  bool dominates(Node a, Node b) const {
    if (!reachable(b)) return true;
    if (!reachable(a)) return false;
    return pre_[a] <= pre_[b] && post_[b] <= post_[a];
  }
  bool strictly_dominates(Node a, Node b) const { return a != b && dominates(a, b); }
  // Children in the tree, for walks over a dominated region.
  Graph::Range children(Node n) const {
    return {child_.data() + child_begin_[n], child_.data() + child_begin_[n + 1]};
  }
  std::uint32_t depth(Node n) const { return depth_[n]; }

 private:
  Node root_ = kNoNode;
  std::vector<Node> idom_;
  std::vector<std::uint32_t> pre_, post_, depth_;
  std::vector<std::uint32_t> child_begin_, child_;
};

}  // namespace sluice::spirv_in::cfg
