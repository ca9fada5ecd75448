// Where each block sits in its function's tree: the construct it belongs to
// and the targets its terminator would jump to. The dump, the validator and
// the outputs all need this, so it is computed in one place.
//
// Algorithm: one pre-order visit(). A block's context is set before it is
// visited (by its parent construct, or by the block whose merge block it
// is); visiting it sets the contexts of its sub-blocks and its merge block.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace sluice::ir {

struct BlockContext {
  bool reachable = false;   // reached from the entry block
  BlockKind kind = BlockKind::FunctionEntry;
  std::uint32_t depth = 0;
  BlockId construct;        // the divergent block whose sub-block chain holds this block
  BlockId chain_head;       // the first block of this block's chain (a sub-block or the entry)
  BlockId merge_target;     // where Merge goes: the merge block of the nearest enclosing If
  BlockId break_target;     // where Break goes: merge block of the nearest enclosing loop or switch
  BlockId loop;             // the nearest enclosing Loop/DoLoop block (for Continue)
  bool in_loop_continue = false;  // inside a loop's continue chain (no Break/Return there)
  bool breaks_from_switch = false;  // break_target belongs to a Switch, not a loop
};

// Indexed by BlockId.
std::vector<BlockContext> compute_block_contexts(const Function& f);

// The title the dump gives a block of this kind ("Loop Body:", "Case 3:", ...).
const char* block_title(BlockKind kind);

}  // namespace sluice::ir
