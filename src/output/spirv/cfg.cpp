// CFG construction (layout in cfg.h). One pre-order walk with a heap stack
// turns each IR block into a node and its terminator into an exit, using a
// Scope that says where Merge, Break, Continue, Passthrough and LoopIf go.
// Then reachability decides which nodes are emitted and which become stubs.
//
// SPIR-V's structured rules forbid a few things the tree can say; they are
// errors when they are reachable: leaving a loop's continue construct other
// than through its back edge (Return, Discard, Unreachable, a Break out of
// that loop, or a Continue nested inside it), since the back-edge block must
// structurally post-dominate the continue target; Merge outside an If of its
// own loop or case; LoopIf or Passthrough away from the top of their chain.
#include "output/spirv/cfg.h"

#include <algorithm>

#include <fmt/format.h>

namespace sluice::spirv::detail {
namespace {

enum class Chain : std::uint8_t { Other, LoopCondition, LoopContinue, SwitchCase };

enum DeferredError : std::uint8_t {
  kNoError,
  kReturnInContinue,
  kDiscardInContinue,
  kUnreachableInContinue,
  kBreakInContinue,
  kNestedContinue,
};

const char* message(std::uint8_t e) {
  switch (e) {
    case kReturnInContinue: return "Return inside a loop's continue block or do-while condition";
    case kDiscardInContinue: return "Discard inside a loop's continue block or do-while condition";
    case kUnreachableInContinue: return "reachable Unreachable inside a loop's continue block or do-while condition";
    case kBreakInContinue: return "Break out of a loop from its continue block or do-while condition";
    case kNestedContinue: return "Continue nested inside a loop's continue block or do-while condition";
    default: return "";
  }
}

struct Scope {
  std::uint32_t if_merge = kNone;      // Merge goes here
  std::uint32_t break_target = kNone;  // Break goes here
  std::uint32_t loop = kNone;          // innermost loop, for Continue
  std::uint32_t switch_index = kNone;  // innermost switch, for Passthrough
  std::uint32_t case_index = 0;
  Chain chain = Chain::Other;          // the top-level chain this block is in
  bool break_to_switch = false;
  bool in_continue = false;
  bool in_any_continue = false;
};

struct WorkItem {
  std::uint32_t node;
  Scope scope;
};

class CfgBuilder {
 public:
  CfgBuilder(const ir::Module& m, const ir::Function& f) : m_(m), f_(f), node_of_(f.blocks.size(), kNone) {}

  Result<Cfg> build();

 private:
  std::uint32_t block_node(ir::BlockId b);
  std::uint32_t synthetic_node(NodeKind kind, std::uint32_t loop);
  void translate(std::uint32_t n, const Scope& scope);
  void translate_loop(std::uint32_t n, const ir::Block& b, bool do_loop, const Scope& scope);
  void translate_switch(std::uint32_t n, const ir::Block& b, const Scope& scope);
  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }
  bool is_true_constant(ir::Operand op) const {
    return op.is_constant() && op.value() < m_.constant_count() &&
           m_.constant(op.as_constant()).type == ir::predefined::kBool && !m_.constant(op.as_constant()).spec_id &&
           m_.constant(op.as_constant()).bits != 0;
  }
  void mark_reachable();
  void make_stubs();
  void compute_preds();

