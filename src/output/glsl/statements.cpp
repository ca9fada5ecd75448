// Declarations, instructions and operands: the straight-line part of the
// function emitter, including the pending-expression rules (see
// function_emitter.h) and compound assignments.
#include <algorithm>

#include <fmt/format.h>

#include "ir/operands.h"
#include "ir/typing.h"
#include "output/glsl/expressions.h"
#include "output/glsl/function_emitter.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {
namespace detail {

using ir::Opcode;
using ir::RegisterId;
using State = RegisterStates::State;

void FunctionEmitter::statement(Frame& f, std::string text, bool expression) {
  if (expression)
    f.result.expressions.push_back(text);
  else
    f.result.only_expressions = false;
  doc_.line(f.result.chunk, std::move(text) + ";");
}

void FunctionEmitter::declaration_line(Frame& f, std::string text) {
  f.result.declares = true;
  f.result.only_expressions = false;
  doc_.line(f.result.chunk, std::move(text) + ";");
}

const std::string& FunctionEmitter::register_name(RegisterId r) {
  std::string& name = states_.names[r.index()];
  if (name.empty()) name = names_.take(fmt::format("t{}", r.index()), "t");
  return name;
}

std::string FunctionEmitter::variable_name(ir::VariableId v) const {
  const std::string& name = ctx_.variable_names[v.index()];
  if (name.empty()) ctx_.fail(fmt::format("variable v{} has no name in function '{}'", v.index(), f_.name.text));
  return name;
}

std::string FunctionEmitter::variable_declaration(ir::VariableId v, std::optional<std::string> initializer) {
  const ir::Variable& var = m_.variable(v);
  const ir::TypeId t = ir::pointee(m_, var.type);
  std::string text = precision_prefix(ctx_, t, var.precision, true) + declarator(ctx_, t, variable_name(v));
  if (initializer) text += " = " + *initializer;
  return text;
}

void FunctionEmitter::begin_declarations(Frame& f, ir::BlockId id, const ir::Block& b) {
  decl_block_ = &b;
  decl_block_id_ = id;
  decl_next_ = 0;
  declare_until_store(f);
}

void FunctionEmitter::declare_through(Frame& f, std::size_t position) {
  const auto& list = decl_block_->declarations;
  for (; decl_next_ <= position && decl_next_ < list.size(); ++decl_next_) {
    const ir::VariableId v = list[decl_next_];
    if (vars_.for_init_of[v.index()].valid() || vars_.declared[v.index()]) continue;
    const ir::Variable& var = m_.variable(v);
    std::optional<std::string> init;
    if (var.initializer.valid()) init = constant_expr(ctx_, var.initializer).text;
    declaration_line(f, variable_declaration(v, init));
    vars_.declared[v.index()] = 1;
  }
}

void FunctionEmitter::declare_until_store(Frame& f) {
  const auto& list = decl_block_->declarations;
  while (decl_next_ < list.size()) {
    const ir::VariableId v = list[decl_next_];
    if (vars_.declare_at_store[v.index()] >= 0 && !vars_.declared[v.index()]) return;
    // `T v = constant;` names v where it stands: it waits for the uses of
    // the variables declared before it, so that a front end meets the
    // variables in Declare order again.
    if (m_.variable(v).initializer.valid() && !vars_.declared[v.index()] && !vars_.for_init_of[v.index()].valid())
      return;
    declare_through(f, decl_next_);
  }
}

// Before instruction `index`: declares the block's variables it names that
// are not declared yet (all earlier ones in Declare order with them).
void FunctionEmitter::declare_used(Frame& f, const ir::Instruction& inst, std::int32_t index) {
  const auto& list = decl_block_->declarations;
  for (std::size_t k = 0; k < inst.operands.size(); ++k) {
    const ir::Operand o = in_place(inst.operands[k]);
    if (!o.is_variable() || vars_.declared[o.value()] || vars_.declared_in[o.value()] != decl_block_id_) continue;
    if (vars_.for_init_of[o.value()].valid()) continue;
    const auto at = std::find(list.begin() + static_cast<std::ptrdiff_t>(decl_next_), list.end(), o.as_variable());
    if (at == list.end()) continue;
    const std::size_t position = static_cast<std::size_t>(at - list.begin());
    const bool its_store = inst.opcode == Opcode::Store && k == 0 && vars_.declare_at_store[o.value()] == index;
    if (!its_store || position > 0) declare_through(f, its_store ? position - 1 : position);
    if (its_store) decl_next_ = position;  // store() writes `T v = value;` and moves on
  }
}

std::vector<RegisterId> FunctionEmitter::consumed_by(std::span<const ir::Operand> operands) const {
  std::vector<RegisterId> out;
  std::vector<RegisterId>& stack = consumed_stack_;
  stack.clear();
  for (const ir::Operand& operand : operands)
    if (const ir::Operand o = in_place(operand); o.is_register()) stack.push_back(o.as_register());
  while (!stack.empty()) {
    const RegisterId r = stack.back();
    stack.pop_back();
    if (states_.state[r.index()] == State::Pending) {
      out.push_back(r);
    } else if ((regs_.must_inline[r.index()] || regs_.split_coordinate[r.index()]) &&
               regs_.def[r.index()].index >= 0) {
      const auto& d = regs_.def[r.index()];
      ir::for_each_register_use(f_.block(d.block).instructions[d.index], [&](RegisterId z) { stack.push_back(z); });
    }
  }
  return out;
}

// Whether `earlier` and `later` meet as operands of one instruction that
// spells its operands in order, `earlier` (through single uses in its
// block) to the left of `later` itself: the text then evaluates them in
// their order, as `f() == g()` does.
bool FunctionEmitter::spelled_before(RegisterId earlier, RegisterId later) const {
  if (regs_.uses[later.index()] != 1) return false;
  const Site& at = regs_.first_use[later.index()];
  if (at.index < 0 || at.block != regs_.def[later.index()].block) return false;
  const ir::Instruction& user = f_.block(at.block).instructions[at.index];
  const ir::OpcodeFamily family = ir::info(user.opcode).family;
  const bool in_order = user.opcode == Opcode::Store || family == ir::OpcodeFamily::Call ||
                        family == ir::OpcodeFamily::Construct ||
                        (family == ir::OpcodeFamily::Binary && user.opcode != Opcode::VectorTimesScalar &&
                         user.opcode != Opcode::MatrixTimesScalar) ||
                        (family == ir::OpcodeFamily::BuiltIn && user.opcode != Opcode::Select);
  if (!in_order) return false;
  // The operand that spells x, itself or inside a pointer spelled in place.
  const auto position = [&](RegisterId x) {
    for (std::size_t k = 0; k < user.operands.size(); ++k)
      for (ir::Operand o = user.operands[k];;) {
        if (o == ir::Operand(x)) return k;
        if (!o.is_register() || !regs_.must_inline[o.value()] || regs_.def[o.value()].index < 0) break;
        const ir::Instruction& d = f_.block(regs_.def[o.value()].block).instructions[regs_.def[o.value()].index];
        if (d.operands.size() > 1 && d.operands[1] == ir::Operand(x)) return k;
        o = d.operands[0];
      }
    return user.operands.size();
  };
  const std::size_t later_position = position(later);
  RegisterId x = earlier;
  for (std::uint32_t step = 0; step < kMaxInlineDepth; ++step) {
    if (regs_.uses[x.index()] != 1 || regs_.must_inline[x.index()]) return false;
    const Site& use = regs_.first_use[x.index()];
    if (use.block != at.block || use.index < 0 || use.index > at.index) return false;
    if (use.index == at.index) return position(x) < later_position;
    x = f_.block(use.block).instructions[use.index].result;
    if (!x.valid()) return false;
  }
  return false;
}

void FunctionEmitter::bind_out_of_order(Frame& f, const ir::Instruction& inst) {
  // What the text evaluates, in its order: each pending expression spans
  // the definitions it holds (those consumed into it, and pointer chains
  // spelled in place), from the first to its own; a pointer chain spelled
  // here spans itself, after its operands. Operands are spelled in order,
  // but `s * v` for a scalar computed first and mix() for Select.
  if (inst.opcode == Opcode::Select || inst.operands.size() < 2) return;
  const auto sequence = [&](ir::Operand o) { return regs_.def_sequence[o.value()]; };
  const auto held = [&](ir::Operand o) {
    if (!o.is_register()) return false;
    const State s = states_.state[o.value()];
    return s == State::Consumed || (s == State::Unset && regs_.must_inline[o.value()] && regs_.def[o.value()].index >= 0);
  };
  const auto definition = [&](ir::Operand o) -> const ir::Instruction& {
    const Site& d = regs_.def[o.value()];
    return f_.block(d.block).instructions[d.index];
  };
  // Scratch lists kept across instructions: this runs for every one.
  std::vector<ir::Operand>& held_stack = bind_scratch_.held;
  const auto first_held = [&](ir::Operand root) {
    std::uint32_t first = sequence(root);
    std::vector<ir::Operand>& stack = held_stack;
    stack.assign(1, root);
    while (!stack.empty()) {
      const ir::Operand o = stack.back();
      stack.pop_back();
      if (regs_.def[o.value()].index < 0) continue;
      for (const ir::Operand& x : definition(o).operands)
        if (const ir::Operand y = in_place(x); held(y)) {
          first = std::min(first, sequence(y));
          stack.push_back(y);
        }
    }
    return first;
  };
  using Span = OrderScratch::Span;
  using Item = OrderScratch::Item;
  std::vector<Span>& spans = bind_scratch_.spans;
  std::vector<Item>& stack = bind_scratch_.stack;
  spans.clear();
  stack.clear();
  for (auto it = inst.operands.rbegin(); it != inst.operands.rend(); ++it) stack.push_back({in_place(*it)});
  if ((inst.opcode == Opcode::VectorTimesScalar || inst.opcode == Opcode::MatrixTimesScalar) &&
      inst.operands[0].is_register() && inst.operands[1].is_register() &&
      sequence(inst.operands[1]) < sequence(inst.operands[0]))
    std::swap(stack[stack.size() - 1], stack[stack.size() - 2]);
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const ir::Operand o = item.o;
    if (!o.is_register()) continue;
    const RegisterId r = o.as_register();
    if (item.after_operands) {
      spans.push_back({RegisterId(), sequence(o), sequence(o)});
    } else if (states_.state[r.index()] == State::Pending) {
      // Forms spelled only inside their user (`p op= x`) keep their place.
      if (regs_.compound_value[r.index()]) return;
      ir::Operand spelled = o;
      if (regs_.implicit_splat[r.index()]) spelled = in_place(definition(o).operands[0]);  // its scalar
      if (spelled == o || held(spelled)) spans.push_back({r, first_held(spelled), sequence(spelled)});
    } else if (held(o)) {
      const ir::Instruction& d = definition(o);
      stack.push_back({o, true});
      for (auto it = d.operands.rbegin(); it != d.operands.rend(); ++it) stack.push_back({in_place(*it)});
    }
  }
  // Only an expression spelled after a pointer or opaque value defined
  // later counts: a GLSL front end loads those right where it uses them,
  // so the order is the IR's own. Pending expressions among themselves
  // keep their text order (readable, and the same values).
  std::uint32_t last_chain = 0, latest_out_of_order = 0;
  for (const Span& s : spans) {
    if (s.pending.valid() && s.first < last_chain) latest_out_of_order = std::max(latest_out_of_order, s.last);
    if (!s.pending.valid()) last_chain = std::max(last_chain, s.last);
  }
  if (latest_out_of_order == 0) return;
  std::vector<RegisterId> early;
  for (const Span& s : spans)
    if (s.pending.valid() && s.first <= latest_out_of_order) {
      if (regs_.implicit_splat[s.pending.index()]) return;  // a splat's text is not its type's
      early.push_back(s.pending);
    }
  std::sort(early.begin(), early.end(), [&](RegisterId a, RegisterId b) { return sequence(a) < sequence(b); });
  for (RegisterId r : early) bind(f, r, std::move(states_.pending[r.index()]));
}

