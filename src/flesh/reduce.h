// Reduction steps for `sluice flesh --reduce` (issue 14): from a failing
// test's description (test_file.h), the smaller tests one step away. The
// caller keeps the first that still fails the same way and asks again
// (greedy one-step reduction, as C-Reduce and spirv-reduce do: Regehr et
// al., "Test-Case Reduction for C Compiler Bugs", PLDI 2012; Donaldson et
// al., "Test-Case Reduction and Deduplication Almost for Free with
// Transformation-Based Compiler Testing", PLDI 2021).
//
// Steps, biggest first:
//   - bypass a block: a block that only branches on (no header, no merge
//     or continue target, not the entry) is removed and its predecessors
//     branch to its target;
//   - turn a block into OpReturn (its outgoing edges and merge dropped);
//   - drop an edge: a conditional becomes a branch to one of its targets, a
//     switch loses a case or becomes a branch (a selection header then
//     loses its OpSelectionMerge; a loop header keeps its OpLoopMerge);
//   - drop a loop: its OpLoopMerge goes, and the blocks in it that branch
//     back to the header return instead;
//   - merge the entry into its only successor;
//   - shorten the path: halve the walk bound, or lower it by one.
// After a step, blocks no branch, merge or continue edge reaches from the
// entry are removed and the rest renumbered (layout order kept). A step is
// offered only when the result is a valid structured module (check.h) and
// a mutation's block survives it. Each step lowers blocks + edges + walk
// bound, so a reduction ends.
#pragma once

#include <vector>

#include "flesh/test_file.h"

namespace sluice::flesh {

struct ReductionStep {
  TestDescription description;
  Test test;          // fleshed from description
  std::string what;   // "bypass %4", "return at %3", "walk 12"
};

std::vector<ReductionStep> reduction_steps(const TestDescription& d);

// blocks + branch edges + merge and continue edges + walk bound.
std::uint64_t reduction_size(const TestDescription& d);

}  // namespace sluice::flesh