  const ir::Module& m_;
  const ir::Function& f_;
  Cfg cfg_;
  std::vector<std::uint32_t> node_of_;  // per BlockId
  std::vector<WorkItem> stack_;
  std::string error_;
};

std::uint32_t CfgBuilder::block_node(ir::BlockId b) {
  if (!b.valid() || b.index() >= f_.blocks.size()) {
    fail(fmt::format("'{}': a terminator refers to block b{}, which does not exist", f_.name.text, b.index()));
    return kNone;
  }
  if (node_of_[b.index()] != kNone) {
    fail(fmt::format("'{}': block b{} appears twice in the block tree", f_.name.text, b.index()));
    return kNone;
  }
  const auto n = static_cast<std::uint32_t>(cfg_.nodes.size());
  cfg_.nodes.emplace_back();
  cfg_.nodes.back().block = b;
  node_of_[b.index()] = n;
  return n;
}

std::uint32_t CfgBuilder::synthetic_node(NodeKind kind, std::uint32_t loop) {
  const auto n = static_cast<std::uint32_t>(cfg_.nodes.size());
  cfg_.nodes.emplace_back();
  cfg_.nodes.back().kind = kind;
  cfg_.nodes.back().loop = loop;
  return n;
}

Result<Cfg> CfgBuilder::build() {
  // Each loop adds at most two nodes (header, latch) and owns a merge block
  // no other construct has (the entry block merges nothing): no function
  // has more than 3 nodes per block, so neither list ever reallocates.
  // Pages reserved but never written cost no memory.
  const std::size_t most_nodes = f_.blocks.size() * 3;
  cfg_.nodes.reserve(most_nodes);
  cfg_.order.reserve(most_nodes);
  const std::uint32_t entry = block_node(f_.entry);
  if (entry == kNone) return Error{error_};
  stack_.push_back({entry, Scope{}});
  while (!stack_.empty() && error_.empty()) {
    const WorkItem item = stack_.back();
    stack_.pop_back();
    cfg_.order.push_back(item.node);
    CfgNode& node = cfg_.nodes[item.node];
    node.innermost_loop = item.scope.loop;
    node.in_continue = item.scope.in_continue;
    node.in_any_continue = item.scope.in_any_continue;
    if (node.kind == NodeKind::Block) translate(item.node, item.scope);
  }
  if (!error_.empty()) return Error{error_};
  mark_reachable();
  make_stubs();
  if (!error_.empty()) return Error{error_};
  compute_preds();
  return std::move(cfg_);
}

void CfgBuilder::translate(std::uint32_t n, const Scope& scope) {
  const ir::Block& b = f_.block(cfg_.nodes[n].block);
  const ir::Instruction* term = b.terminator();
  if (!term || !ir::is_terminator(term->opcode)) {
    fail(fmt::format("'{}': block b{} does not end with a terminator", f_.name.text, cfg_.nodes[n].block.index()));
    return;
  }
  const bool has_operand = !term->operands.empty();
  auto set_exit = [&](Exit e, std::uint32_t t0 = kNone, std::uint32_t t1 = kNone) {
    CfgNode& node = cfg_.nodes[n];
    node.exit = e;
    node.target[0] = t0;
    node.target[1] = t1;
  };
  auto set_operand = [&] {
    if (!has_operand) return;
    cfg_.nodes[n].operand = term->operands[0];
    cfg_.nodes[n].has_operand = true;
  };
  auto set_edge_value = [&] {
    if (!has_operand) return;
    cfg_.nodes[n].edge_value = term->operands[0];
    cfg_.nodes[n].has_edge_value = true;
  };
  auto defer = [&](std::uint8_t e) { cfg_.nodes[n].deferred_error = e; };
  switch (term->opcode) {
    case ir::Opcode::Return:
      set_exit(Exit::Return);
      set_operand();
      if (scope.in_any_continue) defer(kReturnInContinue);
      return;
    case ir::Opcode::Discard:
      set_exit(Exit::Kill);
      if (scope.in_any_continue) defer(kDiscardInContinue);
      return;
    case ir::Opcode::Unreachable:
      set_exit(Exit::Unreachable);
      if (scope.in_any_continue) defer(kUnreachableInContinue);
      return;
    case ir::Opcode::Break:
      if (scope.break_target == kNone) return fail(fmt::format("'{}': Break outside a loop or switch", f_.name.text));
      set_exit(Exit::Branch, scope.break_target);
      set_edge_value();
      if (scope.in_continue && !scope.break_to_switch) defer(kBreakInContinue);
      return;
    case ir::Opcode::Continue: {
      if (scope.loop == kNone) return fail(fmt::format("'{}': Continue outside a loop", f_.name.text));
      const CfgLoop& loop = cfg_.loops[scope.loop];
      if (scope.chain == Chain::LoopContinue) {
        // The end of the continue block: on to the next iteration's test.
        set_exit(Exit::Branch, loop.do_loop ? loop.condition : loop.header);
      } else {
        set_exit(Exit::Branch, loop.continue_target);
        if (scope.in_continue) defer(kNestedContinue);
      }
      return;
    }
    case ir::Opcode::Passthrough: {
      if (scope.chain != Chain::SwitchCase)
        return fail(fmt::format("'{}': Passthrough away from the top level of a switch case", f_.name.text));
      const CfgSwitch& s = cfg_.switches[scope.switch_index];
      const std::uint32_t next = scope.case_index + 1;
      set_exit(Exit::Branch, next < s.case_nodes.size() ? s.case_nodes[next] : scope.break_target);
      return;
    }
    case ir::Opcode::LoopIf: {
      if (scope.chain != Chain::LoopCondition)
        return fail(fmt::format("'{}': LoopIf away from the top level of a loop condition", f_.name.text));
      if (!has_operand) return fail(fmt::format("'{}': LoopIf without a condition", f_.name.text));
      const CfgLoop& loop = cfg_.loops[scope.loop];
      const std::uint32_t again = loop.do_loop ? loop.header : loop.body;
      if (is_true_constant(term->operands[0])) {
        set_exit(Exit::Branch, again);  // `LoopIf true`: the loop is left through Break only
      } else {
        set_exit(Exit::CondBranch, again, loop.merge);
        set_operand();
      }
      return;
    }
    case ir::Opcode::Merge:
      if (scope.if_merge == kNone)
        return fail(fmt::format("'{}': Merge outside an If (within its loop or switch case)", f_.name.text));
      set_exit(Exit::Branch, scope.if_merge);
      set_edge_value();
      return;
    case ir::Opcode::If: {
      if (!has_operand) return fail(fmt::format("'{}': If without a condition", f_.name.text));
      const std::uint32_t t = block_node(b.if_true());
      const std::uint32_t e = b.if_false().valid() ? block_node(b.if_false()) : kNone;
      const std::uint32_t merge = block_node(b.merge);
      if (!error_.empty()) return;
      set_exit(Exit::CondBranch, t, e != kNone ? e : merge);
      set_operand();
      cfg_.nodes[n].merge = merge;
      Scope inner = scope;
      inner.if_merge = merge;
      inner.chain = Chain::Other;
      stack_.push_back({merge, scope});
      if (e != kNone) stack_.push_back({e, inner});
      stack_.push_back({t, inner});
      return;
    }
    case ir::Opcode::Loop:
    case ir::Opcode::DoLoop: return translate_loop(n, b, term->opcode == ir::Opcode::DoLoop, scope);
    case ir::Opcode::Switch: return translate_switch(n, b, scope);
    case ir::Opcode::NextBlock: {
      const std::uint32_t merge = block_node(b.merge);
      if (!error_.empty()) return;
      set_exit(Exit::Branch, merge);
      stack_.push_back({merge, scope});
      return;
    }
    default:
      fail(fmt::format("'{}': {} is not a terminator", f_.name.text, ir::name(term->opcode)));
      return;
  }
}

void CfgBuilder::translate_loop(std::uint32_t n, const ir::Block& b, bool do_loop, const Scope& scope) {
  const auto index = static_cast<std::uint32_t>(cfg_.loops.size());
  cfg_.loops.emplace_back();
  const std::uint32_t header = synthetic_node(NodeKind::LoopHeader, index);
  const std::uint32_t condition = block_node(b.loop_condition());
  const std::uint32_t body = block_node(b.loop_body());
  const std::uint32_t cont = b.loop_continue().valid() ? block_node(b.loop_continue()) : kNone;
  const std::uint32_t merge = block_node(b.merge);
  if (!error_.empty()) return;
  const std::uint32_t latch = (!do_loop && cont == kNone) ? synthetic_node(NodeKind::Latch, index) : kNone;
  CfgLoop& loop = cfg_.loops[index];
  loop.do_loop = do_loop;
  loop.header = header;
  loop.condition = condition;
  loop.body = body;
  loop.merge = merge;
  loop.continue_target = cont != kNone ? cont : (do_loop ? condition : latch);

  CfgNode& pre = cfg_.nodes[n];
  pre.exit = Exit::Branch;
  pre.target[0] = header;
  CfgNode& h = cfg_.nodes[header];
  h.merge = merge;
  h.continue_target = loop.continue_target;
  h.exit = Exit::Branch;
  h.target[0] = do_loop ? body : condition;
  if (latch != kNone) {
    cfg_.nodes[latch].exit = Exit::Branch;
    cfg_.nodes[latch].target[0] = header;
  }

  Scope inner = scope;
  inner.loop = index;
  inner.break_target = merge;
  inner.break_to_switch = false;
  inner.if_merge = kNone;
  inner.switch_index = kNone;
  inner.chain = Chain::Other;
  inner.in_continue = false;
  Scope cond_scope = inner;
  cond_scope.chain = Chain::LoopCondition;
  cond_scope.in_continue = do_loop;  // a do-while's test is part of its continue construct
  cond_scope.in_any_continue = scope.in_any_continue || do_loop;
  Scope cont_scope = inner;
  cont_scope.chain = Chain::LoopContinue;
  cont_scope.in_continue = true;
  cont_scope.in_any_continue = true;
  Scope latch_scope = cont_scope;
  latch_scope.chain = Chain::Other;

  // Pushed in reverse emission order.
  stack_.push_back({merge, scope});
  if (do_loop) {
    stack_.push_back({condition, cond_scope});
    if (cont != kNone) stack_.push_back({cont, cont_scope});
    stack_.push_back({body, inner});
  } else {
    stack_.push_back(cont != kNone ? WorkItem{cont, cont_scope} : WorkItem{latch, latch_scope});
    stack_.push_back({body, inner});
    stack_.push_back({condition, cond_scope});
  }
  stack_.push_back({header, inner});
}

void CfgBuilder::translate_switch(std::uint32_t n, const ir::Block& b, const Scope& scope) {
  const ir::Instruction& term = *b.terminator();
  if (term.operands.empty()) return fail(fmt::format("'{}': Switch without a selector", f_.name.text));
  if (b.case_blocks.size() != b.cases.size())
    return fail(fmt::format("'{}': Switch with {} case blocks for {} cases", f_.name.text, b.case_blocks.size(),
                            b.cases.size()));
  const auto index = static_cast<std::uint32_t>(cfg_.switches.size());
  cfg_.switches.emplace_back();
  std::vector<std::uint32_t> case_nodes;
  for (ir::BlockId cb : b.case_blocks) case_nodes.push_back(block_node(cb));
  const std::uint32_t merge = block_node(b.merge);
  if (!error_.empty()) return;
  CfgSwitch s;
  s.default_target = merge;
  bool has_default = false;
  std::vector<std::uint32_t> seen_values;
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    if (!b.cases[i].value) {
      if (has_default) return fail(fmt::format("'{}': Switch with two default cases", f_.name.text));
      has_default = true;
      s.default_target = case_nodes[i];
      continue;
    }
    const std::uint32_t value = *b.cases[i].value;
    if (std::find(seen_values.begin(), seen_values.end(), value) != seen_values.end())
      return fail(fmt::format("'{}': Switch with two cases for {}", f_.name.text, value));
    seen_values.push_back(value);
    s.cases.emplace_back(value, case_nodes[i]);
  }
  s.case_nodes = case_nodes;
  cfg_.switches[index] = std::move(s);
  CfgNode& node = cfg_.nodes[n];
  node.exit = Exit::Switch;
  node.switch_index = index;
  node.operand = term.operands[0];
  node.has_operand = true;
  node.merge = merge;

