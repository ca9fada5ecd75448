// Which blocks jump to which construct: for every If, Loop, DoLoop and
// Switch block, the blocks whose terminator leaves to its merge block
// (Merge for an If, Break for a loop or switch) and, for loops, the blocks
// ending in Continue or LoopIf. Passes that restructure control flow
// (simplify-control-flow, eliminate-unreachable-code, eliminate-dead-registers) and the SPIR-V
// output's CFG builder read this instead of
// searching sub-trees, which keeps them linear.
//
// Algorithm: compute_block_contexts() gives every block its targets; one
// pass over the reachable blocks files each terminator under the construct
// that owns its target.
#pragma once

#include <vector>

#include <boost/container/small_vector.hpp>

#include "ir/module.h"
#include "ir/structure.h"

namespace sluice::ir {

using BlockList = boost::container::small_vector<ir::BlockId, 1>;

struct ControlEdges {
  std::vector<BlockContext> context;  // by BlockId
  std::vector<ir::BlockId> owner;         // merge block -> the divergent block it belongs to
  std::vector<BlockList> exits;           // construct -> blocks ending in Merge/Break to its merge
  std::vector<BlockList> continues;       // loop -> blocks ending in Continue to it
  std::vector<BlockList> loop_ifs;        // loop -> blocks ending in LoopIf of it

  // The construct a Merge, Break, Continue or LoopIf at the end of `b` leaves; invalid if none.
  ir::BlockId target_construct(const ir::Function& f, ir::BlockId b) const;

  // When block `into` absorbs block `from` (NextBlock stitching), the jumps
  // filed under `from` now belong to `into`.
  void moved(ir::BlockId from, ir::BlockId into);
};

ControlEdges compute_control_edges(const ir::Function& f);

}  // namespace sluice::ir
