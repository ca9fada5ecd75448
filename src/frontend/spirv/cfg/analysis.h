// Structured control flow of one SPIR-V function, as SPIR-V 1.6 rev 2
// defines it (Klimis et al., "Taking Back Control in an Intermediate
// Representation for GPU Computing", POPL 2023, §4; SPIR-V spec §2.2.5 and
// §2.11):
//
//   FunctionCfg cfg = analyze(module, module.functions[0]);
//   cfg.edges()                        branch, merge and continue edges; back edges marked
//   cfg.structurally_dominates(a, b)   over all three edge kinds
//   cfg.structurally_post_dominates(b, a)   towards the function-termination blocks
//   cfg.constructs()                   selection, switch, case, loop, continue constructs
//   cfg.contains(c, block), cfg.blocks(c), cfg.innermost(block), cfg.parent(c)
//   cfg.violations()                   the rules of docs/spirv-cfg.md that fail
//
// Constructs (§2.11.2 of the specification, the paper's §4.2):
//   selection(h) = SD(h) − SD(merge)            (header ends in OpBranchConditional)
//   switch(h)    = SD(h) − SD(merge)            (header ends in OpSwitch)
//   case(t)      = SD(t) − SD(merge of the switch), for each target t ≠ merge
//   continue(ct) = SD(ct) ∩ SPD(back-edge block)
//   loop(h)      = SD(h) − continue(ct) − SD(merge)
// with SD/SPD (structural (post-)dominance) replaced by ordinary
// (post-)dominance over branch edges in Mode::Legacy (the SPIR-V 1.0–1.6r1
// definitions without their caveats, the paper's §2.2). Membership is an
// O(1) query on the dominator trees, so nothing quadratic is materialised;
// blocks(c) lists a construct by walking the dominator subtree of its entry.
//
// Only structurally reachable headers get constructs and are checked
// (§4.5 of the paper). Legacy mode computes constructs for every header,
// reachable or not, and checks no rules.
#pragma once

#include <string>
#include <vector>

#include "frontend/spirv/cfg/dominance.h"
#include "frontend/spirv/module.h"

namespace sluice::spirv_in::cfg {

enum class Mode : std::uint8_t { Structural, Legacy };
enum class EdgeKind : std::uint8_t { Branch, Merge, Continue };
enum class ConstructKind : std::uint8_t { Selection, Switch, Case, Loop, Continue };
const char* to_string(ConstructKind k);
const char* to_string(EdgeKind k);

using ConstructIndex = std::uint32_t;

struct Edge {
  BlockIndex from, to;
  EdgeKind kind;
  bool back = false;  // a back edge: a branch edge retreating in the DFS over all three kinds
};

struct Construct {
  ConstructKind kind;
  BlockIndex entry;           // header (selection/switch/loop), continue target, case target
  BlockIndex header;          // the block with the merge instruction (the switch header for a case,
                              // the loop header for a continue construct)
  BlockIndex merge;           // that header's merge block
  BlockIndex continue_target = kNone;   // loops and continue constructs
  BlockIndex back_edge_block = kNone;   // loops and continue constructs, when there is one
  ConstructIndex parent = kNone;        // innermost construct containing this one
};

struct Violation {
  std::string rule;      // stable id, see rules.h and docs/spirv-cfg.md
  std::string message;   // names the blocks by %id (and OpName)
  BlockIndex block;      // where it is reported
};

class FunctionCfg {
 public:
  const Module& module() const { return *module_; }
  const Function& function() const { return *function_; }
  Mode mode() const { return mode_; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(function_->blocks.size()); }

  const std::vector<Edge>& edges() const { return edges_; }
  // Edge indices leaving / entering a block (edges() is grouped by source,
  // so a block's out-edges are a contiguous index range).
  Graph::Range out_edges(BlockIndex b) const { return {edge_ids_.data() + out_begin_[b], edge_ids_.data() + out_begin_[b + 1]}; }
  Graph::Range in_edges(BlockIndex b) const { return {in_.data() + in_begin_[b], in_.data() + in_begin_[b + 1]}; }

  bool reachable(BlockIndex b) const { return dom_.reachable(b); }  // structurally, in Structural mode
  bool structurally_dominates(BlockIndex a, BlockIndex b) const { return dom_.dominates(a, b); }
  bool structurally_post_dominates(BlockIndex b, BlockIndex a) const;
  const DominatorTree& dominator_tree() const { return dom_; }
  const DominatorTree& post_dominator_tree() const { return post_dom_; }  // root: virtual exit = size()

  const std::vector<Construct>& constructs() const { return constructs_; }
  bool contains(ConstructIndex c, BlockIndex b) const;
  std::vector<BlockIndex> blocks(ConstructIndex c) const;  // in dominator-tree pre-order
  // Innermost construct containing the block, kNone at function level (or unreachable).
  ConstructIndex innermost(BlockIndex b) const { return innermost_.empty() ? kNone : innermost_[b]; }
  // Constructs whose entry is the block, outermost first.
  std::vector<ConstructIndex> constructs_at(BlockIndex b) const;
  // The loop construct of a loop header, the switch construct of a switch header.
  ConstructIndex construct_of_header(BlockIndex header) const { return header_construct_[header]; }
  ConstructIndex case_construct(BlockIndex target) const { return case_construct_[target]; }
  // The back-edge blocks of a loop header (normally one).
  const std::vector<BlockIndex>& back_edge_blocks(BlockIndex header) const { return back_edge_blocks_[header]; }

  const std::vector<Violation>& violations() const { return violations_; }
  // False for Kernel modules without the Shader capability: SPIR-V requires
  // structured control flow only of shaders (spec §2.11; spirv-val checks
  // it under the Shader capability), so no rule is checked.
  bool rules_apply() const { return rules_apply_; }
  bool valid() const { return violations_.empty(); }

  // "%12" or "%12 (name)".
  std::string describe(BlockIndex b) const { return module_->describe(function_->blocks[b].label); }

 private:
  friend FunctionCfg analyze(const Module&, const Function&, Mode);
  const Module* module_ = nullptr;
  const Function* function_ = nullptr;
  Mode mode_ = Mode::Structural;
  bool rules_apply_ = true;
  std::vector<Edge> edges_;
  std::vector<std::uint32_t> edge_ids_;               // 0, 1, 2, ...: edge_ids_[k] == k
  std::vector<std::uint32_t> out_begin_, in_begin_, in_;  // CSR
  DominatorTree dom_, post_dom_;
  std::vector<Construct> constructs_;
  std::vector<ConstructIndex> innermost_, header_construct_, case_construct_, continue_construct_;
  std::vector<std::uint32_t> order_;  // reverse post-order of the (structural) DFS
  std::vector<std::vector<BlockIndex>> back_edge_blocks_;
  std::vector<Violation> violations_;
};

// The module must outlive the result (it keeps a pointer to it).
FunctionCfg analyze(const Module& module, const Function& function, Mode mode = Mode::Structural);
// Whether the module must use structured control flow: it declares the
// Shader capability, or at least not the Kernel one.
bool requires_structured_control_flow(const Module& module);
std::vector<FunctionCfg> analyze(const Module& module, Mode mode = Mode::Structural);

}  // namespace sluice::spirv_in::cfg
