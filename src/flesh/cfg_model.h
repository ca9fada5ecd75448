// The fleshing fuzzer's CFG: a structured SPIR-V control-flow graph as plain
// values, before any instruction is added. Each block has a terminator
// (OpBranch, OpBranchConditional, OpSwitch, OpReturn, OpUnreachable), its
// targets, and the merge instruction of a header (OpSelectionMerge or
// OpLoopMerge). A block's number (its index + 1) is what the fleshed
// program records when the block runs (Klimis et al., POPL 2023, §6.1).
//
// Directions: a conditional block consumes one direction word per visit,
// 1 for the true target and 0 for the false one; a switch block consumes
// its selector value (one of its case literals, or default_selector).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sluice::flesh {

using BlockIndex = std::uint32_t;
inline constexpr BlockIndex kNoBlock = std::numeric_limits<BlockIndex>::max();
inline constexpr std::uint32_t kUnreachableDistance = std::numeric_limits<std::uint32_t>::max();

enum class Terminator : std::uint8_t { Branch, Conditional, Switch, Return, Unreachable };
enum class MergeKind : std::uint8_t { None, Selection, Loop };

struct Block {
  Terminator terminator = Terminator::Unreachable;
  // Branch: the target; Conditional: true target, false target; Switch:
  // the default target, then one target per entry of case_literals.
  std::vector<BlockIndex> targets;
  std::vector<std::uint32_t> case_literals;
  std::uint32_t default_selector = 0;  // Switch: a value no case literal has
  MergeKind merge_kind = MergeKind::None;
  BlockIndex merge = kNoBlock;
  BlockIndex continue_target = kNoBlock;  // MergeKind::Loop
};

struct Cfg {
  std::vector<Block> blocks;  // blocks[0] is the function's entry block
  // The order the blocks are emitted in (a reverse post-order over branch,
  // merge and continue edges, so that dominators come first).
  std::vector<BlockIndex> layout;

  std::uint32_t size() const { return static_cast<std::uint32_t>(blocks.size()); }
};

// Blocks reachable from the entry over branch edges (the ones that can run).
std::vector<bool> reachable_blocks(const Cfg& cfg);
// For each block the fewest branch edges to an OpReturn block, or
// kUnreachableDistance when none can be reached.
std::vector<std::uint32_t> exit_distances(const Cfg& cfg);

// The direction word that sends a conditional or switch block to `target`
// (its index in Block::targets).
std::uint32_t direction_for(const Block& b, std::size_t target_index);
// The target a direction word selects (switch values that no case has go
// to the default, as OpSwitch does).
BlockIndex target_for(const Block& b, std::uint32_t direction);
// The direction towards an exit: the target with the smallest exit
// distance (the first such). Following it from any block that can reach
// an exit strictly decreases the distance, so a walk that has run out of
// directions always terminates.
std::uint32_t exitward_direction(const Block& b, const std::vector<std::uint32_t>& distances);

// Computes Cfg::layout: reverse post-order of a depth-first search from the
// entry over branch, continue and merge edges (iterative); blocks the
// search does not reach follow in index order.
void compute_layout(Cfg& cfg);

// SPIR-V-like text of the graph, one block a line ("%3: loop merge %7
// continue %5; br_cond %4 %7"; a switch "switch default %4 1:%5 2:%6", with
// "default %4=9" when the default's selector is not the smallest value no
// case has), for messages, --reduce and NAME.cfg files (test_file.h).
std::string describe(const Cfg& cfg);

}  // namespace sluice::flesh
