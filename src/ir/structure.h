// The scope model: where each block sits in its function's tree, where the
// jump at its end goes and which jumps are legal there. The dump, the
// validator, the outputs and the passes all read it; the rules are written
// once, in docs/ir.md ("Scopes").
//
// Algorithm: one pre-order walk with a heap stack; each stack entry carries
// the context its block gets. A construct's sub-blocks get the construct's
// context narrowed by its rule (an If sets the Merge target, a loop the
// Break target and the loop, a Switch the Break target); its merge block
// gets the construct's own context. A block is given the context of its
// first arrival, so malformed trees (a block reached twice) still get one
// context per block, in the order the validator reports them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/module.h"

namespace sluice::ir {

struct BlockContext {
  bool reachable = false;   // reached from the entry block
  BlockKind kind = BlockKind::FunctionEntry;  // the block's own kind (Merge for a merge block)
  std::uint32_t depth = 0;
  BlockId construct;        // the divergent block whose sub-block chain holds this block
  BlockId chain_head;       // the first block of this block's chain (a sub-block or the entry)
  BlockKind chain_kind = BlockKind::FunctionEntry;  // the kind of chain_head
  std::uint32_t case_index = 0;  // SwitchCase chains: the case's position among the Switch's cases

  // Merge: the merge block of `construct` when it is an If; invalid
  // anywhere else (an If's merge block is not visible inside a nested loop
  // or switch: see docs/ir.md).
  BlockId merge_target;
  BlockId break_target;     // Break: the merge block of the innermost loop or switch
  bool breaks_from_switch = false;  // break_target belongs to a Switch, not a loop
  BlockId loop;             // the innermost enclosing Loop/DoLoop block (Continue, LoopIf)
  BlockKind loop_part = BlockKind::FunctionEntry;  // the chain of `loop` holding the block: LoopCondition,
                                                   // LoopBody or LoopContinue (FunctionEntry outside loops)
  bool in_continue = false;      // in the continue chain of `loop` (no Break out of `loop` there)
  bool in_any_continue = false;  // in the continue chain of `loop` or of an enclosing loop (no Return there)
  // SPIR-V's continue construct (§2.11): the continue chain and, for a
  // DoLoop, its condition chain, which runs on the way back to the body.
  bool in_continue_construct = false;      // of `loop`
  bool in_any_continue_construct = false;  // of `loop` or an enclosing loop

  // Merge is legal here: the block's chain is directly an If's true or false chain.
  bool in_if_chain() const { return chain_kind == BlockKind::IfTrue || chain_kind == BlockKind::IfFalse; }
  // A Break here leaves a loop from its continue chain (invalid IR).
  bool break_forbidden() const { return in_continue && !breaks_from_switch; }
};

// Indexed by BlockId.
std::vector<BlockContext> compute_block_contexts(const Function& f);

// The last block of the merge chain that starts at `head`: follows each
// divergent block's merge block until a block has none (valid IR: a chain
// is finite, and only divergent terminators name a merge block).
BlockId chain_end(const Function& f, BlockId head);

// The block is `Merge [v]` and nothing else (no declarations, no merge
// input): an If branch that only hands a value, or nothing, to the merge.
// False for an invalid id.
bool only_merges(const Function& f, BlockId b);

// The title the dump gives a block of this kind ("Loop Body:", "Case 3:", ...).
const char* block_title(BlockKind kind);

// The value of `op` when it is the constant `true` or `false` (never a
// specialization constant): If and LoopIf conditions known at compile time.
std::optional<bool> constant_bool(const Module& m, Operand op);

}  // namespace sluice::ir
