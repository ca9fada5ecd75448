// CFG construction (layout in cfg.h). One pre-order walk with a heap stack
// turns each IR block into a node and its terminator into an exit; the
// scope model (ir/structure.h) says where Merge, Break, Continue,
// Passthrough and LoopIf go and whether the block is in a continue construct.
// Then reachability decides which nodes are emitted and which become stubs.
//
// The module is valid IR (emit() validates it first), so the tree is a tree
// and every jump has the target the scope model gives it. SPIR-V's
// structured rules forbid a few things valid IR can say; they are errors
// when they are reachable: leaving a loop's continue construct other
// than through its back edge (Return, Discard, Unreachable, a Break out of
// that loop, or a Continue nested inside it), since the back-edge block must
// structurally post-dominate the continue target (SPIR-V §2.11). A DoLoop's
// condition chain is part of its continue construct.
#include "output/spirv/cfg.h"

#include <algorithm>

#include <fmt/format.h>

#include "ir/control_edges.h"
#include "ir/structure.h"

namespace sluice::spirv::detail {
namespace {

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

class CfgBuilder {
 public:
  CfgBuilder(const ir::Module& m, const ir::Function& f, CfgShape shape)
      : m_(m),
        f_(f),
        shape_(shape),
        edges_(ir::compute_control_edges(f)),
        contexts_(edges_.context),
        node_of_(f.blocks.size(), kNone),
        index_of_(f.blocks.size(), kNone),
        continued_(f.blocks.size(), false),
        outer_loop_(f.blocks.size(), kNone) {
    // Which loops some Continue goes to (the end of a DoLoop's body is
    // one), and which hold, at any depth, a loop nothing leaves but a
    // Return or Discard (marked like a Continue: see once_through()).
    // A loop is left by a Break to its merge or a LoopIf that can be false.
    auto exits = [&](std::uint32_t l) {
      if (!edges_.exits[l].empty()) return true;
      for (ir::BlockId b : edges_.loop_ifs[l])
        if (ir::constant_bool(m, f.block(b).terminator()->operands[0]) != true) return true;
      return false;
    };
    std::vector<std::uint32_t> loops;
    for (std::size_t i = 0; i < f.blocks.size(); ++i) {
      const ir::Instruction* t = f.blocks[i].terminator();
      if (!t || (t->opcode != ir::Opcode::Loop && t->opcode != ir::Opcode::DoLoop)) continue;
      loops.push_back(static_cast<std::uint32_t>(i));
      if (!edges_.continues[i].empty()) continued_[i] = true;
    }
    // Inner loops first (deeper in the tree), so a mark reaches every loop around.
    std::sort(loops.begin(), loops.end(),
              [&](std::uint32_t a, std::uint32_t b) { return contexts_[a].depth > contexts_[b].depth; });
    std::vector<bool> holds_exitless(f.blocks.size(), false);
    for (std::uint32_t l : loops) {
      const ir::BlockId outer = contexts_[l].loop;
      if (outer.valid() && (!exits(l) || holds_exitless[l])) holds_exitless[outer.index()] = true;
    }
    for (std::uint32_t l : loops)
      if (holds_exitless[l]) continued_[l] = true;
  }

  Result<Cfg> build();

 private:
  std::uint32_t block_node(ir::BlockId b);
  std::uint32_t synthetic_node(NodeKind kind, std::uint32_t loop);
  void translate(std::uint32_t n);
  void translate_loop(std::uint32_t n, const ir::Block& b, bool do_loop);
  void translate_switch(std::uint32_t n, const ir::Block& b);
  void translate_once_through(std::uint32_t n, const ir::Block& b);
  // A DoLoop nothing continues: entered once, left by Break (inline-functions'
  // wrapper of a body with early returns, `do { ... break; } while (c)`).
  // Not one holding a loop that only a Return or Discard leaves: NVIDIA's
  // 580 driver hung on a switch wrapper around `while (true) { ... }`
  // (GraphicsFuzz's function-with-uniform-return; docs/performance.md,
  // "Session 17").
  bool once_through(ir::BlockId loop) const {
    if (!loop.valid()) return false;
    const ir::Instruction* t = f_.block(loop).terminator();
    return t && t->opcode == ir::Opcode::DoLoop && !continued_[loop.index()];
  }
  // The Cfg::loops index of a loop block; for a once-through DoLoop (a
  // selection construct in the CFG) the loop around it.
  std::uint32_t loop_index(ir::BlockId loop) {
    if (loop.valid() && once_through(loop)) return outer_loop_[loop.index()];
    return index_of(loop);
  }
  bool stores_vector_variable(const ir::Block& b) const;  // a Store of a whole vector variable
  std::uint32_t node_of(ir::BlockId b) const { return b.valid() ? node_of_[b.index()] : kNone; }
  // The index in Cfg::loops or Cfg::switches of a construct translated
  // before; kNone (and an internal error) for a tree that is not a tree.
  std::uint32_t index_of(ir::BlockId construct) {
    const std::uint32_t i = construct.valid() ? index_of_[construct.index()] : kNone;
    if (i == kNone) fail(fmt::format("'{}': internal error: a jump's construct was not translated first", f_.name.text));
    return i;
  }
  void fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
  }
  void mark_reachable();
  void make_stubs();
  void compute_preds();