  stack_.push_back({merge, scope});
  for (std::size_t i = case_nodes.size(); i-- > 0;) {
    Scope inner = scope;
    inner.if_merge = kNone;
    inner.break_target = merge;
    inner.break_to_switch = true;
    inner.switch_index = index;
    inner.case_index = static_cast<std::uint32_t>(i);
    inner.chain = Chain::SwitchCase;
    stack_.push_back({case_nodes[i], inner});
  }
}

void CfgBuilder::mark_reachable() {
  std::vector<std::uint32_t> work{0};
  cfg_.nodes[0].reachable = true;
  while (!work.empty()) {
    const std::uint32_t n = work.back();
    work.pop_back();
    cfg_.for_each_successor(n, [&](std::uint32_t s) {
      if (s == kNone || cfg_.nodes[s].reachable) return;
      cfg_.nodes[s].reachable = true;
      work.push_back(s);
    });
  }
}

void CfgBuilder::make_stubs() {
  // Merge blocks and continue targets named by reachable headers must exist.
  std::vector<std::uint32_t> stub_loop(cfg_.nodes.size(), kNone);  // continue target -> its loop
  std::vector<bool> needed(cfg_.nodes.size(), false);
  for (std::uint32_t n : cfg_.order) {
    const CfgNode& node = cfg_.nodes[n];
    if (!node.reachable) continue;
    if (node.deferred_error) return fail(fmt::format("'{}': {}", f_.name.text, message(node.deferred_error)));
    if (node.merge != kNone) needed[node.merge] = true;
    if (node.continue_target != kNone) {
      needed[node.continue_target] = true;
      stub_loop[node.continue_target] = node.loop;
    }
  }
  std::vector<std::uint32_t> emitted;
  emitted.reserve(cfg_.order.size());
  for (std::uint32_t n : cfg_.order) {
    CfgNode& node = cfg_.nodes[n];
    if (node.reachable) {
      emitted.push_back(n);
      continue;
    }
    if (!needed[n]) continue;
    node.stub = true;
    node.merge = kNone;
    node.continue_target = kNone;
    node.has_operand = false;
    node.has_edge_value = false;
    node.target[0] = node.target[1] = kNone;
    if (stub_loop[n] != kNone) {
      // An unreachable continue target still holds the loop's back edge.
      node.exit = Exit::Branch;
      node.target[0] = cfg_.loops[stub_loop[n]].header;
    } else if (node.in_any_continue) {
      // OpUnreachable here would be a structured path out of an enclosing
      // continue construct that skips its back-edge block; break out of the
      // innermost loop instead, whose merge leads on to that back edge.
      if (node.in_continue || node.innermost_loop == kNone)
        return fail(fmt::format("'{}': a block nothing reaches inside a loop's continue construct cannot be "
                                "expressed in SPIR-V",
                                f_.name.text));
      node.exit = Exit::Branch;
      node.target[0] = cfg_.loops[node.innermost_loop].merge;
    } else {
      node.exit = Exit::Unreachable;
    }
    emitted.push_back(n);
  }
  cfg_.order = std::move(emitted);
}

void CfgBuilder::compute_preds() {
  const std::size_t count = cfg_.nodes.size();
  std::vector<std::uint32_t> degree(count + 1, 0);
  for (std::uint32_t n : cfg_.order) cfg_.for_each_successor(n, [&](std::uint32_t s) { ++degree[s]; });
  cfg_.pred_start.assign(count + 1, 0);
  for (std::size_t i = 0; i < count; ++i) cfg_.pred_start[i + 1] = cfg_.pred_start[i] + degree[i];
  cfg_.preds.assign(cfg_.pred_start[count], 0);
  std::vector<std::uint32_t> fill(cfg_.pred_start.begin(), cfg_.pred_start.end() - 1);
  for (std::uint32_t n : cfg_.order) cfg_.for_each_successor(n, [&](std::uint32_t s) { cfg_.preds[fill[s]++] = n; });
}

}  // namespace

Result<Cfg> build_cfg(const ir::Module& m, const ir::Function& f) { return CfgBuilder(m, f).build(); }

}  // namespace sluice::spirv::detail