void FunctionEmitter::flush(Frame& f, std::span<const RegisterId> consumed, const MemoryAccess& access,
                            RegisterId defining) {
  kept_before_.clear();
  if (access.empty() || f.pending.empty()) return;
  std::vector<RegisterId> keep;
  for (RegisterId r : f.pending) {
    if (states_.state[r.index()] != State::Pending) continue;
    const bool is_consumed = std::find(consumed.begin(), consumed.end(), r) != consumed.end();
    if (!is_consumed && states_.pending[r.index()].access.conflicts_with(access) &&
        !(defining.valid() && spelled_before(r, defining))) {
      bind(f, r, std::move(states_.pending[r.index()]));
      continue;
    }
    if (!is_consumed && states_.pending[r.index()].access.conflicts_with(access)) kept_before_.push_back(r);
    keep.push_back(r);
  }
  f.pending = std::move(keep);
}

Expr FunctionEmitter::value_operand(Frame& f, ir::Operand o, const MemoryAccess& access) {
  const std::vector<RegisterId> consumed = consumed_by(std::span(&o, 1));
  flush(f, consumed, access);
  return operand(o);
}

// The Function-storage variable a pointer operand points into (through
// Access chains), if any.
std::optional<ir::VariableId> FunctionEmitter::local_root(ir::Operand pointer) const {
  for (;;) {
    if (pointer.is_variable()) {
      const ir::Type& t = m_.type(m_.variable(pointer.as_variable()).type);
      if (t.kind == ir::TypeKind::Pointer && t.storage == ir::StorageClass::Function) return pointer.as_variable();
      return std::nullopt;
    }
    if (!pointer.is_register() || !regs_.must_inline[pointer.value()]) return std::nullopt;
    const Site& d = regs_.def[pointer.value()];
    if (d.index < 0) return std::nullopt;
    const ir::Instruction& inst = f_.block(d.block).instructions[d.index];
    if (inst.operands.empty()) return std::nullopt;
    pointer = inst.operands[0];
  }
}