  const ir::Module& m_;
  const ir::Function& f_;
  const CfgShape shape_;
  const ir::ControlEdges edges_;                   // which blocks jump to which construct
  const std::vector<ir::BlockContext>& contexts_;  // edges_.context: the scope model, where each block's terminator goes
  Cfg cfg_;
  std::vector<std::uint32_t> node_of_;   // per BlockId
  std::vector<std::uint32_t> index_of_;  // per loop or switch BlockId: its index in Cfg::loops or Cfg::switches
  std::vector<bool> continued_;  // per loop BlockId: some Continue goes to it, or it holds a loop without exit
  std::vector<std::uint32_t> outer_loop_;  // per once-through DoLoop BlockId: the Cfg::loops index around it
  std::vector<std::uint32_t> stack_;
  std::string error_;
};

std::uint32_t CfgBuilder::block_node(ir::BlockId b) {
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
  stack_.push_back(block_node(f_.entry));
  while (!stack_.empty() && error_.empty()) {
    const std::uint32_t n = stack_.back();
    stack_.pop_back();
    cfg_.order.push_back(n);
    if (cfg_.nodes[n].kind == NodeKind::Block) translate(n);
  }
  if (!error_.empty()) return Error{error_};
  mark_reachable();
  make_stubs();
  if (!error_.empty()) return Error{error_};
  compute_preds();
  // Each loop's `end`: loops are numbered in pre-order (the walk above
  // translates a loop before anything inside it, and all of it before its
  // merge block), so a loop's nest ends where its last descendant's does.
  for (std::uint32_t l = 0; l < cfg_.loops.size(); ++l) cfg_.loops[l].end = l + 1;
  for (std::uint32_t l = static_cast<std::uint32_t>(cfg_.loops.size()); l-- > 0;)
    if (const std::uint32_t p = cfg_.loops[l].parent; p != kNone) cfg_.loops[p].end = std::max(cfg_.loops[p].end, cfg_.loops[l].end);
  compute_dominators(cfg_);
  return std::move(cfg_);
}

void CfgBuilder::translate(std::uint32_t n) {
  const ir::Block& b = f_.block(cfg_.nodes[n].block);
  const ir::BlockContext& scope = contexts_[cfg_.nodes[n].block.index()];
  const ir::Instruction* term = b.terminator();
  cfg_.nodes[n].loop = scope.loop.valid() ? loop_index(scope.loop) : kNone;
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
      if (scope.in_any_continue_construct) defer(kReturnInContinue);
      return;
    case ir::Opcode::Discard:
      set_exit(Exit::Kill);
      if (scope.in_any_continue_construct) defer(kDiscardInContinue);
      return;
    case ir::Opcode::Unreachable:
      set_exit(Exit::Unreachable);
      if (scope.in_any_continue_construct) defer(kUnreachableInContinue);
      return;
    case ir::Opcode::Break:
      set_exit(Exit::Branch, node_of(scope.break_target));
      set_edge_value();
      if (scope.in_continue_construct && !scope.breaks_from_switch) defer(kBreakInContinue);
      return;
    case ir::Opcode::Continue: {
      const std::uint32_t l = index_of(scope.loop);
      if (l == kNone) return;
      const CfgLoop& loop = cfg_.loops[l];
      if (scope.chain_kind == ir::BlockKind::LoopContinue || loop.continue_target == n) {
        // The end of the continue block (or of a body that is the continue
        // target): on to the next iteration's test.
        set_exit(Exit::Branch, loop.do_loop ? loop.condition : loop.header);
      } else {
        set_exit(Exit::Branch, loop.continue_target);
        if (scope.in_continue_construct) defer(kNestedContinue);
      }
      return;
    }
    case ir::Opcode::Passthrough: {
      const std::uint32_t i = index_of(scope.construct);
      if (i == kNone) return;
      const CfgSwitch& s = cfg_.switches[i];
      const std::uint32_t next = scope.case_index + 1;
      set_exit(Exit::Branch, s.case_nodes[next]);  // the validator allows no Passthrough in the last case
      return;
    }
    case ir::Opcode::LoopIf: {
      const std::uint32_t l = index_of(scope.loop);
      if (l == kNone) return;
      const CfgLoop& loop = cfg_.loops[l];
      const std::uint32_t again = loop.do_loop ? loop.header : loop.body;
      if (ir::constant_bool(m_, term->operands[0]) == true) {
        set_exit(Exit::Branch, again);  // `LoopIf true`: the loop is left through Break only
      } else {
        set_exit(Exit::CondBranch, again, loop.merge);
        set_operand();
      }
      return;
    }
    case ir::Opcode::Merge:
      set_exit(Exit::Branch, node_of(scope.merge_target));
      set_edge_value();
      return;
    case ir::Opcode::If: {
      // A branch holding nothing but the `Merge [v]` into this If is left
      // out: the header branches straight to the merge block and hands v to
      // its input (`a && b` becomes BranchConditional a B M, M's OpPhi taking
      // false from the header — the shape spirv-opt leaves). One side at most,
      // so that the two targets differ.
      const ir::BlockId merge_block = b.merge;
      auto bare_merge = [&](ir::BlockId id) -> const ir::Instruction* {
        if (!ir::only_merges(f_, id) || contexts_[id.index()].merge_target != merge_block) return nullptr;
        return &f_.block(id).instructions[0];
      };
      const ir::Instruction* skip_false = bare_merge(b.if_false());
      const ir::Instruction* skip_true = skip_false || !b.if_false().valid() ? nullptr : bare_merge(b.if_true());
      const std::uint32_t merge = block_node(merge_block);
      const std::uint32_t t = skip_true ? merge : block_node(b.if_true());
      const std::uint32_t e = skip_false || !b.if_false().valid() ? merge : block_node(b.if_false());
      set_exit(Exit::CondBranch, t, e);
      set_operand();
      cfg_.nodes[n].merge = merge;
      if (const ir::Instruction* skipped = skip_false ? skip_false : skip_true; skipped && !skipped->operands.empty()) {
        cfg_.nodes[n].edge_value = skipped->operands[0];
        cfg_.nodes[n].has_edge_value = true;
      }
      stack_.push_back(merge);
      if (e != merge) stack_.push_back(e);
      if (t != merge) stack_.push_back(t);
      return;
    }
    case ir::Opcode::Loop:
    case ir::Opcode::DoLoop: return translate_loop(n, b, term->opcode == ir::Opcode::DoLoop);
    case ir::Opcode::Switch: return translate_switch(n, b);
    case ir::Opcode::NextBlock: {
      const std::uint32_t merge = block_node(b.merge);
      set_exit(Exit::Branch, merge);
      stack_.push_back(merge);
      return;
    }
    default:
      fail(fmt::format("'{}': internal error: {} ends a block", f_.name.text, ir::name(term->opcode)));
      return;
  }
}

