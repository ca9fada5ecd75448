// The IR interpreter (ir_interpreter.h). Block contexts (ir/structure.h)
// give each terminator its target; values follow the same conventions as
// the SPIR-V interpreter (wrap-around integers, 0 for division by zero).
#include "ir_interpreter.h"

#include <bit>
#include <cmath>
#include <stdexcept>

#include "ir/structure.h"
#include "ir/typing.h"

namespace sluice::testing {
namespace {

using ir::Opcode;
using ir::ScalarKind;

std::int32_t s32(std::uint32_t v) { return static_cast<std::int32_t>(v); }
float f32(std::uint32_t v) { return std::bit_cast<float>(v); }
std::uint32_t bits(float v) { return std::bit_cast<std::uint32_t>(v); }
std::uint32_t bits(std::int32_t v) { return static_cast<std::uint32_t>(v); }

std::uint32_t component(Opcode op, ScalarKind k, std::uint32_t a, std::uint32_t b) {
  const bool f = k == ScalarKind::Float, s = k == ScalarKind::Int;
  switch (op) {
    case Opcode::Add: return f ? bits(f32(a) + f32(b)) : a + b;
    case Opcode::Sub: return f ? bits(f32(a) - f32(b)) : a - b;
    case Opcode::Mul: return f ? bits(f32(a) * f32(b)) : a * b;
    case Opcode::Div:
      if (f) return bits(f32(a) / f32(b));
      if (b == 0 || (s && s32(a) == INT32_MIN && s32(b) == -1)) return 0;
      return s ? bits(s32(a) / s32(b)) : a / b;
    case Opcode::Mod: return bits(f32(a) - f32(b) * std::floor(f32(a) / f32(b)));
    case Opcode::BitwiseAnd: case Opcode::LogicalAnd: return a & b;
    case Opcode::BitwiseOr: case Opcode::LogicalOr: return a | b;
    case Opcode::BitwiseXor: case Opcode::LogicalXor: return a ^ b;
    case Opcode::BitShiftLeft: return b >= 32 ? 0 : a << b;
    case Opcode::BitShiftRight: return b >= 32 ? 0 : (s ? bits(s32(a) >> b) : a >> b);
    case Opcode::Equal: case Opcode::EqualComponentwise: return f ? f32(a) == f32(b) : a == b;
    case Opcode::NotEqual: case Opcode::NotEqualComponentwise: return f ? !(f32(a) == f32(b)) : a != b;
    case Opcode::LessThan: return f ? f32(a) < f32(b) : s ? s32(a) < s32(b) : a < b;
    case Opcode::GreaterThan: return f ? f32(a) > f32(b) : s ? s32(a) > s32(b) : a > b;
    case Opcode::LessThanEqual: return f ? f32(a) <= f32(b) : s ? s32(a) <= s32(b) : a <= b;
    case Opcode::GreaterThanEqual: return f ? f32(a) >= f32(b) : s ? s32(a) >= s32(b) : a >= b;
    case Opcode::Min: return f ? bits(std::fmin(f32(a), f32(b))) : s ? bits(std::min(s32(a), s32(b))) : std::min(a, b);
    case Opcode::Max: return f ? bits(std::fmax(f32(a), f32(b))) : s ? bits(std::max(s32(a), s32(b))) : std::max(a, b);
    default: throw std::runtime_error(std::string("unsupported opcode ") + std::string(ir::name(op)));
  }
}

struct Frame {
  ir::FunctionId function;
  ir::BlockId block;
  std::size_t pc = 0;
  ir::RegisterId result;  // the caller's Call result
};

class IrInterpreter {
 public:
  explicit IrInterpreter(const ir::Module& m) : m_(m), regs_(m.register_count()), vars_(m.variable_count()) {}
  IrRun run(const std::map<std::string, Words>& inputs, std::uint64_t max_steps);

 private:
  Words value(ir::Operand op) const;
  Words constant(ir::ConstantId c) const;
  const std::vector<ir::BlockContext>& contexts(ir::FunctionId f) {
    auto [it, inserted] = contexts_.emplace(f.index(), std::vector<ir::BlockContext>{});
    if (inserted) it->second = ir::compute_block_contexts(m_.function(f));
    return it->second;
  }
  void enter(Frame& frame, ir::BlockId b) {
    frame.block = b;
    frame.pc = 0;
    for (ir::VariableId v : m_.function(frame.function).block(b).declarations)
      if (m_.variable(v).initializer.valid()) vars_[v.index()] = constant(m_.variable(v).initializer);
  }
  void go(Frame& frame, ir::BlockId target, const ir::Instruction& term) {
    const ir::Block& t = m_.function(frame.function).block(target);
    if (t.merge_input.valid() && !term.operands.empty()) regs_[t.merge_input.index()] = value(term.operands[0]);
    enter(frame, target);
  }
  bool terminate(std::vector<Frame>& stack, IrRun& out);
  void execute(Frame& frame, const ir::Instruction& inst, std::vector<Frame>& stack);