MemoryAccess FunctionEmitter::own_access(const ir::Instruction& inst) const {
  MemoryAccess a;
  const Opcode op = inst.opcode;
  if (op == Opcode::Load) {
    if (auto v = local_root(inst.operands[0]))
      a.local_reads.push_back(v->index());
    else
      a.reads = load_reads_mutable_memory(ctx_, m_.type_of(inst.operands[0]));
    return a;
  }
  if (op == Opcode::ImageLoad) a.reads = true;
  if (!ir::info(op).has_side_effects) return a;
  // Writes through pointer operands (stores, increments, atomics, out
  // arguments); calls and barriers also touch global memory.
  bool through_pointer = false;
  for (const ir::Operand& operand : inst.operands) {
    const ir::Operand o = in_place(operand);
    const ir::TypeId t = m_.type_of(o);
    if (!t.valid() || m_.type(t).kind != ir::TypeKind::Pointer) continue;
    through_pointer = true;
    if (auto v = local_root(o)) {
      a.local_reads.push_back(v->index());
      a.local_writes.push_back(v->index());
    } else {
      a.reads = a.writes = true;
    }
  }
  if (op == Opcode::Call) {
    // What the callee writes besides its arguments: only what it (or a
    // function it calls) may write (call_effects.h).
    const ir::Operand callee = inst.operands[0];
    a.reads = true;
    a.writes = a.writes || !callee.is_function() || callee.value() >= ctx_.writes_memory.size() ||
               ctx_.writes_memory[callee.value()];
  } else if (!through_pointer) {
    a.reads = a.writes = true;
  }
  return a;
}