bool CfgBuilder::stores_vector_variable(const ir::Block& b) const {
  for (const ir::Instruction& inst : b.instructions)
    if (inst.opcode == ir::Opcode::Store && !inst.operands.empty() && inst.operands[0].is_variable()) {
      const ir::TypeId pointee = m_.type(m_.variable(inst.operands[0].as_variable()).type).element;
      if (pointee.valid() && m_.type(pointee).kind == ir::TypeKind::Vector) return true;
    }
  return false;
}

void CfgBuilder::translate_loop(std::uint32_t n, const ir::Block& b, bool do_loop) {
  if (do_loop && once_through(cfg_.nodes[n].block)) return translate_once_through(n, b);
  const auto index = static_cast<std::uint32_t>(cfg_.loops.size());
  cfg_.loops.emplace_back();
  index_of_[cfg_.nodes[n].block.index()] = index;
  // The first block of the chain a loop starts with (a Loop's condition, a
  // DoLoop's body) is the loop's header when its own exit is a plain branch
  // that needs no merge instruction of its own: its code follows the phis,
  // then OpLoopMerge and its branch (SPIR-V §2.11 allows code in a loop
  // header and a header that branches conditionally; spirv-opt's
  // merge-blocks leaves this shape). So is a Loop's condition that is one
  // block (it ends with the LoopIf), which is left conditionally. A first
  // block ending in an If or Switch (which need OpSelectionMerge) or in a
  // Return, Discard or Unreachable gets a header node of its own that
  // branches to it.
  // A first block ending in a once-through DoLoop (a selection construct
  // here) is no header either.
  const ir::BlockId first_id = do_loop ? b.loop_body() : b.loop_condition();
  const ir::Block& first_block = f_.block(first_id);
  const ir::Opcode first_exit = first_block.terminator() ? first_block.terminator()->opcode : ir::Opcode::Unreachable;
  const bool first_is_header = first_exit == ir::Opcode::NextBlock || first_exit == ir::Opcode::Loop ||
                               (first_exit == ir::Opcode::DoLoop && !once_through(first_id)) ||
                               first_exit == (do_loop ? ir::Opcode::Continue : ir::Opcode::LoopIf);
  // block_node() makes a new node each call: one per block.
  const std::uint32_t condition = block_node(b.loop_condition());
  const std::uint32_t body = block_node(b.loop_body());
  const std::uint32_t first = do_loop ? body : condition;
  const std::uint32_t header = first_is_header ? first : synthetic_node(NodeKind::LoopHeader, index);
  const std::uint32_t cont = b.loop_continue().valid() ? block_node(b.loop_continue()) : kNone;
  const std::uint32_t merge = block_node(b.merge);
  // A Loop without continue block whose body is one block (it ends with
  // the Continue) has that block as its continue target: no empty latch,
  // the shape spirv-opt leaves (Mesa runs a continue construct apart from
  // the body behind a flag: merge_continue_blocks.cpp).
  // With CfgShape::one_block_body_continues off (loop-latch), a body that
  // stores a whole vector variable keeps the shape: its loop carries that
  // vector, which lavapipe runs slower behind a latch (nbody.comp's `acc`;
  // docs/workarounds.md).
  const ir::Block& body_block = f_.block(b.loop_body());
  const bool one_block_body =
      !do_loop && cont == kNone && body_block.terminator() && body_block.terminator()->opcode == ir::Opcode::Continue;
  const bool body_continues = one_block_body && (shape_.one_block_body_continues || stores_vector_variable(body_block));
  const std::uint32_t latch =
      (!do_loop && cont == kNone && !body_continues) ? synthetic_node(NodeKind::Latch, index) : kNone;
  CfgLoop& loop = cfg_.loops[index];
  loop.parent = cfg_.nodes[n].loop;  // translate() set the loop holding the Loop's own block
  loop.do_loop = do_loop;
  loop.header = header;
  loop.condition = condition;
  loop.body = body;
  loop.merge = merge;
  loop.continue_target = cont != kNone ? cont : (do_loop ? condition : body_continues ? body : latch);

  CfgNode& pre = cfg_.nodes[n];
  pre.exit = Exit::Branch;
  pre.target[0] = header;
  CfgNode& h = cfg_.nodes[header];
  h.merge = merge;
  h.continue_target = loop.continue_target;
  h.loop = index;
  if (!first_is_header) {  // a header block's own terminator gives its exit (translate())
    h.exit = Exit::Branch;
    h.target[0] = first;
  }
  if (latch != kNone) {
    cfg_.nodes[latch].exit = Exit::Branch;
    cfg_.nodes[latch].target[0] = header;
  }

  // Pushed in reverse emission order.
  stack_.push_back(merge);
  if (do_loop) {
    stack_.push_back(condition);
    if (cont != kNone) stack_.push_back(cont);
    if (!first_is_header) stack_.push_back(body);
  } else {
    if (cont != kNone || latch != kNone) stack_.push_back(cont != kNone ? cont : latch);
    stack_.push_back(body);
    if (!first_is_header) stack_.push_back(condition);
  }
  stack_.push_back(header);
}

