// Statements and structured control flow, in the shapes docs/ir.md gives:
//   if/else      -> If, each branch ending in Merge when it reaches the end;
//   for          -> Loop: condition block ending in LoopIf, body, continue
//                   block holding the loop expression (the ANGLE README's
//                   for-loop);
//   while        -> Loop without a continue block;
//   do-while     -> DoLoop;
//   switch       -> Switch with one case block per label in source order,
//                   falling through with Passthrough.
// After a return, break, continue or discard the rest of a statement list
// is dead and dropped (every block has exactly one terminator), but the
// inputs and outputs it names are still declared: an always-discarding
// shader keeps its output, as glslang's SPIR-V does. A merge
// block nothing reaches ends with Unreachable, and so do the statements
// after it.
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

bool is_constant_true(ir::Operand o) { return o.is_constant() && o.as_constant() == ir::predefined::kTrue; }

}  // namespace

void Translator::statements(std::span<TIntermNode* const> nodes) {
  for (TIntermNode* node : nodes) {
    if (failed_) return;
    statement(node);
  }
}

void Translator::statement(TIntermNode* node) {
  if (failed_ || node == nullptr) return;
  if (terminated()) {
    declare_interface_of_dead_code(node);
    return;
  }
  locate(node);
  if (TIntermAggregate* a = node->getAsAggregate()) {
    if (a->getOp() == glslang::EOpSequence || a->getOp() == glslang::EOpScope || a->getOp() == glslang::EOpNull) {
      statements(a->getSequence());
      return;
    }
  }
  if (TIntermSelection* s = node->getAsSelectionNode()) return if_statement(s);
  if (TIntermLoop* l = node->getAsLoopNode()) return loop_statement(l);
  if (TIntermSwitch* s = node->getAsSwitchNode()) return switch_statement(s);
  if (TIntermBranch* b = node->getAsBranchNode()) return branch_statement(b);
  // A constant statement (`ivec2(1, 2);`, folded by glslang) computes nothing.
  if (node->getAsConstantUnion()) return;
  if (TIntermTyped* t = node->getAsTyped()) {
    expr(t);
    return;
  }
  unsupported(node->getLoc(), "this kind of statement");
}

void Translator::if_statement(TIntermSelection* node) {
  const ir::Operand condition = rvalue(node->getCondition());
  if (failed_) return;
  locate(node);
  const bool has_else = node->getFalseBlock() != nullptr;
  auto blocks = builder_.branch_if(condition, has_else);
  if (!blocks) return error(node->getLoc(), fmt::format("internal error: {}", blocks.error()));
  bool reaches_merge = !has_else;
  builder_.set_block(blocks->true_block);
  statement(node->getTrueBlock());
  if (!terminated()) {
    terminate(ir::Opcode::Merge);
    reaches_merge = true;
  }
  if (has_else) {
    builder_.set_block(blocks->false_block);
    statement(node->getFalseBlock());
    if (!terminated()) {
      terminate(ir::Opcode::Merge);
      reaches_merge = true;
    }
  }
  builder_.set_block(blocks->merge);
  if (!reaches_merge) terminate(ir::Opcode::Unreachable);
}

void Translator::loop_statement(TIntermLoop* node) {
  locate(node);
  const bool do_loop = !node->testFirst();
  TIntermTyped* test = node->getTest();
  TIntermTyped* step = node->getTerminal();
  if (step && step->getAsConstantUnion()) step = nullptr;  // computes nothing: no continue block
  auto blocks = builder_.branch_loop(do_loop, step != nullptr);
  if (!blocks) return error(node->getLoc(), fmt::format("internal error: {}", blocks.error()));
  break_scopes_.push_back(BreakScope{false, false});
  bool endless = test == nullptr;
  auto condition = [&] {
    builder_.set_block(blocks->condition);
    ir::Operand c = ir::predefined::kTrue;
    if (test) c = rvalue(test);
    if (failed_) return;
    endless = is_constant_true(c);
    locate(test ? static_cast<TIntermNode*>(test) : node);
    terminate(ir::Opcode::LoopIf, c);
  };
  auto body = [&] {
    builder_.set_block(blocks->body);
    statement(node->getBody());
    if (!terminated()) terminate(ir::Opcode::Continue);
  };
  // Blocks are filled in source order: the for-header's condition and
  // step before the body (as the ANGLE README's dump numbers them), a
  // do-while's body before its condition.
  if (!do_loop) condition();
  if (step) {
    builder_.set_block(blocks->continue_block);
    expr(step);
    if (!terminated()) terminate(ir::Opcode::Continue);
  }
  body();
  if (do_loop) condition();
  const BreakScope scope = break_scopes_.back();
  break_scopes_.pop_back();
  builder_.set_block(blocks->merge);
  if (endless && !scope.has_break) terminate(ir::Opcode::Unreachable);
}

