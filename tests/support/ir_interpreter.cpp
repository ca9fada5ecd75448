// The test IR interpreter (ir_interpreter.h). One loop steps the top frame:
// an instruction, or the block's terminator, which moves the frame to the
// block its jump targets (ir::compute_block_contexts gives Merge, Break,
// Continue, LoopIf and Passthrough their constructs), pushes a frame for a
// call or pops one on Return.
#include "ir_interpreter.h"

#include <fmt/format.h>

#include "ir/structure.h"
#include "ir/typing.h"
#include "ir_arithmetic.h"

namespace sluice::testing {
namespace {

using ir::Opcode;

struct Pointer {
  ir::VariableId var;
  std::vector<std::uint32_t> words;  // the words of the variable it covers, in order
};

struct Frame {
  ir::FunctionId function;
  ir::BlockId block;
  std::size_t pc = 0;
  ir::RegisterId result;  // the caller's Call result
  std::vector<std::pair<ir::VariableId, Pointer>> copy_back;  // out and inout parameters
};

// Thrown only inside this file, to unwind a step; run() turns it into
// IrRun::error.
struct Stop {
  std::string why;
};

class Interpreter {
 public:
  Interpreter(const ir::Module& m, std::uint64_t max_steps)
      : m_(m), max_steps_(max_steps), regs_(m.register_count()), ptrs_(m.register_count()),
        vars_(m.variable_count()), contexts_(m.function_count()) {}
  IrRun run(const std::map<std::string, Words>& inputs);

 private:
  [[noreturn]] static void stop(std::string why) { throw Stop{std::move(why)}; }

  const std::vector<ir::BlockContext>& contexts(ir::FunctionId f) {
    auto& c = contexts_[f.index()];
    if (!c) c = ir::compute_block_contexts(m_.function(f));
    return *c;
  }

  Value value(ir::Operand o) const {
    if (o.is_constant()) return Value{m_.constant(o.as_constant()).type, words_of(m_, o.as_constant())};
    if (o.is_register()) {
      if (regs_[o.value()].empty()) stop(fmt::format("r{} read before it is defined", o.value()));
      return Value{m_.reg(ir::RegisterId(o.value())).type, regs_[o.value()]};
    }
    if (o.is_literal()) return Value{{}, {o.value()}};
    stop("an operand that is not a value");
  }
  Pointer pointer(ir::Operand o) const {
    if (o.is_variable()) {
      auto size = flat_size(m_, ir::pointee(m_, m_.variable(o.as_variable()).type));
      if (!size) stop("a pointer to a variable without a flat value");
      Pointer p{o.as_variable(), {}};
      for (std::uint32_t i = 0; i < *size; ++i) p.words.push_back(i);
      return p;
    }
    if (o.is_register() && ptrs_[o.value()]) return *ptrs_[o.value()];
    stop("an operand that is not a pointer");
  }
  Words load(const Pointer& p) const {
    const Words& whole = vars_[p.var.index()];
    if (whole.empty()) stop(fmt::format("load of '{}', never written", m_.variable(p.var).name.text));
    Words out;
    for (std::uint32_t w : p.words) out.push_back(whole.at(w));
    return out;
  }
  void store(const Pointer& p, const Words& v) {
    Words& whole = vars_[p.var.index()];
    if (whole.empty()) {
      auto size = flat_size(m_, ir::pointee(m_, m_.variable(p.var).type));
      if (!size || p.words.size() != *size) stop("a partial store into a variable never written");
      whole.assign(*size, 0);
    }
    if (v.size() != p.words.size()) stop("a store of the wrong size");
    for (std::size_t i = 0; i < v.size(); ++i) whole[p.words[i]] = v[i];
  }
  void declare(ir::VariableId v) {
    const ir::ConstantId init = m_.variable(v).initializer;
    vars_[v.index()] = init.valid() ? words_of(m_, init) : Words{};
  }
  void enter(Frame& frame, ir::BlockId b) {
    frame.block = b;
    frame.pc = 0;
    for (ir::VariableId v : m_.function(frame.function).block(b).declarations) declare(v);
  }
  // Jumps to `target`, giving its merge input the value the jump carries.
  void go(Frame& frame, ir::BlockId target, const ir::Instruction* carrying = nullptr) {
    if (!target.valid()) stop("a jump without a target");
    const ir::RegisterId input = m_.function(frame.function).block(target).merge_input;
    if (input.valid()) {
      if (!carrying || carrying->operands.empty()) stop("a merge block with an input entered without a value");
      regs_[input.index()] = value(carrying->operands[0]).words;
    }
    enter(frame, target);
  }
  void call(Frame& caller, const ir::Instruction& inst, std::vector<Frame>& stack);
  void execute(const ir::Instruction& inst);
  void access(const ir::Instruction& inst);
  // Runs the terminator of the top frame's block; false when the run ends.
  bool terminate(std::vector<Frame>& stack, IrRun& out);