// A once-through DoLoop is a selection construct, spirv-opt's inliner
// wrapper: `OpSelectionMerge M; OpSwitch %int_0 B` with the body B as the
// default target, every Break a branch to the merge M (a break out of the
// innermost switch, SPIR-V §2.11), and its condition chain, which nothing
// reaches, left out. Eight words fewer than a loop header, continue target
// and back edge.
void CfgBuilder::translate_once_through(std::uint32_t n, const ir::Block& b) {
  const ir::BlockId self = cfg_.nodes[n].block;
  const auto index = static_cast<std::uint32_t>(cfg_.switches.size());
  cfg_.switches.emplace_back();
  index_of_[self.index()] = index;
  outer_loop_[self.index()] = cfg_.nodes[n].loop;
  const std::uint32_t body = block_node(b.loop_body());
  const std::uint32_t merge = block_node(b.merge);
  CfgSwitch& s = cfg_.switches[index];
  s.default_target = body;
  s.case_nodes = {body};
  s.in_loop = cfg_.nodes[n].loop != kNone;
  CfgNode& node = cfg_.nodes[n];
  node.exit = Exit::Switch;
  node.switch_index = index;
  node.has_operand = false;  // the emitter's selector: the constant 0
  node.merge = merge;
  stack_.push_back(merge);
  stack_.push_back(body);
}

