// Building a FunctionCfg: edges, the DFS that finds back edges, the two
// dominator trees, the constructs and the innermost construct of each
// block; then the rules (rules.cpp).
//
// Innermost constructs in linear time: blocks are visited in reverse
// post-order, so a block's immediate dominator comes first. A block starts
// from the innermost construct of its immediate dominator and leaves
// (pops) constructs that do not contain it; then it enters the constructs
// whose entry it is. Every construct is entered once and each pop follows
// an entry on the same dominator-tree path, so the total work is linear in
// the number of blocks (for properly nested constructs; in an invalid CFG
// the result is still well defined, and the rules report why).
#include "frontend/spirv/cfg/analysis.h"

#include <algorithm>

#include "frontend/spirv/cfg/rules.h"

namespace sluice::spirv_in::cfg {

const char* to_string(ConstructKind k) {
  switch (k) {
    case ConstructKind::Selection: return "selection";
    case ConstructKind::Switch: return "switch";
    case ConstructKind::Case: return "case";
    case ConstructKind::Loop: return "loop";
    case ConstructKind::Continue: return "continue";
  }
  return "?";
}

const char* to_string(EdgeKind k) {
  switch (k) {
    case EdgeKind::Branch: return "branch";
    case EdgeKind::Merge: return "merge";
    case EdgeKind::Continue: return "continue";
  }
  return "?";
}

bool FunctionCfg::structurally_post_dominates(BlockIndex b, BlockIndex a) const {
  return post_dom_.dominates(b, a);
}

bool FunctionCfg::contains(ConstructIndex c, BlockIndex b) const {
  const Construct& k = constructs_[c];
  if (mode_ == Mode::Structural && !dom_.reachable(b)) return false;
  if (!dom_.dominates(k.entry, b)) return false;
  switch (k.kind) {
    case ConstructKind::Selection:
    case ConstructKind::Switch:
    case ConstructKind::Case: return !dom_.dominates(k.merge, b);
    case ConstructKind::Continue: return k.back_edge_block != kNone && post_dom_.dominates(k.back_edge_block, b);
    case ConstructKind::Loop: {
      if (dom_.dominates(k.merge, b)) return false;
      const ConstructIndex cont = continue_construct_[k.continue_target];
      return cont == kNone || !contains(cont, b);
    }
  }
  return false;
}

std::vector<BlockIndex> FunctionCfg::blocks(ConstructIndex c) const {
  std::vector<BlockIndex> out;
  const Construct& k = constructs_[c];
  if (dom_.reachable(k.entry)) {
    // Blocks a construct can hold are dominated by its entry: walk that
    // subtree, not entering the subtree of the merge block.
    std::vector<BlockIndex> stack{k.entry};
    while (!stack.empty()) {
      const BlockIndex b = stack.back();
      stack.pop_back();
      if (b >= size()) continue;
      if (contains(c, b)) out.push_back(b);
      if (b == k.merge && k.kind != ConstructKind::Continue) continue;
      const auto kids = dom_.children(b);
      for (auto it = kids.end(); it != kids.begin();) stack.push_back(*--it);
    }
  }
  if (mode_ == Mode::Legacy)  // vacuous dominance: unreachable blocks may belong too
    for (BlockIndex b = 0; b < size(); ++b)
      if (!dom_.reachable(b) && contains(c, b)) out.push_back(b);
  return out;
}

std::vector<ConstructIndex> FunctionCfg::constructs_at(BlockIndex b) const {
  std::vector<ConstructIndex> out;
  // Outermost first: a case contains the construct its target heads; a
  // continue target's construct contains a selection headed there; a loop
  // header that is its own continue target comes before its continue construct.
  const ConstructIndex cont = continue_construct_[b];
  const bool own_continue = cont != kNone && constructs_[cont].header == b;
  for (ConstructIndex c : {case_construct_[b], own_continue ? kNone : cont, header_construct_[b],
                           own_continue ? cont : kNone})
    if (c != kNone && constructs_[c].entry == b) out.push_back(c);
  return out;
}

FunctionCfg analyze(const Module& module, const Function& function, Mode mode) {
  FunctionCfg cfg;
  cfg.module_ = &module;
  cfg.function_ = &function;
  cfg.mode_ = mode;
  const auto n = static_cast<std::uint32_t>(function.blocks.size());
  cfg.out_begin_.assign(n + 1, 0);
  cfg.edges_.reserve(2 * static_cast<std::size_t>(n));
  std::vector<BlockIndex> last_source(n, kNone);
  // Edges grouped by source block: branch edges (targets deduplicated, in
  // operand order), then the merge edge, then the continue edge.
  for (BlockIndex b = 0; b < n; ++b) {
    const Block& block = function.blocks[b];
    const auto add = [&](BlockIndex to, EdgeKind kind) { cfg.edges_.push_back(Edge{b, to, kind}); };
    for (BlockIndex s : block.successors)
      if (last_source[s] != b) {  // one edge per distinct target, in linear time for any OpSwitch
        last_source[s] = b;
        add(s, EdgeKind::Branch);
      }
    if (block.merge_block != kNone) add(block.merge_block, EdgeKind::Merge);
    if (block.continue_target != kNone) add(block.continue_target, EdgeKind::Continue);
    cfg.out_begin_[b + 1] = static_cast<std::uint32_t>(cfg.edges_.size());
  }
  const auto num_edges = static_cast<std::uint32_t>(cfg.edges_.size());
  cfg.edge_ids_.resize(num_edges);
  for (std::uint32_t e = 0; e < num_edges; ++e) cfg.edge_ids_[e] = e;
  cfg.in_begin_.assign(n + 1, 0);
  for (const Edge& e : cfg.edges_) ++cfg.in_begin_[e.to + 1];
  for (BlockIndex b = 0; b < n; ++b) cfg.in_begin_[b + 1] += cfg.in_begin_[b];
  cfg.in_.resize(num_edges);
  {
    std::vector<std::uint32_t> fill(cfg.in_begin_.begin(), cfg.in_begin_.end() - 1);
    for (std::uint32_t e = 0; e < num_edges; ++e) cfg.in_[fill[cfg.edges_[e].to]++] = e;
  }
  // The graph the dominance relations use: all three kinds (SPIR-V 1.6r2),
  // or branch edges only (legacy). graph_edge[k] = index in edges_.
  std::vector<std::pair<Node, Node>> pairs;
  std::vector<std::uint32_t> graph_edge;
  pairs.reserve(num_edges);
  graph_edge.reserve(num_edges);
  for (std::uint32_t e = 0; e < cfg.edges_.size(); ++e) {
    if (mode == Mode::Legacy && cfg.edges_[e].kind != EdgeKind::Branch) continue;
    pairs.emplace_back(cfg.edges_[e].from, cfg.edges_[e].to);
    graph_edge.push_back(e);
  }
  const Graph graph = Graph::from_edges(n, pairs);
  const DepthFirst dfs = depth_first(graph, 0);
  for (std::uint32_t k = 0; k < graph.succ.size(); ++k) {
    // CSR keeps the insertion order, and edges are grouped by source, so
    // CSR position k is pairs[k].
    Edge& e = cfg.edges_[graph_edge[k]];
    if (dfs.retreating[k] && e.kind == EdgeKind::Branch) e.back = true;
  }
  cfg.order_ = dfs.reverse_post_order;
  cfg.dom_ = DominatorTree(graph, 0);
  // Post-dominance: reversed graph plus a virtual exit (node n) with an
  // edge to every block that has no branch successor, i.e. ends in a
  // function-termination instruction.
  std::vector<std::pair<Node, Node>> reverse_pairs;
  reverse_pairs.reserve(pairs.size() + n);
  for (const auto& [from, to] : pairs) reverse_pairs.emplace_back(to, from);
  for (BlockIndex b = 0; b < n; ++b)
    if (function.blocks[b].successors.empty()) reverse_pairs.emplace_back(n, b);
  cfg.post_dom_ = DominatorTree(Graph::from_edges(n + 1, reverse_pairs), n);

  cfg.back_edge_blocks_.resize(n);
  for (const Edge& e : cfg.edges_)
    if (e.back) {
      auto& list = cfg.back_edge_blocks_[e.to];
      if (list.empty() || list.back() != e.from) list.push_back(e.from);  // edges come grouped by source
    }

  // Constructs of the (structurally reachable) headers.
  cfg.header_construct_.assign(n, kNone);
  cfg.case_construct_.assign(n, kNone);
  cfg.continue_construct_.assign(n, kNone);
  for (BlockIndex h = 0; h < n; ++h) {
    const Block& block = function.blocks[h];
    if (block.merge == kNone) continue;
    if (mode == Mode::Structural && !cfg.dom_.reachable(h)) continue;
    const auto make = [&](ConstructKind kind, BlockIndex entry) {
      Construct c{kind, entry, h, block.merge_block};
      if (block.merge_kind == MergeKind::Loop) {
        c.continue_target = block.continue_target;
        if (!cfg.back_edge_blocks_[h].empty()) c.back_edge_block = cfg.back_edge_blocks_[h].front();
      }
      cfg.constructs_.push_back(c);
      return static_cast<ConstructIndex>(cfg.constructs_.size() - 1);
    };
    if (block.merge_kind == MergeKind::Loop) {
      cfg.header_construct_[h] = make(ConstructKind::Loop, h);
      if (cfg.continue_construct_[block.continue_target] == kNone)
        cfg.continue_construct_[block.continue_target] = make(ConstructKind::Continue, block.continue_target);
      continue;
    }
    const bool is_switch = module.instructions[block.terminator].opcode == spv::Op::OpSwitch;
    cfg.header_construct_[h] = make(is_switch ? ConstructKind::Switch : ConstructKind::Selection, h);
    if (!is_switch) continue;
    for (BlockIndex t : block.successors)
      if (t != block.merge_block && cfg.case_construct_[t] == kNone)
        cfg.case_construct_[t] = make(ConstructKind::Case, t);
  }

  // Innermost constructs and the construct tree (see the file comment).
  cfg.innermost_.assign(n, kNone);
  for (BlockIndex x : cfg.order_) {
    ConstructIndex cur = x == 0 ? kNone : cfg.innermost_[cfg.dom_.idom(x)];
    while (cur != kNone && !cfg.contains(cur, x)) cur = cfg.constructs_[cur].parent;
    for (ConstructIndex c : cfg.constructs_at(x)) {
      cfg.constructs_[c].parent = cur;
      if (cfg.contains(c, x)) cur = c;
    }
    cfg.innermost_[x] = cur;
  }

  cfg.rules_apply_ = requires_structured_control_flow(module);
  // A function declaration (no blocks, e.g. an import) has nothing to check.
  if (mode == Mode::Structural && cfg.rules_apply_ && n > 0) cfg.violations_ = check_rules(cfg);
  return cfg;
}

bool requires_structured_control_flow(const Module& module) {
  bool shader = false, kernel = false;
  for (const Instruction& i : module.instructions) {
    if (i.opcode != spv::Op::OpCapability || i.words.empty()) continue;
    shader = shader || i.words[0] == static_cast<std::uint32_t>(spv::Capability::Shader);
    kernel = kernel || i.words[0] == static_cast<std::uint32_t>(spv::Capability::Kernel);
  }
  return shader || !kernel;
}

std::vector<FunctionCfg> analyze(const Module& module, Mode mode) {
  std::vector<FunctionCfg> out;
  out.reserve(module.functions.size());
  for (const Function& f : module.functions) out.push_back(analyze(module, f, mode));
  return out;
}

}  // namespace sluice::spirv_in::cfg
