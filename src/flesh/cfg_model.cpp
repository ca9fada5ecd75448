#include "flesh/cfg_model.h"

#include <algorithm>
#include <deque>

#include <fmt/format.h>

namespace sluice::flesh {

std::vector<bool> reachable_blocks(const Cfg& cfg) {
  std::vector<bool> seen(cfg.size(), false);
  if (cfg.blocks.empty()) return seen;
  std::vector<BlockIndex> work{0};
  seen[0] = true;
  while (!work.empty()) {
    const BlockIndex b = work.back();
    work.pop_back();
    for (BlockIndex t : cfg.blocks[b].targets)
      if (!seen[t]) {
        seen[t] = true;
        work.push_back(t);
      }
  }
  return seen;
}

std::vector<std::uint32_t> exit_distances(const Cfg& cfg) {
  // Breadth-first search backwards over branch edges from every OpReturn.
  std::vector<std::vector<BlockIndex>> preds(cfg.size());
  std::vector<std::uint32_t> dist(cfg.size(), kUnreachableDistance);
  std::deque<BlockIndex> queue;
  for (BlockIndex b = 0; b < cfg.size(); ++b) {
    for (BlockIndex t : cfg.blocks[b].targets) preds[t].push_back(b);
    if (cfg.blocks[b].terminator == Terminator::Return) {
      dist[b] = 0;
      queue.push_back(b);
    }
  }
  while (!queue.empty()) {
    const BlockIndex b = queue.front();
    queue.pop_front();
    for (BlockIndex p : preds[b])
      if (dist[p] == kUnreachableDistance) {
        dist[p] = dist[b] + 1;
        queue.push_back(p);
      }
  }
  return dist;
}

std::uint32_t direction_for(const Block& b, std::size_t target_index) {
  if (b.terminator == Terminator::Conditional) return target_index == 0 ? 1u : 0u;
  if (b.terminator == Terminator::Switch) return target_index == 0 ? b.default_selector : b.case_literals[target_index - 1];
  return 0;
}

BlockIndex target_for(const Block& b, std::uint32_t direction) {
  if (b.terminator == Terminator::Conditional) return direction == 1 ? b.targets[0] : b.targets[1];
  if (b.terminator == Terminator::Switch) {
    for (std::size_t i = 0; i < b.case_literals.size(); ++i)
      if (b.case_literals[i] == direction) return b.targets[i + 1];
    return b.targets[0];
  }
  return b.targets.empty() ? kNoBlock : b.targets[0];
}

std::uint32_t exitward_direction(const Block& b, const std::vector<std::uint32_t>& distances) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < b.targets.size(); ++i)
    if (distances[b.targets[i]] < distances[b.targets[best]]) best = i;
  return direction_for(b, best);
}

void compute_layout(Cfg& cfg) {
  // Successors are pushed so that the first branch target is explored last
  // and so comes first in the reverse post-order; the merge block is
  // explored first and comes after the construct it ends.
  const std::uint32_t n = cfg.size();
  std::vector<std::uint8_t> state(n, 0);  // 0 new, 1 on the stack, 2 done
  std::vector<BlockIndex> post;
  post.reserve(n);
  struct Frame {
    BlockIndex block;
    std::vector<BlockIndex> succ;
    std::size_t next = 0;
  };
  auto successors = [&](BlockIndex b) {
    const Block& k = cfg.blocks[b];
    std::vector<BlockIndex> s;
    if (k.merge != kNoBlock) s.push_back(k.merge);
    if (k.continue_target != kNoBlock) s.push_back(k.continue_target);
    for (auto it = k.targets.rbegin(); it != k.targets.rend(); ++it) s.push_back(*it);
    return s;
  };
  std::vector<Frame> stack;
  if (n > 0) {
    stack.push_back({0, successors(0)});
    state[0] = 1;
  }
  while (!stack.empty()) {
    Frame& f = stack.back();
    if (f.next < f.succ.size()) {
      const BlockIndex s = f.succ[f.next++];
      if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, successors(s)});
      }
      continue;
    }
    state[f.block] = 2;
    post.push_back(f.block);
    stack.pop_back();
  }
  cfg.layout.assign(post.rbegin(), post.rend());
  for (BlockIndex b = 0; b < n; ++b)
    if (state[b] == 0) cfg.layout.push_back(b);
}

std::string describe(const Cfg& cfg) {
  std::string out;
  for (BlockIndex b : cfg.layout) {
    const Block& k = cfg.blocks[b];
    out += fmt::format("%{}:", b + 1);
    if (k.merge_kind == MergeKind::Selection) out += fmt::format(" selection merge %{};", k.merge + 1);
    if (k.merge_kind == MergeKind::Loop)
      out += fmt::format(" loop merge %{} continue %{};", k.merge + 1, k.continue_target + 1);
    switch (k.terminator) {
      case Terminator::Branch: out += fmt::format(" br %{}", k.targets[0] + 1); break;
      case Terminator::Conditional: out += fmt::format(" br_cond %{} %{}", k.targets[0] + 1, k.targets[1] + 1); break;
      case Terminator::Switch:
        out += fmt::format(" switch default %{}", k.targets[0] + 1);
        // The selector value that takes the default, where it is not the
        // smallest value no case has (the one a reader would choose).
        if (std::uint32_t d = 0; true) {
          while (std::find(k.case_literals.begin(), k.case_literals.end(), d) != k.case_literals.end()) ++d;
          if (d != k.default_selector) out += fmt::format("={}", k.default_selector);
        }
        for (std::size_t i = 0; i < k.case_literals.size(); ++i)
          out += fmt::format(" {}:%{}", k.case_literals[i], k.targets[i + 1] + 1);
        break;
      case Terminator::Return: out += " return"; break;
      case Terminator::Unreachable: out += " unreachable"; break;
    }
    out += "\n";
  }
  return out;
}

}  // namespace sluice::flesh