void CfgBuilder::translate_switch(std::uint32_t n, const ir::Block& b) {
  const ir::Instruction& term = *b.terminator();
  const auto index = static_cast<std::uint32_t>(cfg_.switches.size());
  cfg_.switches.emplace_back();
  index_of_[cfg_.nodes[n].block.index()] = index;
  std::vector<std::uint32_t> case_nodes;
  for (ir::BlockId cb : b.case_blocks) case_nodes.push_back(block_node(cb));
  const std::vector<std::uint32_t> own_nodes = case_nodes;  // each translated once
  const std::uint32_t merge = block_node(b.merge);
  // An empty case that falls through (`case 0: case 1: ...`) shares the
  // next case's target, as spirv-opt leaves it: its own node is then
  // reached by nothing and not emitted. Last to first, so runs of them
  // resolve to the case that has code.
  for (std::size_t i = case_nodes.size(); i-- > 1;) {
    const ir::Block& cb = f_.block(b.case_blocks[i - 1]);
    if (cb.declarations.empty() && cb.instructions.size() == 1 &&
        cb.instructions[0].opcode == ir::Opcode::Passthrough)
      case_nodes[i - 1] = case_nodes[i];
  }
  CfgSwitch s;
  s.default_target = merge;
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    if (b.cases[i].value)
      s.cases.emplace_back(*b.cases[i].value, case_nodes[i]);
    else
      s.default_target = case_nodes[i];
  }
  s.case_nodes = case_nodes;
  s.in_loop = contexts_[cfg_.nodes[n].block.index()].loop.valid();
  cfg_.switches[index] = std::move(s);
  CfgNode& node = cfg_.nodes[n];
  node.exit = Exit::Switch;
  node.switch_index = index;
  node.operand = term.operands[0];
  node.has_operand = true;
  node.merge = merge;

  stack_.push_back(merge);
  for (std::size_t i = own_nodes.size(); i-- > 0;) stack_.push_back(own_nodes[i]);
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
    } else if (const ir::BlockContext& scope = contexts_[node.block.index()]; scope.in_any_continue_construct) {
      // OpUnreachable here would be a structured path out of an enclosing
      // continue construct that skips its back-edge block; break out of the
      // innermost loop instead, whose merge leads on to that back edge.
      if (scope.in_continue_construct || (!once_through(scope.loop) && index_of(scope.loop) == kNone))
        return fail(fmt::format("'{}': a block nothing reaches inside a loop's continue construct cannot be "
                                "expressed in SPIR-V",
                                f_.name.text));
      node.exit = Exit::Branch;
      node.target[0] = once_through(scope.loop) ? node_of(f_.block(scope.loop).merge)
                                                : cfg_.loops[index_of_[scope.loop.index()]].merge;
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

Result<Cfg> build_cfg(const ir::Module& m, const ir::Function& f, CfgShape shape) {
  return CfgBuilder(m, f, shape).build();
}

}  // namespace sluice::spirv::detail
