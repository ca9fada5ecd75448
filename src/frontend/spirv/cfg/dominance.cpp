// Cooper–Harvey–Kennedy dominators, then a pre/post numbering of the tree
// by an iterative walk (no native recursion) for O(1) dominance queries.
#include "frontend/spirv/cfg/dominance.h"

namespace sluice::spirv_in::cfg {

DominatorTree::DominatorTree(const Graph& graph, Node root) : root_(root) {
  const std::uint32_t n = graph.size;
  idom_.assign(n, kNoNode);
  pre_.assign(n, kNoNode);
  post_.assign(n, kNoNode);
  depth_.assign(n, 0);
  child_begin_.assign(n + 1, 0);
  if (root >= n) return;
  const DepthFirst dfs = depth_first(graph, root);
  const auto& order = dfs.rpo_number;
  // idom in terms of rpo numbers during the iteration.
  std::vector<std::uint32_t> doms(dfs.reverse_post_order.size(), kNoNode);
  doms[0] = 0;
  const auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (a > b) a = doms[a];
      while (b > a) b = doms[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t i = 1; i < dfs.reverse_post_order.size(); ++i) {
      std::uint32_t new_idom = kNoNode;
      for (Node p : graph.predecessors(dfs.reverse_post_order[i])) {
        const std::uint32_t pr = order[p];
        if (pr == kNoNode || doms[pr] == kNoNode) continue;
        new_idom = new_idom == kNoNode ? pr : intersect(pr, new_idom);
      }
      if (doms[i] != new_idom) {
        doms[i] = new_idom;
        changed = true;
      }
    }
  }
  for (std::uint32_t i = 1; i < doms.size(); ++i) idom_[dfs.reverse_post_order[i]] = dfs.reverse_post_order[doms[i]];
  // Children lists (CSR), then pre/post numbers by an explicit stack.
  for (Node v = 0; v < n; ++v)
    if (idom_[v] != kNoNode) ++child_begin_[idom_[v] + 1];
  for (Node v = 0; v < n; ++v) child_begin_[v + 1] += child_begin_[v];
  child_.resize(child_begin_[n]);
  std::vector<std::uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
  for (Node v : dfs.reverse_post_order)
    if (idom_[v] != kNoNode) child_[fill[idom_[v]]++] = v;
  std::uint32_t clock = 0;
  std::vector<std::pair<Node, std::uint32_t>> stack{{root, child_begin_[root]}};
  pre_[root] = clock++;
  while (!stack.empty()) {
    auto& [v, next] = stack.back();
    if (next == child_begin_[v + 1]) {
      post_[v] = clock++;
      stack.pop_back();
      continue;
    }
    const Node c = child_[next++];
    pre_[c] = clock++;
    depth_[c] = depth_[v] + 1;
    stack.emplace_back(c, child_begin_[c]);
  }
}

}  // namespace sluice::spirv_in::cfg