  const ir::Module& m_;
  std::vector<Words> regs_, vars_;
  std::map<std::uint32_t, std::vector<ir::BlockContext>> contexts_;
};

Words IrInterpreter::constant(ir::ConstantId c) const {
  const ir::Constant& k = m_.constant(c);
  if (!k.is_composite()) return {k.bits};
  Words out;
  for (ir::ConstantId part : k.components) {
    const Words w = constant(part);
    out.insert(out.end(), w.begin(), w.end());
  }
  return out;
}

Words IrInterpreter::value(ir::Operand op) const {
  if (op.is_register()) return regs_[op.value()];
  if (op.is_constant()) return constant(op.as_constant());
  throw std::runtime_error("unsupported operand");
}

void IrInterpreter::execute(Frame& frame, const ir::Instruction& inst, std::vector<Frame>& stack) {
  auto result = [&](Words v) {
    if (inst.result.valid()) regs_[inst.result.index()] = std::move(v);
  };
  auto var = [&](ir::Operand p) -> Words& {
    if (!p.is_variable()) throw std::runtime_error("only variables are supported as pointers");
    return vars_[p.value()];
  };
  switch (inst.opcode) {
    case Opcode::Load: return result(var(inst.operands[0]));
    case Opcode::Store: var(inst.operands[0]) = value(inst.operands[1]); return;
    case Opcode::Alias: return result(value(inst.operands[0]));
    case Opcode::PrefixIncrement:
    case Opcode::PrefixDecrement:
    case Opcode::PostfixIncrement:
    case Opcode::PostfixDecrement: {
      Words& v = var(inst.operands[0]);
      const Words old = v;
      const bool up = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PostfixIncrement;
      const ScalarKind k = *ir::component_kind(m_, ir::pointee(m_, m_.type_of(inst.operands[0])));
      for (std::uint32_t& c : v) c = component(up ? Opcode::Add : Opcode::Sub, k, c, k == ScalarKind::Float ? bits(1.0f) : 1u);
      const bool prefix = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PrefixDecrement;
      return result(prefix ? v : old);
    }
    case Opcode::Call: {
      const ir::FunctionId callee = inst.operands[0].as_function();
      const ir::Function& f = m_.function(callee);
      for (std::size_t i = 0; i < f.params.size(); ++i) {
        if (f.params[i].direction != ir::ParamDirection::In) throw std::runtime_error("out parameters unsupported");
        vars_[f.params[i].variable.index()] = value(inst.operands[i + 1]);
      }
      Frame next{callee, f.entry, 0, inst.result};
      enter(next, f.entry);
      ++frame.pc;
      stack.push_back(next);
      return;
    }
    case Opcode::Negate: {
      Words v = value(inst.operands[0]);
      const ScalarKind k = *ir::component_kind(m_, m_.type_of(inst.operands[0]));
      for (std::uint32_t& c : v) c = k == ScalarKind::Float ? bits(-f32(c)) : 0u - c;
      return result(v);
    }
    case Opcode::LogicalNot: {
      Words v = value(inst.operands[0]);
      for (std::uint32_t& c : v) c = !c;
      return result(v);
    }
    case Opcode::BitwiseNot: {
      Words v = value(inst.operands[0]);
      for (std::uint32_t& c : v) c = ~c;
      return result(v);
    }
    case Opcode::Select: {
      const Words c = value(inst.operands[0]), a = value(inst.operands[1]), b = value(inst.operands[2]);
      Words v(a.size());
      for (std::size_t i = 0; i < v.size(); ++i) v[i] = (c.size() == 1 ? c[0] : c[i]) ? a[i] : b[i];
      return result(v);
    }
    case Opcode::ConstructScalarFromScalar: {
      const std::uint32_t v = value(inst.operands[0])[0];
      const ScalarKind from = *ir::component_kind(m_, m_.type_of(inst.operands[0]));
      const ScalarKind to = *ir::component_kind(m_, m_.reg(inst.result).type);
      if (from == ScalarKind::Int && to == ScalarKind::Float) return result({bits(static_cast<float>(s32(v)))});
      if (from == ScalarKind::Float && to == ScalarKind::Int) return result({bits(static_cast<std::int32_t>(f32(v)))});
      return result({v});
    }
    default: break;
  }
  if (inst.operands.size() == 2 && ir::info(inst.opcode).family == ir::OpcodeFamily::Binary) {
    const Words a = value(inst.operands[0]), b = value(inst.operands[1]);
    const ScalarKind k = *ir::component_kind(m_, m_.type_of(inst.operands[0]));
    Words v(a.size());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = component(inst.opcode, k, a[i], b.size() == 1 ? b[0] : b[i]);
    if (inst.opcode == Opcode::Equal || inst.opcode == Opcode::NotEqual) {
      bool all = true;
      for (std::uint32_t c : v) all = all && c;
      bool any = false;
      for (std::uint32_t c : v) any = any || c;
      v = {inst.opcode == Opcode::Equal ? all : any};
    }
    return result(v);
  }
  throw std::runtime_error(std::string("unsupported opcode ") + std::string(ir::name(inst.opcode)));
}

bool IrInterpreter::terminate(std::vector<Frame>& stack, IrRun& out) {
  Frame& frame = stack.back();
  const ir::Function& f = m_.function(frame.function);
  const ir::Block& b = f.block(frame.block);
  const ir::Instruction& term = b.instructions.back();
  const ir::BlockContext& ctx = contexts(frame.function)[frame.block.index()];
  auto cond = [&] { return value(term.operands[0])[0] != 0; };
  switch (term.opcode) {
    case Opcode::If: go(frame, cond() ? b.if_true() : (b.if_false().valid() ? b.if_false() : b.merge), term); return true;
    case Opcode::Loop: go(frame, b.loop_condition(), term); return true;
    case Opcode::DoLoop: go(frame, b.loop_body(), term); return true;
    case Opcode::NextBlock: go(frame, b.merge, term); return true;
    case Opcode::Switch: {
      const std::uint32_t sel = value(term.operands[0])[0];
      ir::BlockId target = b.merge;
      for (std::size_t i = 0; i < b.cases.size(); ++i)
        if (!b.cases[i].value) target = b.case_blocks[i];
      for (std::size_t i = 0; i < b.cases.size(); ++i)
        if (b.cases[i].value && *b.cases[i].value == sel) target = b.case_blocks[i];
      go(frame, target, term);
      return true;
    }
    case Opcode::Merge: go(frame, ctx.merge_target, term); return true;
    case Opcode::Break: go(frame, ctx.break_target, term); return true;
    case Opcode::Continue: {
      const ir::Block& loop = f.block(ctx.loop);
      const bool to_condition = ctx.in_continue || !loop.loop_continue().valid();
      go(frame, to_condition ? loop.loop_condition() : loop.loop_continue(), term);
      return true;
    }
    case Opcode::LoopIf: {
      const ir::Block& loop = f.block(ctx.loop);
      go(frame, cond() ? loop.loop_body() : loop.merge, term);
      return true;
    }
    case Opcode::Passthrough: {
      const ir::Block& sw = f.block(ctx.construct);
      std::size_t k = 0;
      while (sw.case_blocks[k] != ctx.chain_head) ++k;
      go(frame, k + 1 < sw.case_blocks.size() ? sw.case_blocks[k + 1] : sw.merge, term);
      return true;
    }
    case Opcode::Return: {
      Words v = term.operands.empty() ? Words{} : value(term.operands[0]);
      const ir::RegisterId result = frame.result;
      stack.pop_back();
      if (!stack.empty() && result.valid()) regs_[result.index()] = std::move(v);
      return true;
    }
    case Opcode::Discard: out.killed = true; stack.clear(); return true;
    default: out.error = std::string("reached ") + std::string(ir::name(term.opcode)); return false;
  }
}

IrRun IrInterpreter::run(const std::map<std::string, Words>& inputs, std::uint64_t max_steps) {
  IrRun out;
  try {
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      vars_[g.index()] = Words(std::max<std::uint32_t>(1, ir::component_count(m_, ir::pointee(m_, v.type))), 0);
      if (v.initializer.valid()) vars_[g.index()] = constant(v.initializer);
      if (auto in = inputs.find(v.name.text); in != inputs.end()) vars_[g.index()] = in->second;
    }
    const ir::FunctionId main = m_.entry_point();
    std::vector<Frame> stack{Frame{main, {}, 0, {}}};
    enter(stack.back(), m_.function(main).entry);
    while (!stack.empty()) {
      if (++out.steps > max_steps) {
        out.error = "step limit";
        return out;
      }
      Frame& frame = stack.back();
      const ir::Block& b = m_.function(frame.function).block(frame.block);
      if (frame.pc + 1 < b.instructions.size()) {
        const ir::Instruction& inst = b.instructions[frame.pc];
        if (inst.opcode != Opcode::Call) ++frame.pc;
        execute(frame, inst, stack);
      } else if (!terminate(stack, out)) {
        return out;
      }
    }
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (m_.type(v.type).storage == ir::StorageClass::Output) out.outputs[v.name.text] = vars_[g.index()];
    }
    out.ok = true;
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace

IrRun run_ir(const ir::Module& m, const std::map<std::string, Words>& inputs, std::uint64_t max_steps) {
  return IrInterpreter(m).run(inputs, max_steps);
}

}  // namespace sluice::testing