ir::Operand FunctionEmitter::in_place(ir::Operand o) const {
  if (o.is_variable() && vars_.argument_target[o.value()]) return *vars_.argument_target[o.value()];
  return o;
}

Expr FunctionEmitter::operand(ir::Operand o) {
  o = in_place(o);
  switch (o.kind()) {
    case ir::Operand::Kind::Register: {
      const RegisterId r = o.as_register();
      switch (states_.state[r.index()]) {
        case State::Bound: return Expr{states_.names[r.index()], Prec::Primary};
        case State::Pending: states_.state[r.index()] = State::Consumed; return std::move(states_.pending[r.index()]);
        case State::Consumed:
          ctx_.fail(fmt::format("internal: register r{} was inlined twice", r.index()));
          return Expr{"0"};
        case State::Unset:
          if (regs_.must_inline[r.index()] && regs_.def[r.index()].index >= 0) return inline_pointer(r);
          // A sub-chain is written before the instructions of the block that
          // owns it; a register it uses is defined there, used outside its
          // own chain, and so certain to be bound to this name.
          if (regs_.def[r.index()].block.valid()) return Expr{register_name(r), Prec::Primary};
          ctx_.fail(fmt::format("function '{}': register r{} is used before its definition", f_.name.text, r.index()));
          return Expr{"0"};
      }
      return Expr{"0"};
    }
    case ir::Operand::Kind::Constant: return constant_expr(ctx_, o.as_constant());
    case ir::Operand::Kind::Variable: {
      const VariableForm form = ctx_.variable_forms[o.value()];
      if (form == VariableForm::AnonymousBlock || form == VariableForm::BuiltInBlock) return Expr{""};
      return Expr{variable_name(o.as_variable()), Prec::Primary};
    }
    case ir::Operand::Kind::Function: return Expr{ctx_.function_names[o.value()], Prec::Primary};
    case ir::Operand::Kind::Literal: return Expr{std::to_string(o.value()), Prec::Primary};
  }
  return Expr{"0"};
}

