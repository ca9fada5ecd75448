// A direct random generator of structured SPIR-V CFGs for the fleshing
// fuzzer (issue 14). The POPL 2023 paper (Klimis et al., §6) took its
// skeletons from a bounded Alloy search, which stalls at 12–14 blocks; this
// generator builds graphs of any size by construction, deterministic from a
// seed, and reaches shapes Sluice's own block tree never produces (loop
// headers that are their own continue target, switch fall-through into a
// default placed between cases, selections whose merge is unreachable).
//
// Algorithm: a work list of regions (entry block, exit block, enclosing
// loop/switch, block budget). Each region becomes a leaf (entry branches to
// exit), a sequence of two regions, a selection, a loop of one of five
// kinds or a switch; the parts get fresh blocks and pieces of the budget
// and go back on the work list, so nesting depth costs no native
// recursion. Arms may leave early (return, break, continue). Blocks no
// edge of any kind reaches (the exit of a region whose every path left
// early) are dropped, then a deliberately structurally unreachable chain
// may be appended.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "flesh/cfg_model.h"

namespace sluice::flesh {

enum class Shape : std::uint8_t {
  Selection,
  SelectionWithoutElse,
  UnreachableMerge,        // both arms (every case) leave early: the merge is OpUnreachable
  WhileLoop,
  DoWhileLoop,
  InfiniteLoop,            // unconditional back edge, left only by a break
  SelfContinueLoop,        // a header that is its own continue target
  DoWhileFalse,            // the continue target is unreachable
  MultiBlockContinue,      // a continue construct of several blocks (with selections)
  SelectionInContinue,
  NestedLoop,
  Switch,
  SwitchFallThrough,
  SwitchDefaultMiddle,     // the default's own block between cases
  SwitchDefaultShared,     // the default target is also a case's
  SwitchWithoutDefault,    // the default is the merge
  Break,                   // a branch to the innermost loop's merge from a nested selection
  SwitchBreak,
  Continue,                // a branch to the continue target from a nested selection or switch
  EarlyReturn,
  StructurallyUnreachable, // blocks no edge of any kind reaches
  // Only the block-tree source (tree_source.h) makes these two.
  Discard,                 // OpKill (fleshed as OpReturn: compute shaders cannot kill)
  NextBlock,               // the IR's NextBlock: a branch to its merge block
  Count
};
inline constexpr std::size_t kShapeCount = static_cast<std::size_t>(Shape::Count);
// The shapes the direct generator makes: those before Discard.
inline constexpr std::size_t kDirectShapeCount = static_cast<std::size_t>(Shape::Discard);
const char* to_string(Shape s);

struct Coverage {
  std::array<std::uint64_t, kShapeCount> counts{};
  void add(Shape s) { ++counts[static_cast<std::size_t>(s)]; }
  void add(const Coverage& other);
  // "selection 12, while-loop 3, ..." (every shape, zeros included).
  std::string line() const;
};

struct GenerateOptions {
  std::uint32_t blocks = 24;  // the block budget (the result has about this many)
};

// The CFG for `seed`; `coverage` receives the shapes it contains.
Cfg generate_cfg(std::uint64_t seed, const GenerateOptions& options, Coverage& coverage);

}  // namespace sluice::flesh