void Translator::switch_statement(TIntermSwitch* node) {
  TIntermTyped* selector_node = node->getCondition()->getAsTyped();
  const ir::Operand selector = rvalue(selector_node);
  if (failed_) return;
  // Each case label starts a case block holding the statements up to the
  // next label.
  struct Case {
    ir::SwitchCase label;
    std::vector<TIntermNode*> body;
  };
  std::vector<Case> cases;
  bool has_default = false;
  if (TIntermAggregate* body = node->getBody()) {
    for (TIntermNode* n : body->getSequence()) {
      TIntermBranch* b = n ? n->getAsBranchNode() : nullptr;
      if (b && (b->getFlowOp() == glslang::EOpCase || b->getFlowOp() == glslang::EOpDefault)) {
        Case c;
        if (b->getFlowOp() == glslang::EOpCase) {
          const TIntermConstantUnion* v = b->getExpression() ? b->getExpression()->getAsConstantUnion() : nullptr;
          if (!v) return unsupported(b->getLoc(), "a case label that is not a constant");
          const glslang::TConstUnion& u = v->getConstArray()[0];
          c.label.value = u.getType() == glslang::EbtUint ? u.getUConst() : static_cast<std::uint32_t>(u.getIConst());
        } else {
          has_default = true;
        }
        cases.push_back(std::move(c));
        continue;
      }
      if (cases.empty()) return unsupported(n->getLoc(), "a statement before the first case label");
      cases.back().body.push_back(n);
    }
  }
  std::vector<ir::SwitchCase> labels;
  for (const Case& c : cases) {
    labels.push_back(c.label);
    keep_case_const_locals(c.body);
  }
  locate(node);
  auto blocks = builder_.branch_switch(selector, labels);
  if (!blocks) return error(node->getLoc(), fmt::format("internal error: {}", blocks.error()));
  break_scopes_.push_back(BreakScope{true, false});
  for (std::size_t i = 0; i < cases.size() && !failed_; ++i) {
    builder_.set_block(blocks->cases[i]);
    statements(cases[i].body);
    if (terminated()) continue;
    if (i + 1 < cases.size()) {
      terminate(ir::Opcode::Passthrough);
    } else {
      terminate(ir::Opcode::Break);
      break_scopes_.back().has_break = true;
    }
  }
  const BreakScope scope = break_scopes_.back();
  break_scopes_.pop_back();
  builder_.set_block(blocks->merge);
  if (has_default && !scope.has_break) terminate(ir::Opcode::Unreachable);
}

void Translator::branch_statement(TIntermBranch* node) {
  switch (node->getFlowOp()) {
    case glslang::EOpKill:
    case glslang::EOpTerminateInvocation: terminate(ir::Opcode::Discard); return;
    case glslang::EOpBreak:
      if (!break_scopes_.empty()) break_scopes_.back().has_break = true;
      terminate(ir::Opcode::Break);
      return;
    case glslang::EOpContinue: terminate(ir::Opcode::Continue); return;
    case glslang::EOpReturn: {
      TIntermTyped* e = node->getExpression();
      if (!e || return_type == ir::predefined::kVoid) {
        if (e) expr(e);
        if (!failed_) terminate(ir::Opcode::Return);
        return;
      }
      ir::Operand v = coerce(rvalue(e), return_type, e);
      if (failed_) return;
      locate(node);
      terminate(ir::Opcode::Return, v);
      return;
    }
    case glslang::EOpDemote: emit(ir::Opcode::Demote, {}); return;
    default: return unsupported(node->getLoc(), "this branch statement");
  }
}

}  // namespace sluice::glsl_in::detail