// Pointers, opaque values and aliases are spelled again at every use; their
// chains (a.b[i].c) are composed here with an explicit stack.
Expr FunctionEmitter::inline_pointer(RegisterId r) {
  struct Work {
    const ir::Instruction* inst;
    std::vector<Expr> ops;
  };
  auto def_of = [&](RegisterId x) {
    const auto& d = regs_.def[x.index()];
    return &f_.block(d.block).instructions[d.index];
  };
  std::vector<Work> stack{{def_of(r), {}}};
  for (;;) {
    Work& top = stack.back();
    if (top.ops.size() < top.inst->operands.size()) {
      const ir::Operand o = top.inst->operands[top.ops.size()];
      if (o.is_register() && states_.state[o.value()] == State::Unset && regs_.must_inline[o.value()] &&
          regs_.def[o.value()].index >= 0) {
        stack.push_back(Work{def_of(o.as_register()), {}});
        continue;
      }
      top.ops.push_back(operand(o));
      continue;
    }
    Expr e = compose(ctx_, *top.inst, top.ops);
    stack.pop_back();
    if (stack.empty()) return e;
    stack.back().ops.push_back(std::move(e));
  }
}

void FunctionEmitter::bind(Frame& f, RegisterId r, Expr e) {
  const ir::RegisterInfo& info = m_.reg(r);
  const std::string name = register_name(r);
  // GLSL ES 3.10 keeps `const` for constant expressions.
  declaration_line(f, fmt::format("{}{}{} = {}", ctx_.es ? "" : "const ", precision_prefix(ctx_, info.type, info.precision, false),
                                  declarator(ctx_, info.type, name), operand_text(e, Prec::Assignment)));
  states_.state[r.index()] = State::Bound;
}

