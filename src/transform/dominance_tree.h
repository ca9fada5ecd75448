// The IR's dominance tree (docs/ir.md): a block dominates the later blocks
// of its chain and everything below it; sibling sub-blocks (If true/false,
// loop condition / body / continue, switch cases) never dominate each
// other. So a block's parent is the divergent block that owns its chain,
// or for a merge block the divergent block whose merge it is. Children are
// listed in the walk's pre-order: a construct's sub-blocks (in slot order)
// before its merge block. eliminate-common-subexpressions and forward-stores walk it.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace sluice::transform {

// Children of each block in the dominance tree, as ranges of one array.
struct DominanceTree {
  std::vector<std::uint32_t> first;  // by block: start of its children in `children`
  std::vector<ir::BlockId> children;
};

// One walk of the block tree, then a counting sort by parent. Linear.
DominanceTree dominance_tree(const ir::Function& f);

}  // namespace sluice::transform
