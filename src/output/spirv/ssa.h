// SSA construction for promoted variables over the CFG the emitter builds
// (Cytron, Ferrante, Rosen, Wegman, Zadeck, "Efficiently Computing Static
// Single Assignment Form and the Control Dependence Graph", TOPLAS 1991):
//
//  1. immediate dominators: the CFG's (dominators.cpp: Cooper, Harvey,
//     Kennedy, "A Simple, Fast Dominance Algorithm", 2001, Figure 3);
//  2. dominance frontiers: for each join block, walk up from each
//     predecessor to the join's immediate dominator (the same paper,
//     Figure 5);
//  3. phis at the iterated frontier of each variable's definition blocks,
//     pruned to blocks where the variable is live (pruned SSA: Choi, Cytron,
//     Ferrante, POPL 1991), found by walking back from the blocks that read
//     it before writing it;
//  4. lookup: a read sees the block's latest write, else the block's phi,
//     else the value at the end of the immediate dominator, walking up the
//     dominator tree (memoized, so each block is walked once per variable).
//
// Phi operands are looked up after the whole function is emitted, each from
// the end of its predecessor, so loop-carried values that swap come out
// right: all phis of a block read their inputs in parallel. Nothing here
// recurses; every walk keeps its stack on the heap.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "output/spirv/cfg.h"
#include "output/spirv/flat_map.h"

namespace sluice::spirv::detail {

class Ssa {
 public:
  // `variable_count` dense variable indices; the CFG must outlive this.
  Ssa(const Cfg& cfg, std::uint32_t variable_count);

  // --- Before emission: where each variable is written and read ---
  void add_def(std::uint32_t var, std::uint32_t node);
  void add_upward_use(std::uint32_t var, std::uint32_t node);  // read before any write in `node`
  // Dominators, frontiers and phis; `new_phi(node, var)` returns the phi's id.
  void place_phis(const std::function<std::uint32_t(std::uint32_t node, std::uint32_t var)>& new_phi);
  // (var, phi id) of the phis placed in `node`, by variable.
  std::span<const std::pair<std::uint32_t, std::uint32_t>> phis_at(std::uint32_t node) const {
    return {phis_.data() + phi_start_[node], phis_.data() + phi_start_[node + 1]};
  }

  // The value a variable has where no write reaches: a parameter's id, or 0
  // for "undefined" (the caller uses OpUndef).
  void set_initial(std::uint32_t var, std::uint32_t id) { initial_[var] = id; }

  // --- During emission, one node at a time in emission order ---
  void begin_node(std::uint32_t node) { current_ = node; }
  std::uint32_t read(std::uint32_t var);
  void write(std::uint32_t var, std::uint32_t id);
  void end_node();

  // --- After emission: a phi operand, the value at the end of `node` ---
  std::uint32_t value_at_end(std::uint32_t node, std::uint32_t var);

  bool reachable(std::uint32_t node) const { return cfg_.reachable(node); }

 private:
  void compute_frontiers();
  std::uint32_t value_at_entry(std::uint32_t node, std::uint32_t var);

  const Cfg& cfg_;
  std::uint32_t variable_count_;
  // (variable, node) of each write and upward-exposed read, a node once per
  // variable (events come node by node, so the last node recorded suffices);
  // grouped by variable into CSR form when the phis are placed. Flat lists,
  // not one vector per variable: a function may have 10^5 variables.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> def_events_, use_events_;
  std::vector<std::uint32_t> last_def_node_, last_use_node_;

  // Dominance frontiers and phis, each as one flat array indexed by node
  // (CSR): a node's entries are [start[n], start[n + 1]).
  std::vector<std::uint32_t> frontier_start_, frontier_;
  std::vector<std::uint32_t> phi_start_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> phis_;  // (var, id), by node then variable

  std::vector<std::uint32_t> initial_;
  std::uint32_t current_ = kNone;
  // Per variable: its value in the current node (read or written there),
  // and whether the current node wrote it.
  std::vector<std::uint32_t> current_value_, current_stamp_, written_stamp_;
  std::vector<std::uint32_t> written_here_;
  // The last write of each variable a node wrote: end_pairs_[end_start_[n],
  // end_start_[n] + end_count_[n]), appended as each node ends.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> end_pairs_;
  std::vector<std::uint32_t> end_start_, end_count_;
  FlatMap entry_values_;               // (node, var) -> value on entry, for long walks only
  std::vector<std::uint8_t> memoized_;  // per node: has entries in entry_values_
  std::vector<std::uint32_t> path_;
  const std::uint32_t* end_value(std::uint32_t node, std::uint32_t var) const;
  const std::uint32_t* phi(std::uint32_t node, std::uint32_t var) const;
};

}  // namespace sluice::spirv::detail