void FunctionEmitter::define(Frame& f, RegisterId r, Expr e, bool force_pending) {
  const std::uint8_t uses = regs_.uses[r.index()];
  if (uses == 0) {
    // A result nothing uses is still computed (a source's `sinh(x) + y;`);
    // bare names and literals are left out.
    if (e.access.has_effects() || e.depth > 0) statement(f, e.text, true);
    states_.state[r.index()] = State::Consumed;
    return;
  }
  const bool defer = force_pending || (uses == 1 && a_.same_chain(regs_.def[r.index()].block,
                                                                  regs_.first_use[r.index()].block) &&
                                       e.depth <= kMaxInlineDepth);
  if (!defer) {
    // What was kept pending to be spelled before r is named before it.
    for (RegisterId x : kept_before_)
      if (states_.state[x.index()] == State::Pending) bind(f, x, std::move(states_.pending[x.index()]));
    kept_before_.clear();
    return bind(f, r, std::move(e));
  }
  if (!e.pure()) {
    if (f.pending.size() >= kMaxPendingAccesses) {
      for (RegisterId old : f.pending)
        if (states_.state[old.index()] == State::Pending) {
          bind(f, old, std::move(states_.pending[old.index()]));
          break;
        }
      std::erase_if(f.pending, [&](RegisterId x) { return states_.state[x.index()] != State::Pending; });
    }
    f.pending.push_back(r);
  }
  states_.pending[r.index()] = std::move(e);
  states_.state[r.index()] = State::Pending;
}

void FunctionEmitter::store(Frame& f, ir::BlockId id, const ir::Instruction& inst, std::int32_t index) {
  const ir::Operand p = inst.operands[0], v = inst.operands[1];
  const std::vector<RegisterId> consumed = consumed_by(std::span<const ir::Operand>(inst.operands.data(), inst.operands.size()));
  flush(f, consumed, own_access(inst));
  if (p.is_variable() && vars_.for_init_of[p.value()] == id) {
    // `for (T v = value; ...)`: assemble_loop writes it.
    for_init_ = variable_declaration(p.as_variable(), operand_text(operand(v), Prec::Assignment));
    return;
  }
  if (p.is_variable() && !ctx_.is_global[p.value()] && vars_.declare_at_store[p.value()] == index &&
      vars_.declared_in[p.value()] == id && !vars_.declared[p.value()]) {
    const Expr value = operand(v);
    declaration_line(f, variable_declaration(p.as_variable(), operand_text(value, Prec::Assignment)));
    vars_.declared[p.value()] = 1;
    ++decl_next_;
    declare_until_store(f);
    return;
  }
  if (v.is_register() && regs_.compound_value[v.value()] && states_.state[v.value()] == State::Pending) {
    const auto& d = regs_.def[v.value()];
    const Opcode op = f_.block(d.block).instructions[d.index].opcode;
    const Expr rhs = operand(v);
    const Expr lhs = operand(p);
    statement(f, fmt::format("{} {}= {}", lhs.text, compound_operator(ctx_, op, m_.reg(v.as_register()).type),
                             operand_text(rhs, Prec::Assignment)),
              true);
    return;
  }
  if (v.is_register() && regs_.chained_stores[v.value()]) {
    // `p1 = value` waits for the last Store of the chain: `pN = ... = p1 = value`.
    chain_targets_.push_back(operand(p).text);
    if (chain_targets_.size() < regs_.chained_stores[v.value()]) return;
    std::string text;
    for (auto it = chain_targets_.rbegin(); it != chain_targets_.rend(); ++it) text += *it + " = ";
    chain_targets_.clear();
    statement(f, text + operand_text(operand(v), Prec::Assignment), true);
    return;
  }
  const Expr lhs = operand(p);
  const Expr value = operand(v);
  if (constant_extracted_next(id, index, inst)) {
    Expr e{fmt::format("({} = {})", lhs.text, operand_text(value, Prec::Assignment)), Prec::Primary};
    e.access = own_access(inst);
    e.access.merge(lhs.access);
    e.depth = 1;
    assigned_constant_ = std::move(e);
    return;
  }
  statement(f, fmt::format("{} = {}", lhs.text, operand_text(value, Prec::Assignment)), true);
}

bool FunctionEmitter::constant_extracted_next(ir::BlockId id, std::int32_t index, const ir::Instruction& store) const {
  const ir::Operand c = store.operands[1];
  const auto& list = f_.block(id).instructions;
  if (!c.is_constant() || static_cast<std::size_t>(index) + 2 >= list.size()) return false;
  const ir::Instruction& next = list[static_cast<std::size_t>(index) + 1];
  const RegisterId r = next.result;
  // Forms instruction() writes before reaching the operands are left alone.
  return ir::info(next.opcode).family == ir::OpcodeFamily::Extract && next.operands[0] == c && r.valid() &&
         !regs_.folded[r.index()] && !regs_.must_inline[r.index()] && !regs_.compound_load[r.index()] &&
         !regs_.compound_value[r.index()] && !regs_.implicit_splat[r.index()];
}