  const ir::Module& m_;
  std::uint64_t max_steps_;
  std::vector<Words> regs_;  // empty: not defined yet
  std::vector<std::optional<Pointer>> ptrs_;
  std::vector<Words> vars_;  // empty: never written
  std::vector<std::optional<std::vector<ir::BlockContext>>> contexts_;
};

void Interpreter::access(const ir::Instruction& inst) {
  Pointer base = pointer(inst.operands[0]);
  ir::TypeId type = ir::pointee(m_, m_.type_of(inst.operands[0]));
  Pointer p{base.var, {}};
  if (inst.opcode == Opcode::AccessVectorComponentMulti) {
    for (std::size_t i = 1; i < inst.operands.size(); ++i) {
      if (inst.operands[i].value() >= base.words.size()) stop("swizzle out of range");
      p.words.push_back(base.words[inst.operands[i].value()]);
    }
  } else {
    const ir::Operand index = inst.operands[1];
    const std::uint32_t i = index.is_literal() ? index.value() : value(index).words.at(0);
    auto part = part_of(m_, type, i);
    if (!part) stop(fmt::format("{} index {} out of range", ir::name(inst.opcode), i));
    auto size = flat_size(m_, part->type);
    if (!size) stop("access to a part without a flat value");
    p.words.assign(base.words.begin() + part->offset, base.words.begin() + part->offset + *size);
  }
  ptrs_[inst.result.index()] = std::move(p);
}

void Interpreter::execute(const ir::Instruction& inst) {
  if (ir::info(inst.opcode).family == ir::OpcodeFamily::Access) return access(inst);
  switch (inst.opcode) {
    case Opcode::Load: regs_[inst.result.index()] = load(pointer(inst.operands[0])); return;
    case Opcode::Store: store(pointer(inst.operands[0]), value(inst.operands[1]).words); return;
    case Opcode::Alias:
      if (inst.operands[0].is_variable() || (inst.operands[0].is_register() && ptrs_[inst.operands[0].value()]))
        ptrs_[inst.result.index()] = pointer(inst.operands[0]);
      else
        regs_[inst.result.index()] = value(inst.operands[0]).words;
      return;
    case Opcode::PrefixIncrement:
    case Opcode::PrefixDecrement:
    case Opcode::PostfixIncrement:
    case Opcode::PostfixDecrement: {
      const Pointer p = pointer(inst.operands[0]);
      const ir::TypeId type = ir::pointee(m_, m_.type_of(inst.operands[0]));
      const Words old = load(p);
      const bool up = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PostfixIncrement;
      const bool is_float = ir::component_kind(m_, type) == ir::ScalarKind::Float;
      const Value args[] = {{type, old}, {ir::component_type(m_, type), {is_float ? float_word(1.0f) : 1u}}};
      auto now = evaluate_operation(m_, up ? Opcode::Add : Opcode::Sub, type, args);
      if (!now) stop(now.error());
      store(p, *now);
      const bool prefix = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PrefixDecrement;
      regs_[inst.result.index()] = prefix ? *now : old;
      return;
    }
    default: break;
  }
  if (ir::info(inst.opcode).has_side_effects || !inst.result.valid())
    stop(fmt::format("{} is not modelled", ir::name(inst.opcode)));
  std::vector<Value> args;
  for (const ir::Operand& o : inst.operands) args.push_back(value(o));
  auto r = evaluate_operation(m_, inst.opcode, m_.reg(inst.result).type, args);
  if (!r) stop(fmt::format("{}: {}", ir::name(inst.opcode), r.error()));
  regs_[inst.result.index()] = std::move(*r);
}

void Interpreter::call(Frame& caller, const ir::Instruction& inst, std::vector<Frame>& stack) {
  const ir::FunctionId callee = inst.operands[0].as_function();
  const ir::Function& f = m_.function(callee);
  Frame next{callee, {}, 0, inst.result, {}};
  // Arguments are read before any parameter is written (a recursive call
  // would share the slots; GLSL has none).
  std::vector<Words> in(f.params.size());
  for (std::size_t i = 0; i < f.params.size(); ++i) {
    const ir::Operand arg = inst.operands[i + 1];
    if (f.params[i].direction == ir::ParamDirection::In) {
      in[i] = value(arg).words;
      continue;
    }
    Pointer p = pointer(arg);
    if (f.params[i].direction == ir::ParamDirection::InOut) in[i] = load(p);
    next.copy_back.emplace_back(f.params[i].variable, std::move(p));
  }
  for (std::size_t i = 0; i < f.params.size(); ++i) vars_[f.params[i].variable.index()] = in[i];
  ++caller.pc;
  enter(next, f.entry);
  stack.push_back(std::move(next));
}

bool Interpreter::terminate(std::vector<Frame>& stack, IrRun& out) {
  Frame& frame = stack.back();
  const ir::Function& f = m_.function(frame.function);
  const ir::Block& b = f.block(frame.block);
  const ir::Instruction& term = b.instructions.back();
  const ir::BlockContext& ctx = contexts(frame.function)[frame.block.index()];
  auto condition = [&] { return value(term.operands[0]).words.at(0) != 0; };
  switch (term.opcode) {
    case Opcode::If: {
      const ir::BlockId branch = condition() ? b.if_true() : b.if_false();
      go(frame, branch.valid() ? branch : b.merge);
      return true;
    }
    case Opcode::Loop: go(frame, b.loop_condition()); return true;
    case Opcode::DoLoop: go(frame, b.loop_body()); return true;
    case Opcode::NextBlock: go(frame, b.merge); return true;
    case Opcode::Switch: {
      const std::uint32_t selector = value(term.operands[0]).words.at(0);
      ir::BlockId target = b.merge;
      for (std::size_t i = 0; i < b.cases.size(); ++i)
        if (!b.cases[i].value) target = b.case_blocks[i];
      for (std::size_t i = 0; i < b.cases.size(); ++i)
        if (b.cases[i].value && *b.cases[i].value == selector) target = b.case_blocks[i];
      go(frame, target);
      return true;
    }
    case Opcode::Merge: go(frame, ctx.merge_target, &term); return true;
    case Opcode::Break: go(frame, ctx.break_target, &term); return true;
    case Opcode::Continue: {
      if (!ctx.loop.valid()) stop("Continue outside a loop");
      const ir::Block& loop = f.block(ctx.loop);
      const bool to_condition = ctx.in_continue || !loop.loop_continue().valid();
      go(frame, to_condition ? loop.loop_condition() : loop.loop_continue());
      return true;
    }
    case Opcode::LoopIf: {
      if (!ctx.loop.valid()) stop("LoopIf outside a loop");
      const ir::Block& loop = f.block(ctx.loop);
      go(frame, condition() ? loop.loop_body() : loop.merge);
      return true;
    }
    case Opcode::Passthrough: {
      const ir::Block& sw = f.block(ctx.construct);
      std::size_t k = 0;
      while (k < sw.case_blocks.size() && sw.case_blocks[k] != ctx.chain_head) ++k;
      go(frame, k + 1 < sw.case_blocks.size() ? sw.case_blocks[k + 1] : sw.merge);
      return true;
    }
    case Opcode::Return: {
      Words v = term.operands.empty() ? Words{} : value(term.operands[0]).words;
      Frame done = std::move(stack.back());
      stack.pop_back();
      for (const auto& [param, target] : done.copy_back)
        if (!vars_[param.index()].empty()) store(target, vars_[param.index()]);
      if (!stack.empty() && done.result.valid()) {
        if (v.empty()) stop("a call's result from a Return without a value");
        regs_[done.result.index()] = std::move(v);
      }
      return true;
    }
    case Opcode::Discard:
      out.killed = true;
      stack.clear();
      return true;
    default: stop(fmt::format("reached {}", ir::name(term.opcode)));
  }
}

IrRun Interpreter::run(const std::map<std::string, Words>& inputs) {
  IrRun out;
  try {
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (v.initializer.valid()) declare(g);
      auto in = inputs.find(v.name.text);
      if (in == inputs.end() && !v.decorations.built_in.empty()) in = inputs.find(v.decorations.built_in);
      if (in != inputs.end()) vars_[g.index()] = in->second;
    }
    const ir::FunctionId main = m_.entry_point();
    if (!main.valid()) stop("no entry point");
    std::vector<Frame> stack{Frame{main, {}, 0, {}, {}}};
    enter(stack.back(), m_.function(main).entry);
    while (!stack.empty()) {
      if (++out.steps > max_steps_) stop(fmt::format("more than {} steps (an endless loop?)", max_steps_));
      Frame& frame = stack.back();
      const ir::Block& b = m_.function(frame.function).block(frame.block);
      if (b.instructions.empty()) stop("an empty block");
      if (frame.pc + 1 >= b.instructions.size()) {
        terminate(stack, out);
        continue;
      }
      const ir::Instruction& inst = b.instructions[frame.pc];
      if (inst.opcode == Opcode::Call) {
        call(frame, inst, stack);  // `frame` may move
        continue;
      }
      execute(inst);
      ++frame.pc;
    }
    for (ir::VariableId g : m_.globals()) {
      const ir::Variable& v = m_.variable(g);
      if (m_.type(v.type).storage != ir::StorageClass::Output) continue;
      Words w = vars_[g.index()];
      if (w.empty()) w.assign(flat_size(m_, ir::pointee(m_, v.type)).value_or(0), 0);
      out.outputs[v.name.text] = std::move(w);
    }
    out.ok = true;
  } catch (const Stop& s) {
    out.error = s.why;
  }
  for (const Words& w : vars_) out.variables.push_back(w.empty() ? std::nullopt : std::optional<Words>(w));
  return out;
}

}  // namespace

IrRun run_ir(const ir::Module& m, const std::map<std::string, Words>& inputs, std::uint64_t max_steps) {
  return Interpreter(m, max_steps).run(inputs);
}

std::string global_text(const ir::Module& m, const IrRun& run, const std::string& name) {
  if (run.killed) return "discarded";
  for (ir::VariableId g : m.globals()) {
    const ir::Variable& v = m.variable(g);
    if (v.name.text != name) continue;
    if (g.index() >= run.variables.size() || !run.variables[g.index()]) return "undefined";
    return text_of(m, ir::pointee(m, v.type), *run.variables[g.index()]);
  }
  return "no global " + name;
}

}  // namespace sluice::testing
