// See reduce.h.
#include "flesh/reduce.h"

#include <algorithm>

#include <fmt/format.h>

#include "flesh/check.h"

namespace sluice::flesh {

std::uint64_t reduction_size(const TestDescription& d) {
  std::uint64_t n = d.cfg.size() + d.options.walk_bound;
  for (const Block& b : d.cfg.blocks) n += b.targets.size() + (b.merge != kNoBlock) + (b.continue_target != kNoBlock);
  return n;
}

namespace {

void drop_merge(Block& b) {
  b.merge_kind = MergeKind::None;
  b.merge = kNoBlock;
  b.continue_target = kNoBlock;
}

void make_branch(Block& b, BlockIndex target) {
  b.terminator = Terminator::Branch;
  b.targets = {target};
  b.case_literals.clear();
  if (b.merge_kind == MergeKind::Selection) drop_merge(b);
}

// Removes `gone` blocks and those no branch, merge or continue edge
// reaches from the entry; renumbers the rest keeping their layout order.
// False when the mutation's block is removed.
bool compact(TestDescription& d, std::vector<bool> gone, BlockIndex entry = 0) {
  Cfg& cfg = d.cfg;
  const std::uint32_t n = cfg.size();
  std::vector<bool> seen(n, false);
  std::vector<BlockIndex> work{entry};
  seen[entry] = true;
  while (!work.empty()) {
    const Block& b = cfg.blocks[work.back()];
    work.pop_back();
    std::vector<BlockIndex> next = b.targets;
    if (b.merge != kNoBlock) next.push_back(b.merge);
    if (b.continue_target != kNoBlock) next.push_back(b.continue_target);
    for (BlockIndex t : next)
      if (!gone[t] && !seen[t]) {
        seen[t] = true;
        work.push_back(t);
      }
  }
  std::vector<BlockIndex> renumber(n, kNoBlock);
  std::vector<BlockIndex> order{entry};  // the entry is block 0
  for (BlockIndex b = 0; b < n; ++b)
    if (seen[b] && b != entry) order.push_back(b);
  for (BlockIndex i = 0; i < order.size(); ++i) renumber[order[i]] = i;
  if (d.mutation.kind != Mutation::Kind::None) {
    if (renumber[d.mutation.block] == kNoBlock) return false;
    d.mutation.block = renumber[d.mutation.block];
  }
  Cfg out;
  for (BlockIndex b : order) {
    Block k = cfg.blocks[b];
    for (BlockIndex& t : k.targets) t = renumber[t];
    if (k.merge != kNoBlock) k.merge = renumber[k.merge];
    if (k.continue_target != kNoBlock) k.continue_target = renumber[k.continue_target];
    out.blocks.push_back(std::move(k));
  }
  out.layout.push_back(0);
  for (BlockIndex b : cfg.layout)
    if (seen[b] && b != entry) out.layout.push_back(renumber[b]);
  cfg = std::move(out);
  return true;
}

}  // namespace

std::vector<ReductionStep> reduction_steps(const TestDescription& d) {
  std::vector<std::pair<TestDescription, std::string>> raw;
  const Cfg& cfg = d.cfg;
  const std::uint32_t n = cfg.size();
  std::vector<bool> structural(n, false);  // a merge block or continue target
  for (const Block& b : cfg.blocks) {
    if (b.merge != kNoBlock) structural[b.merge] = true;
    if (b.continue_target != kNoBlock) structural[b.continue_target] = true;
  }
  auto add = [&](TestDescription c, std::vector<bool> gone, std::string what) {
    if (compact(c, std::move(gone))) raw.emplace_back(std::move(c), std::move(what));
  };
  const std::vector<bool> none(n, false);
  // Bypass a block.
  for (BlockIndex b = 1; b < n; ++b) {
    const Block& k = cfg.blocks[b];
    if (k.terminator != Terminator::Branch || k.merge_kind != MergeKind::None || structural[b] || k.targets[0] == b) continue;
    if (d.mutation.kind != Mutation::Kind::None && d.mutation.block == b) continue;
    TestDescription c = d;
    for (Block& p : c.cfg.blocks)
      for (BlockIndex& t : p.targets)
        if (t == b) t = k.targets[0];
    std::vector<bool> gone = none;
    gone[b] = true;
    add(std::move(c), std::move(gone), fmt::format("bypass %{}", b + 1));
  }
  // The entry merges into the block it branches to, when nothing else
  // branches there (the entry may have no predecessor).
  if (const Block& e = cfg.blocks[0]; e.terminator == Terminator::Branch && e.merge_kind == MergeKind::None &&
                                      e.targets[0] != 0 && !structural[e.targets[0]] &&
                                      !(d.mutation.kind != Mutation::Kind::None && d.mutation.block == 0)) {
    std::uint32_t preds = 0;
    for (const Block& b : cfg.blocks)
      for (BlockIndex t : b.targets) preds += t == e.targets[0];
    if (preds == 1) {
      std::vector<bool> gone = none;
      gone[0] = true;
      TestDescription c = d;
      if (compact(c, std::move(gone), e.targets[0])) raw.emplace_back(std::move(c), "bypass %1");
    }
  }
  // A block becomes OpReturn.
  for (BlockIndex b = 0; b < n; ++b) {
    const Block& k = cfg.blocks[b];
    if (k.terminator == Terminator::Return || k.terminator == Terminator::Unreachable) continue;
    TestDescription c = d;
    Block& m = c.cfg.blocks[b];
    m.terminator = Terminator::Return;
    m.targets.clear();
    m.case_literals.clear();
    drop_merge(m);
    add(std::move(c), none, fmt::format("return at %{}", b + 1));
  }
  // Drop an edge.
  for (BlockIndex b = 0; b < n; ++b) {
    const Block& k = cfg.blocks[b];
    const bool swapped = d.mutation.kind == Mutation::Kind::SwapTargets && d.mutation.block == b;
    if (k.terminator == Terminator::Conditional && !swapped) {
      for (std::size_t i = 0; i < 2; ++i) {
        TestDescription c = d;
        make_branch(c.cfg.blocks[b], k.targets[i]);
        add(std::move(c), none, fmt::format("%{} branches to %{} only", b + 1, k.targets[i] + 1));
      }
    } else if (k.terminator == Terminator::Switch) {
      for (std::size_t i = 0; i < k.case_literals.size(); ++i) {
        TestDescription c = d;
        Block& m = c.cfg.blocks[b];
        m.targets.erase(m.targets.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        m.case_literals.erase(m.case_literals.begin() + static_cast<std::ptrdiff_t>(i));
        add(std::move(c), none, fmt::format("%{} loses case {}", b + 1, k.case_literals[i]));
      }
      for (std::size_t i = 0; i < k.targets.size(); ++i) {
        TestDescription c = d;
        make_branch(c.cfg.blocks[b], k.targets[i]);
        add(std::move(c), none, fmt::format("%{} branches to %{} only", b + 1, k.targets[i] + 1));
      }
    }
    if (k.merge_kind == MergeKind::Loop) {
      // No loop: the OpLoopMerge goes, and the back edges with it (the
      // blocks in the loop that branch to the header return instead).
      std::vector<bool> in_loop(n, false);
      std::vector<BlockIndex> work{b};
      while (!work.empty()) {
        const BlockIndex x = work.back();
        work.pop_back();
        for (BlockIndex t : cfg.blocks[x].targets)
          if (!in_loop[t] && t != b) {
            in_loop[t] = true;
            work.push_back(t);
          }
      }
      TestDescription c = d;
      drop_merge(c.cfg.blocks[b]);
      for (BlockIndex x = 0; x < n; ++x) {
        Block& p = c.cfg.blocks[x];
        if (!in_loop[x] && x != b) continue;
        if (std::find(p.targets.begin(), p.targets.end(), b) == p.targets.end()) continue;
        p.terminator = Terminator::Return;
        p.targets.clear();
        p.case_literals.clear();
        drop_merge(p);
      }
      add(std::move(c), none, fmt::format("%{} is no loop header", b + 1));
    }
  }
  // Shorten the path.
  std::vector<std::uint32_t> walks;
  if (d.options.walk_bound >= 4) walks.push_back(d.options.walk_bound / 2);
  if (d.options.walk_bound >= 1) walks.push_back(d.options.walk_bound - 1);
  for (std::uint32_t w : walks) {
    TestDescription c = d;
    c.options.walk_bound = w;
    raw.emplace_back(std::move(c), fmt::format("walk {}", w));
  }
  std::vector<ReductionStep> steps;
  const std::uint64_t size = reduction_size(d);
  for (auto& [c, what] : raw) {
    if (reduction_size(c) >= size || exit_distances(c.cfg)[0] == kUnreachableDistance) continue;
    auto t = flesh(c.cfg, c.seed, c.options);
    if (!t) continue;
    if (c.mutation.kind == Mutation::Kind::SwapTargets && c.cfg.blocks[c.mutation.block].terminator != Terminator::Conditional)
      continue;
    if (!structure_problem(*t).empty()) continue;
    steps.push_back({std::move(c), std::move(*t), std::move(what)});
  }
  return steps;
}

}  // namespace sluice::flesh