// glslang puts the OpSampledImage of `sampler2D(t, s)` in the block where it
// evaluates the argument, and the sampling after the blocks of a later ?:,
// && or || argument, which spirv-val rejects; such arguments get a name first.
void FunctionEmitter::bind_branches_beside_sampler_construct(Frame& f, const ir::Instruction& inst) {
  const ir::Operand image = inst.operands[0];
  if (!image.is_register() || !regs_.must_inline[image.value()] || regs_.def[image.value()].index < 0) return;
  const Site& d = regs_.def[image.value()];
  if (f_.block(d.block).instructions[d.index].opcode != Opcode::ConstructSampledImage) return;
  for (std::size_t i = 1; i < inst.operands.size(); ++i) {
    const ir::Operand o = inst.operands[i];
    if (o.is_register() && states_.state[o.value()] == State::Pending && states_.pending[o.value()].branches)
      bind(f, o.as_register(), std::move(states_.pending[o.value()]));
  }
}

// An access chain nothing uses, with constant indices (a `for` step
// `a.b[1]` computes just that): written as its own statement.
bool FunctionEmitter::unused_constant_access(RegisterId r) const {
  if (!regs_.must_inline[r.index()] || regs_.uses[r.index()] != 0) return false;
  // Not the base of a longer chain (whose uses are not counted either).
  if (regs_.used_in_def_block[r.index()]) return false;
  for (RegisterId x = r;;) {
    const Site& d = regs_.def[x.index()];
    if (d.index < 0) return false;
    const ir::Instruction& inst = f_.block(d.block).instructions[d.index];
    if (ir::info(inst.opcode).family != ir::OpcodeFamily::Access) return false;
    for (std::size_t k = 1; k < inst.operands.size(); ++k)
      if (inst.operands[k].is_register()) return false;
    if (!inst.operands[0].is_register()) return true;
    x = inst.operands[0].as_register();
  }
}

// An Extract from a vector or matrix Load of a local spelled in place,
// whose text would be an lvalue.
bool FunctionEmitter::extracts_from_loaded_value(const ir::Instruction& inst) const {
  switch (inst.opcode) {
    case Opcode::ExtractVectorComponent:
    case Opcode::ExtractVectorComponentDynamic:
    case Opcode::ExtractVectorComponentMulti:
    case Opcode::ExtractMatrixColumn: break;
    default: return false;
  }
  const ir::Operand base = inst.operands[0];
  if (!base.is_register() || states_.state[base.value()] != State::Pending) return false;
  const Site& d = regs_.def[base.value()];
  if (d.index < 0) return false;
  const ir::Instruction& load = f_.block(d.block).instructions[d.index];
  // Only locals: the reads of inputs and uniforms keep their plain form
  // (`gl_FragCoord.xy`), which reads the same value.
  if (load.opcode != Opcode::Load || !local_root(load.operands[0])) return false;
  const ir::TypeId t = m_.reg(base.as_register()).type;
  return ir::is_vector(m_, t) || ir::is_matrix(m_, t);
}

