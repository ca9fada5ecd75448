// Dominators of a function's CFG (layout in cfg.h), computed once in
// build_cfg and read by the SSA construction (ssa.cpp) and the emitter's
// reuse of read-only loads (readonly_loads.cpp):
//
//  1. reverse post-order by an explicit DFS from the entry (unreachable
//     nodes — the placeholder merge blocks and continue targets of cfg.h —
//     get none);
//  2. immediate dominators by the iterative "common dominator"
//     intersection over reverse post-order (Cooper, Harvey, Kennedy, "A
//     Simple, Fast Dominance Algorithm", 2001, Figure 3);
//  3. pre- and post-order numbers of the dominator tree (an explicit DFS
//     over its children), so that "a dominates b" is two comparisons.
// Nothing recurses; every walk keeps its stack on the heap.
#include "output/spirv/cfg.h"

namespace sluice::spirv::detail {

void compute_dominators(Cfg& cfg) {
  const std::size_t count = cfg.nodes.size();
  cfg.rpo_index.assign(count, kNone);
  cfg.idom.assign(count, kNone);
  cfg.dom_pre.assign(count, kNone);
  cfg.dom_post.assign(count, kNone);
  std::vector<std::uint8_t> visited(count, 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{0, 0}};  // (node, successors visited)
  visited[0] = 1;
  std::vector<std::uint32_t> post;
  post.reserve(cfg.order.size());
  while (!stack.empty()) {
    auto& [n, i] = stack.back();
    const std::uint32_t s = cfg.successor(n, i);
    if (s != kNone) {
      ++i;
      if (!visited[s]) {
        visited[s] = 1;
        stack.emplace_back(s, 0);
      }
      continue;
    }
    post.push_back(n);
    stack.pop_back();
  }
  cfg.rpo.assign(post.rbegin(), post.rend());
  for (std::uint32_t i = 0; i < cfg.rpo.size(); ++i) cfg.rpo_index[cfg.rpo[i]] = i;

  cfg.idom[0] = 0;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (cfg.rpo_index[a] > cfg.rpo_index[b]) a = cfg.idom[a];
      while (cfg.rpo_index[b] > cfg.rpo_index[a]) b = cfg.idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t i = 1; i < cfg.rpo.size(); ++i) {
      const std::uint32_t n = cfg.rpo[i];
      std::uint32_t candidate = kNone;
      for (std::uint32_t p : cfg.preds_of(n)) {
        if (cfg.rpo_index[p] == kNone || cfg.idom[p] == kNone) continue;
        candidate = candidate == kNone ? p : intersect(p, candidate);
      }
      if (candidate != cfg.idom[n]) {
        cfg.idom[n] = candidate;
        changed = true;
      }
    }
  }

  // The dominator tree's children in CSR form, then its DFS numbers.
  std::vector<std::uint32_t> child_start(count + 1, 0), children;
  for (std::uint32_t n : cfg.rpo)
    if (n != 0) ++child_start[cfg.idom[n] + 1];
  for (std::size_t i = 0; i < count; ++i) child_start[i + 1] += child_start[i];
  children.resize(child_start[count]);
  std::vector<std::uint32_t> fill(child_start.begin(), child_start.end() - 1);
  for (std::uint32_t n : cfg.rpo)
    if (n != 0) children[fill[cfg.idom[n]]++] = n;
  std::uint32_t clock = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> walk{{0, child_start[0]}};
  cfg.dom_pre[0] = clock++;
  while (!walk.empty()) {
    auto& [n, next] = walk.back();
    if (next < child_start[n + 1]) {
      const std::uint32_t c = children[next++];
      cfg.dom_pre[c] = clock++;
      walk.emplace_back(c, child_start[c]);
      continue;
    }
    cfg.dom_post[n] = clock++;
    walk.pop_back();
  }
}

}  // namespace sluice::spirv::detail
