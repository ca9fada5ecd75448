// Read-only traversal of the block tree (ANGLE's traverser::visitor).
//
// visit(): pre-order walk. A block is reported before its sub-blocks; each
// sub-block is followed by its whole merge chain; after all sub-blocks comes
// the block's own merge block. The callback decides what happens next.
//
// The walk keeps its own stack on the heap: nesting depth costs memory,
// never native stack.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "ir/module.h"

namespace sluice::ir {

enum class VisitAction { VisitSubBlocks, SkipToMergeBlock, Stop };

struct BlockVisit {
  BlockId id;
  BlockKind kind;
  std::uint32_t depth;  // 0 for the function's top-level chain, +1 per sub-block level
};

// on_block(const BlockVisit&, const Block&) -> VisitAction. Returns false if
// the walk was stopped.
template <class OnBlock>
bool visit(const Function& f, BlockId start, BlockKind start_kind, OnBlock&& on_block) {
  // Each block is reported once even if malformed IR refers to it twice.
  std::vector<bool> seen(f.blocks.size());
  std::vector<BlockVisit> stack;
  stack.push_back({start, start_kind, 0});
  while (!stack.empty()) {
    const BlockVisit v = stack.back();
    stack.pop_back();
    if (!v.id.valid() || v.id.index() >= f.blocks.size() || seen[v.id.index()]) continue;
    seen[v.id.index()] = true;
    const Block& b = f.block(v.id);
    const VisitAction action = on_block(v, b);
    if (action == VisitAction::Stop) return false;
    const auto op = b.terminator_opcode();
    if (!op || !is_divergent(*op)) continue;
    // Pushed in reverse: the merge block is taken last.
    stack.push_back({b.merge, BlockKind::Merge, v.depth});
    if (action == VisitAction::VisitSubBlocks) {
      auto subs = b.sub_blocks_with_kind();
      for (auto it = subs.rbegin(); it != subs.rend(); ++it) stack.push_back({it->first, it->second, v.depth + 1});
    }
  }
  return true;
}

template <class OnBlock>
bool visit(const Function& f, OnBlock&& on_block) {
  return visit(f, f.entry, BlockKind::FunctionEntry, std::forward<OnBlock>(on_block));
}

// on_function(FunctionId, const Function&) -> bool (false skips its blocks);
// on_block as for visit().
template <class OnFunction, class OnBlock>
void for_each_function(const Module& m, OnFunction&& on_function, OnBlock&& on_block) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    if (on_function(FunctionId(i), f) && !visit(f, on_block)) return;
  }
}

}  // namespace sluice::ir