void FunctionEmitter::instruction(Frame& f, ir::BlockId id, std::size_t index, const ir::Instruction& inst) {
  const Opcode op = inst.opcode;
  const RegisterId r = inst.result;
  // The copies of a copy-back argument: the call names the argument. The
  // call itself stands where glslang's temporary for its value is read.
  if ((r.valid() && regs_.folded[r.index()]) ||
      (op == Opcode::Store && inst.operands[1].is_register() && regs_.folded[inst.operands[1].value()]))
    return;
  if (const RegisterId call = loaded_call_value(vars_, inst); call.valid()) return define(f, r, operand(call));
  if (op == Opcode::Store && inst.operands[0].is_variable() && vars_.return_temporary[inst.operands[0].value()].valid())
    return;
  if (r.valid() && regs_.split_coordinate[r.index()]) return;  // the sampling spells the vector
  declare_used(f, inst, static_cast<std::int32_t>(index));
  if (r.valid() && unused_constant_access(r)) return statement(f, inline_pointer(r).text, true);
  if (r.valid() && (regs_.must_inline[r.index()] || regs_.compound_load[r.index()])) return;
  if (op == Opcode::Store) return store(f, id, inst, static_cast<std::int32_t>(index));
  const MemoryAccess access = own_access(inst);
  const std::vector<RegisterId> consumed =
      consumed_by(std::span<const ir::Operand>(inst.operands.data(), inst.operands.size()));
  flush(f, consumed, access, r);
  if (op == Opcode::Demote) {
    ctx_.extensions.insert("GL_EXT_demote_to_helper_invocation");
    return statement(f, "demote", false);
  }
  if (!(r.valid() && regs_.compound_value[r.index()])) bind_out_of_order(f, inst);
  if (r.valid() && regs_.compound_value[r.index()]) {
    // V = L op X for "P op= X": only X is spelled; the Store adds the rest.
    const ir::Instruction& load = f_.block(regs_.def[inst.operands[0].value()].block)
                                      .instructions[regs_.def[inst.operands[0].value()].index];
    Expr x = operand(inst.operands[1]);
    x.access.merge(own_access(load));
    return define(f, r, std::move(x), true);
  }
  // An implicit splat is its scalar (the operation right after it spells it).
  if (r.valid() && regs_.implicit_splat[r.index()]) return define(f, r, operand(inst.operands[0]), true);
  if (ir::info(op).family == ir::OpcodeFamily::Texture) bind_branches_beside_sampler_construct(f, inst);
  const bool rvalue_base = extracts_from_loaded_value(inst);
  std::vector<Expr> ops;
  ops.reserve(inst.operands.size());
  for (const ir::Operand& o : inst.operands) {
    if (o.is_register() && regs_.split_coordinate[o.value()]) {
      // A split coordinate: the vector as the coordinate, an empty depth
      // reference (compose_texture; source_forms.h).
      const Site& d = regs_.def[o.value()];
      ops.push_back(&o == &inst.operands[1] ? operand(f_.block(d.block).instructions[d.index].operands[0]) : Expr{});
      continue;
    }
    ops.push_back(operand(o));
  }
  if (assigned_constant_) {
    ops[0] = std::move(*assigned_constant_);  // constant_extracted_next: this Extract follows its Store
    assigned_constant_.reset();
  }
  if (rvalue_base) {
    // `vec4(v)[i]`: a front end indexes the value, where `v[i]` would read
    // through a pointer into v.
    const ir::TypeId t = m_.reg(inst.operands[0].as_register()).type;
    ops[0].text = type_text(ctx_, t) + "(" + ops[0].text + ")";
    ops[0].prec = Prec::Postfix;
  }
  // A scalar computed before the vector it scales was written first in the source.
  const bool scalar_first = (op == Opcode::VectorTimesScalar || op == Opcode::MatrixTimesScalar) &&
                            inst.operands[0].is_register() && inst.operands[1].is_register() &&
                            regs_.def_sequence[inst.operands[1].value()] < regs_.def_sequence[inst.operands[0].value()];
  Expr e = compose(ctx_, inst, ops, scalar_first);
  e.access.merge(access);
  if (op == Opcode::Load && r.valid() && regs_.uses[r.index()] == 0) {
    // A value read and dropped: `float(a[0]);` reads, where `a[0];` would not.
    const ir::TypeId t = m_.reg(r).type;
    if (ir::is_scalar(m_, t) || ir::is_vector(m_, t) || ir::is_matrix(m_, t)) {
      e.text = type_text(ctx_, t) + "(" + e.text + ")";
      e.prec = Prec::Postfix;
      e.depth = std::max<std::uint32_t>(e.depth, 1);
    }
  }
  if (!r.valid()) return statement(f, std::move(e.text), true);
  define(f, r, std::move(e));
}

}  // namespace detail
}  // namespace sluice::glsl_out
