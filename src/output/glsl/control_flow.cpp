// The walk over the block tree and the constructs:
//   If       → if/else; with a merge input either a ternary (?:, &&, ||)
//              when both branches are bare expressions, or a temporary
//              assigned at the end of each branch.
//   Loop     → while (c) / for (init; c; step) when the condition chain is
//              one expression, else for (init;; step) { cond; if (!c) break; ... }.
//              The continue chain becomes the `for` step when it is only
//              expression statements (a ?: one included: its blocks write no
//              statement); otherwise it is placed before every
//              `continue` (including one inside a switch) and at the body's end.
//   DoLoop   → do { } while (c); a condition with statements is computed
//              with the continue chain before every `continue` into a flag.
//   Switch   → switch with fall-through (Passthrough) and braced cases
//              where a case declares names.
// Loop merge inputs (Break value) are temporaries assigned before `break`.
// The module is valid IR (emit() validates it first); where each jump goes
// is the scope model's (ir/structure.h), and only what GLSL cannot express
// (a Break or Continue in a do-loop's condition, a Continue nested in a
// continue chain) is reported here.
#include <fmt/format.h>

#include "ir/typing.h"
#include "output/glsl/expressions.h"
#include "output/glsl/function_emitter.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {
namespace detail {

using ir::BlockId;
using ir::Opcode;
using State = RegisterStates::State;

namespace {

// A struct or array (of them) that carries no layout of its own: no block,
// no explicit member offsets or matrix layouts, nothing opaque.
bool aggregate_without_layout(const EmitContext& ctx, ir::TypeId t) {
  const ir::Module& m = ctx.m;
  if (m.type(t).kind != ir::TypeKind::Struct && m.type(t).kind != ir::TypeKind::Array) return false;
  if (contains_opaque(ctx, t)) return false;
  std::vector<ir::TypeId> stack{t};
  while (!stack.empty()) {
    const ir::Type& ty = m.type(stack.back());
    stack.pop_back();
    if (ty.kind == ir::TypeKind::Array || ty.kind == ir::TypeKind::UnsizedArray) stack.push_back(ty.element);
    if (ty.kind != ir::TypeKind::Struct) continue;
    if (ty.is_block || ty.layout != ir::BlockLayout::None) return false;
    for (const ir::StructMember& member : ty.members) {
      if (member.offset || member.matrix_layout != ir::MatrixLayout::Default) return false;
      stack.push_back(member.type);
    }
  }
  return true;
}

// Whether `value` was read (whole, or as a part of what was read) through a
// pointer into a buffer, uniform block or push constant. glslang gives such
// a struct or array its block's laid-out SPIR-V type, and its ?: stores the
// operand into a temporary of the type without layout, which spirv-val
// rejects (spv.structCopy.comp). Operands read from Function, Private,
// Workgroup, Input, Output or loose uniform variables, and constructed or
// returned values, have the plain type: their ?: compiles correctly.
bool read_from_laid_out_block(const ir::Module& m, const ir::Function& f, const RegisterFacts& regs,
                              ir::Operand value) {
  while (value.is_register()) {
    const Site& d = regs.def[value.value()];
    if (d.index < 0) return false;  // a merge input or a parameter: a value of its own
    const ir::Instruction& inst = f.block(d.block).instructions[d.index];
    if (inst.opcode == Opcode::Load) {
      const ir::StorageClass s = m.type(m.type_of(inst.operands[0])).storage;
      return s == ir::StorageClass::StorageBuffer || s == ir::StorageClass::Uniform ||
             s == ir::StorageClass::PushConstant;
    }
    const ir::OpcodeFamily family = ir::info(inst.opcode).family;
    if (family != ir::OpcodeFamily::Extract && family != ir::OpcodeFamily::Alias) return false;
    value = inst.operands[0];
  }
  return false;
}

// glslang writes `c ? a : b` as an OpSelect, without blocks, when it is a
// scalar or vector and each operand is a constant or a variable's name
// (GlslangToSpv's selectPolicy); otherwise it branches, which matters beside
// sampler2D(t, s) (bind_branches_beside_sampler_construct). A Load the text
// spells as something else — a call (a return temporary) or a copy-back
// argument — is no name.
bool glslang_selects(const ir::Module& m, const ir::Function& f, const RegisterFacts& regs,
                     const VariableFacts& vars, ir::TypeId t, std::initializer_list<ir::Operand> operands) {
  if (!ir::is_scalar(m, t) && !ir::is_vector(m, t)) return false;
  for (const ir::Operand o : operands) {
    if (o.is_constant()) continue;
    if (!o.is_register() || regs.def[o.value()].index < 0) return false;
    const Site& d = regs.def[o.value()];
    const ir::Instruction& inst = f.block(d.block).instructions[d.index];
    if (inst.opcode != Opcode::Load || !inst.operands[0].is_variable()) return false;
    const std::uint32_t v = inst.operands[0].value();
    if (vars.return_temporary[v].valid() || vars.argument_target[v]) return false;
  }
  return true;
}

// A construct or a jump: nothing pending that touches memory may move past it.
const MemoryAccess kEverything{false, false, true, {}, {}};
}  // namespace

FunctionEmitter::FunctionEmitter(EmitContext& ctx, RegisterFacts& regs, VariableFacts& vars, RegisterStates& states,
                                 ir::FunctionId f)
    : ctx_(ctx), m_(ctx.m), id_(f), f_(ctx.m.function(f)), regs_(regs), vars_(vars), states_(states),
      names_(&ctx.globals) {}

bool FunctionEmitter::schedule_sub_chain(std::size_t frame_index) {
  const BlockId id = frames_[frame_index].block;
  const ir::Block& b = f_.block(id);
  const Opcode op = *b.terminator_opcode();
  if (!ir::is_divergent(op) || op == Opcode::NextBlock) return false;
  for (;;) {
    Frame& f = frames_[frame_index];
    const std::uint32_t step = f.step++;
    BlockId sub;
    ChainKind kind = ChainKind::Case;
    std::uint32_t slot = 0;
    if (op == Opcode::If) {
      if (step >= 2) return false;
      slot = step;
      sub = b.sub_blocks_storage[slot];
      kind = slot == 0 ? ChainKind::IfTrue : ChainKind::IfFalse;
    } else if (op == Opcode::Switch) {
      if (step >= b.case_blocks.size()) return false;
      slot = step;
      sub = b.case_blocks[slot];
    } else {
      // Continue chain first (its placement decides the condition's
      // `continue`s), then the condition, then the body.
      switch (step) {
        case 0: {
          LoopContext l;
          l.loop = id;
          loops_.push_back(std::move(l));
          continue;
        }
        case 1: slot = 2; kind = ChainKind::LoopContinue; break;
        case 2: after_continue_chain(f, b); continue;
        case 3: slot = 0; kind = ChainKind::LoopCondition; break;
        case 4: after_condition_chain(f, b); continue;
        case 5: slot = 1; kind = ChainKind::LoopBody; break;
        default: return false;
      }
      sub = b.sub_blocks_storage[slot];
    }
    if (f.subs.size() < 3 || f.subs.size() <= slot) f.subs.resize(std::max<std::size_t>({3, slot + 1, f.subs.size()}));
    if (!sub.valid()) continue;
    Frame child;
    child.kind = kind;
    child.construct = id;
    child.slot = slot;
    child.block = sub;
    child.result.chunk = doc_.new_chunk();
    child.result.present = true;
    frames_.push_back(std::move(child));  // invalidates f
    return true;
  }
}

void FunctionEmitter::finish_block(std::size_t frame_index) {
  Frame& f = frames_[frame_index];
  const BlockId id = f.block;
  const ir::Block& b = f_.block(id);
  begin_declarations(f, id, b);
  for (std::size_t k = 0; k + 1 < b.instructions.size(); ++k) instruction(f, id, k, b.instructions[k]);
  declare_through(f, b.declarations.size());
  terminator(f, id, b);
  const Opcode op = *b.terminator_opcode();
  if (ir::is_divergent(op)) {
    f.block = b.merge;
    f.step = 0;
    f.subs.clear();
    return;
  }
  f.result.end = op;
  ChainResult r = std::move(f.result);
  const std::uint32_t slot = f.slot;
  frames_.pop_back();
  if (frames_.empty()) {
    body_ = std::move(r);
    return;
  }
  Frame& parent = frames_.back();
  if (parent.subs.size() <= slot) parent.subs.resize(slot + 1);
  parent.subs[slot] = std::move(r);
}

void FunctionEmitter::walk() {
  Frame root;
  root.block = f_.entry;
  root.result.chunk = doc_.new_chunk();
  root.result.present = true;
  frames_.push_back(std::move(root));
  while (!frames_.empty() && !ctx_.failed()) {
    const std::size_t top = frames_.size() - 1;
    if (schedule_sub_chain(top)) continue;
    finish_block(top);
  }
}

void FunctionEmitter::terminator(Frame& f, BlockId id, const ir::Block& b) {
  const ir::Instruction& t = b.instructions.back();
  const bool has_operand = !t.operands.empty();
  switch (t.opcode) {
    case Opcode::Return:
      if (has_operand) {
        returns_value_ = true;
        statement(f, "return " + value_operand(f, t.operands[0], kEverything).text, false);
      } else if (!(f.kind == ChainKind::Entry && f_.return_type == ir::predefined::kVoid)) {
        statement(f, "return", false);
      }
      return;
    case Opcode::Break: return break_statement(f, id, t);
    case Opcode::Continue: return continue_statement(f, id);
    case Opcode::Passthrough: return;  // a case chain ends without `break`: C's fall-through
    case Opcode::LoopIf:
      f.result.value = value_operand(f, t.operands[0], kEverything);
      return;
    case Opcode::Merge:
      if (has_operand) {
        f.result.merged = t.operands[0];
        f.result.value = value_operand(f, t.operands[0], MemoryAccess{});
      }
      return;
    case Opcode::Discard: statement(f, "discard", false); return;
    case Opcode::Unreachable:
    case Opcode::NextBlock: return;
    case Opcode::If: return assemble_if(f, b);
    case Opcode::Loop:
    case Opcode::DoLoop: return assemble_loop(f, id, b);
    case Opcode::Switch: return assemble_switch(f, b);
    default: ctx_.fail(fmt::format("internal: {} ends a block", ir::name(t.opcode)));
  }
}

void FunctionEmitter::break_statement(Frame& f, BlockId id, const ir::Instruction& t) {
  const ir::BlockContext& c = a_.contexts[id.index()];
  if (!c.breaks_from_switch) {
    const LoopContext* l = innermost_loop();
    if (!l || l->loop != c.loop) return ctx_.fail("internal: Break does not target the innermost loop");
    if (c.loop_part == ir::BlockKind::LoopCondition && f_.block(c.loop).terminator_opcode() == Opcode::DoLoop)
      return ctx_.fail("Break inside a do-loop's condition chain cannot be expressed in GLSL");
  }
  const ir::RegisterId input = f_.block(c.break_target).merge_input;
  if (!t.operands.empty()) {  // the validator guarantees the target's merge input
    const Expr v = value_operand(f, t.operands[0], kEverything);
    statement(f, register_name(input) + " = " + operand_text(v, Prec::Assignment), true);
  }
  statement(f, "break", false);
}

void FunctionEmitter::continue_statement(Frame& f, BlockId id) {
  const ir::BlockContext& c = a_.contexts[id.index()];
  LoopContext* l = innermost_loop();
  if (!l || l->loop != c.loop) return ctx_.fail("internal: Continue outside its loop");
  const bool top_of_body = c.chain_kind == ir::BlockKind::LoopBody && c.construct == c.loop;
  switch (c.loop_part) {
    case ir::BlockKind::LoopContinue:
      if (c.chain_kind != ir::BlockKind::LoopContinue)
        ctx_.fail("Continue nested inside a loop's continue chain cannot be expressed in GLSL");
      return;
    case ir::BlockKind::LoopCondition:
      if (f_.block(c.loop).terminator_opcode() == Opcode::DoLoop)
        return ctx_.fail("Continue inside a do-loop's condition chain cannot be expressed in GLSL");
      break;
    default: break;
  }
  if (l->latch) {
    f.result.only_expressions = false;
    if (l->latch_declares) {
      doc_.line(f.result.chunk, "{");
      doc_.place(f.result.chunk, *l->latch, 1);
      doc_.line(f.result.chunk, "}");
    } else {
      doc_.place(f.result.chunk, *l->latch, 0);
    }
  }
  if (!top_of_body) statement(f, "continue", false);
}

void FunctionEmitter::after_continue_chain(Frame& f, const ir::Block& b) {
  LoopContext& l = loops_.back();
  const ChainResult& k = f.subs[2];
  if (b.terminator_opcode() == Opcode::Loop && k.present) {
    if (k.only_expressions && !k.expressions.empty()) {
      l.step = fmt::format("{}", fmt::join(k.expressions, ", "));
    } else if (!doc_.empty(k.chunk)) {
      l.latch = k.chunk;
      l.latch_declares = k.declares;
    }
  }
}

void FunctionEmitter::after_condition_chain(Frame& f, const ir::Block& b) {
  LoopContext& l = loops_.back();
  if (b.terminator_opcode() != Opcode::DoLoop) return;
  const ChainResult& k = f.subs[2];
  ChainResult& c = f.subs[0];
  const bool has_continue = k.present && !doc_.empty(k.chunk);
  if (doc_.empty(c.chunk)) {
    if (has_continue) {
      l.latch = k.chunk;
      l.latch_declares = k.declares;
    }
    return;
  }
  // The condition needs statements: run it (after the continue chain) before
  // every `continue` and at the body's end, into a flag `while` tests.
  if (!c.value) return ctx_.fail("a do-loop condition chain does not end with LoopIf");
  l.condition_flag = names_.take("loop_again", "loop_again");
  const ChunkId latch = doc_.new_chunk();
  if (has_continue) doc_.place(latch, k.chunk, 0);
  doc_.place(latch, c.chunk, 0);
  doc_.line(latch, l.condition_flag + " = " + operand_text(*c.value, Prec::Assignment) + ";");
  l.latch = latch;
  l.latch_declares = k.declares || c.declares;
}

void FunctionEmitter::assemble_if(Frame& f, const ir::Block& b) {
  const ir::RegisterId input = f_.block(b.merge).merge_input;
  ChainResult& t = f.subs[0];
  ChainResult* e = f.subs.size() > 1 && f.subs[1].present ? &f.subs[1] : nullptr;
  const ir::Operand cond = b.instructions.back().operands[0];
  // Scalars, vectors, matrices, and structs and arrays unless an operand
  // was read from a laid-out block (glslang's ?: copies it between layouts
  // wrongly; read_from_laid_out_block).
  const bool simple_type =
      input.valid() &&
      (ir::is_scalar(m_, m_.reg(input).type) || ir::is_vector(m_, m_.reg(input).type) ||
       ir::is_matrix(m_, m_.reg(input).type) ||
       (aggregate_without_layout(ctx_, m_.reg(input).type) && t.merged && e && e->merged &&
        !read_from_laid_out_block(m_, f_, regs_, *t.merged) && !read_from_laid_out_block(m_, f_, regs_, *e->merged)));
  if (simple_type && e && t.value && e->value && doc_.empty(t.chunk) && doc_.empty(e->chunk)) {
    Expr a = std::move(*t.value), z = std::move(*e->value);
    MemoryAccess branches = a.access;
    branches.merge(z.access);
    Expr c = value_operand(f, cond, branches);
    const bool boolean = m_.reg(input).type == ir::predefined::kBool;
    const bool short_circuit = boolean && (z.text == "false" || a.text == "true");
    Expr r = boolean && z.text == "false"  ? binary(c, "&&", a, Prec::LogicalAnd)
             : boolean && a.text == "true" ? binary(c, "||", z, Prec::LogicalOr)
                                           : conditional(c, a, z);
    r.access = c.access;
    r.access.merge(branches);
    r.depth = 1 + std::max({c.depth, a.depth, z.depth});
    r.branches = c.branches || a.branches || z.branches || short_circuit ||
                 !(t.merged && e->merged &&
                   glslang_selects(m_, f_, regs_, vars_, m_.reg(input).type, {*t.merged, *e->merged}));
    return define(f, input, std::move(r));
  }
  const Expr c = value_operand(f, cond, kEverything);
  if (input.valid()) {
    const ir::RegisterInfo& info = m_.reg(input);
    declaration_line(f, precision_prefix(ctx_, info.type, info.precision, false) +
                            declarator(ctx_, info.type, register_name(input)));
    states_.state[input.index()] = State::Bound;
    for (ChainResult* branch : {&t, e})
      if (branch && branch->value)
        doc_.line(branch->chunk, register_name(input) + " = " + operand_text(*branch->value, Prec::Assignment) + ";");
  }
  f.result.only_expressions = false;
  doc_.line(f.result.chunk, "if (" + c.text + ") {");
  doc_.place(f.result.chunk, t.chunk, 1);
  if (e && !doc_.empty(e->chunk)) {
    doc_.line(f.result.chunk, "} else {");
    doc_.place(f.result.chunk, e->chunk, 1);
  }
  doc_.line(f.result.chunk, "}");
}

void FunctionEmitter::assemble_switch(Frame& f, const ir::Block& b) {
  const ir::Operand selector = b.instructions.back().operands[0];
  const bool is_signed = m_.type_of(selector) == ir::predefined::kInt;
  const Expr s = value_operand(f, selector, kEverything);
  f.result.only_expressions = false;
  const ChunkId out = f.result.chunk;
  doc_.line(out, "switch (" + s.text + ") {");
  for (std::size_t i = 0; i < b.cases.size(); ++i) {
    const auto& value = b.cases[i].value;
    const std::string label = !value      ? std::string("default:")
                              : is_signed ? fmt::format("case {}:", static_cast<std::int32_t>(*value))
                                          : fmt::format("case {}u:", *value);
    const ChainResult& r = f.subs[i];
    if (r.declares) {
      doc_.line(out, label + " {", 1);
      doc_.place(out, r.chunk, 2);
      doc_.line(out, "}", 1);
    } else {
      doc_.line(out, label, 1);
      doc_.place(out, r.chunk, 2);
    }
    // GLSL wants a statement after the last label.
    if (i + 1 == b.cases.size() && doc_.empty(r.chunk)) doc_.line(out, "break;", 2);
  }
  doc_.line(out, "}");
}

void FunctionEmitter::assemble_loop(Frame& f, BlockId id, const ir::Block& b) {
  LoopContext l = std::move(loops_.back());
  loops_.pop_back();
  flush(f, {}, kEverything);
  const ir::RegisterId input = f_.block(b.merge).merge_input;
  if (input.valid()) {
    const ir::RegisterInfo& info = m_.reg(input);
    declaration_line(f, precision_prefix(ctx_, info.type, info.precision, false) +
                            declarator(ctx_, info.type, register_name(input)));
    states_.state[input.index()] = State::Bound;
  }
  ChainResult& c = f.subs[0];
  const ChainResult& body = f.subs[1];
  const ChunkId out = f.result.chunk;
  f.result.only_expressions = false;
  if (b.terminator_opcode() == Opcode::DoLoop) {
    if (!l.condition_flag.empty()) declaration_line(f, "bool " + l.condition_flag + " = false");
    doc_.line(out, "do {");
    doc_.place(out, body.chunk, 1);
    const std::string test = !l.condition_flag.empty() ? l.condition_flag : c.value ? c.value->text : "true";
    doc_.line(out, "} while (" + test + ");");
    return;
  }
  if (!c.value) return ctx_.fail("a loop condition chain does not end with LoopIf");
  const bool always = c.value->text == "true";
  std::string init = std::move(for_init_);
  for_init_.clear();
  if (const ir::VariableId v = a_.loop_init[id.index()]; v.valid() && init.empty())
    init = variable_declaration(v, m_.variable(v).initializer.valid()
                                       ? std::optional(constant_expr(ctx_, m_.variable(v).initializer).text)
                                       : std::nullopt);
  auto header = [&](const std::string& test) {
    return fmt::format("for ({};{};{}) {{", init, test.empty() ? "" : " " + test, l.step.empty() ? "" : " " + l.step);
  };
  if (doc_.empty(c.chunk)) {
    if (!init.empty() || !l.step.empty())
      doc_.line(out, header(always ? "" : c.value->text));
    else
      doc_.line(out, always ? std::string("for (;;) {") : "while (" + c.value->text + ") {");
  } else {
    doc_.line(out, header(""));
    doc_.place(out, c.chunk, 1);
    if (!always) doc_.line(out, "if (" + prefix_unary("!", *c.value).text + ") break;", 1);
  }
  doc_.place(out, body.chunk, 1);
  doc_.line(out, "}");
}

std::string FunctionEmitter::run() {
  a_ = analyse_function(ctx_, f_, regs_, vars_);
  if (ctx_.failed()) return {};
  for (const ir::FunctionParam& p : f_.params)
    ctx_.variable_names[p.variable.index()] = names_.take(m_.variable(p.variable).name.text, "p");
  for (ir::VariableId v : a_.locals) ctx_.variable_names[v.index()] = names_.take(m_.variable(v).name.text, "v");

  std::vector<std::string> params;
  for (const ir::FunctionParam& p : f_.params) {
    const ir::Variable& var = m_.variable(p.variable);
    const ir::TypeId t = ir::pointee(m_, var.type);
    const char* dir = p.direction == ir::ParamDirection::Out     ? "out "
                      : p.direction == ir::ParamDirection::InOut ? "inout "
                                                                 : "";
    params.push_back(dir + precision_prefix(ctx_, t, var.precision, true) +
                     declarator(ctx_, t, ctx_.variable_names[p.variable.index()]));
  }
  const std::string& name = ctx_.function_names[id_.index()];
  std::string text = precision_prefix(ctx_, f_.return_type, f_.return_precision, true) +
                     type_text(ctx_, f_.return_type) + " " + name + "(" + fmt::format("{}", fmt::join(params, ", ")) +
                     ") {\n";
  // Constant indices out of range (out_of_range_constant_index): a local
  // each, declared first, which GLSL does not count as a constant expression.
  ctx_.out_of_range_indices.clear();
  for (ir::BlockId id : a_.reachable)
    for (const ir::Instruction& inst : f_.block(id).instructions) {
      const auto c = out_of_range_constant_index(m_, inst);
      if (!c || std::any_of(ctx_.out_of_range_indices.begin(), ctx_.out_of_range_indices.end(),
                            [&](const auto& entry) { return entry.first == *c; }))
        continue;
      const std::string local = names_.take("out_of_range_index", "i");
      text += "    " + declarator(ctx_, m_.constant(*c).type, local) + " = " + constant_expr(ctx_, *c).text + ";\n";
      ctx_.out_of_range_indices.emplace_back(*c, local);
    }
  walk();
  if (ctx_.failed()) return {};
  if (f_.return_type != ir::predefined::kVoid && !returns_value_) {
    // Every path discards or never ends; GLSL ES still wants a return statement.
    const std::string undefined = names_.take("undefined_result", "undefined_result");
    doc_.line(body_.chunk, declarator(ctx_, f_.return_type, undefined) + ";");
    doc_.line(body_.chunk, "return " + undefined + ";");
  }
  doc_.render(body_.chunk, 1, text);
  text += "}\n";
  return text;
}

}  // namespace detail

std::string emit_function(EmitContext& ctx, RegisterFacts& regs, VariableFacts& vars, RegisterStates& states,
                          ir::FunctionId f) {
  return detail::FunctionEmitter(ctx, regs, vars, states, f).run();
}

}  // namespace sluice::glsl_out
