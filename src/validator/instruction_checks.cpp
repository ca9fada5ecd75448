// Per-instruction checks (see instruction_checks.h). Each runs only on what
// the checks before it found usable, so that ir::infer_result_type() never
// sees an id out of range, a malformed type or an operand kind it does not
// expect (it indexes its operands and types without guards of its own).
#include "validator/instruction_checks.h"

#include <fmt/format.h>

#include "ir/texture.h"
#include "ir/typing.h"

namespace sluice::validator::detail {
namespace {

using ir::Opcode;
using ir::Operand;

const char* kind_word(Operand::Kind k) {
  switch (k) {
    case Operand::Kind::Register: return "r";
    case Operand::Kind::Constant: return "c";
    case Operand::Kind::Variable: return "v";
    case Operand::Kind::Function: return "f";
    case Operand::Kind::Literal: return "";
  }
  return "?";
}

// Ids in range; registers and variables visible at this point of the tree.
// Returns true when every id exists.
bool check_operand_ids(Context& ctx, Scopes& scopes, const ir::Instruction& inst, const Where& w) {
  const ir::Module& m = ctx.m;
  bool all_exist = true;
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand o = inst.operands[i];
    std::size_t limit = 0;
    switch (o.kind()) {
      case Operand::Kind::Register: limit = m.register_count(); break;
      case Operand::Kind::Constant: limit = m.constant_count(); break;
      case Operand::Kind::Variable: limit = m.variable_count(); break;
      case Operand::Kind::Function: limit = m.function_count(); break;
      case Operand::Kind::Literal: continue;
    }
    if (o.value() >= limit) {
      ctx.report(fmt::format("operand {}: {}{} does not exist", i, kind_word(o.kind()), o.value()), w);
      all_exist = false;
      continue;
    }
    if (o.is_register()) scopes.use_register(o.as_register(), w);
    if (o.is_variable()) scopes.use_variable(o.as_variable(), w);
  }
  return all_exist;
}

// Literals only as component/field indices, functions only as Call's
// callee (the operand roles of opcode.def); every other operand is a value.
bool check_operand_kinds(Context& ctx, const ir::Instruction& inst, const Where& w) {
  bool ok = true;
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    const Operand o = inst.operands[i];
    const ir::OperandRole role = ir::operand_role(inst.opcode, i);
    if (o.is_literal() && role != ir::OperandRole::Literal) {
      ctx.report(fmt::format("operand {} of {} is a literal, not a value", i, opcode_name(inst)), w);
      ok = false;
    } else if (o.is_function() && role != ir::OperandRole::Callee) {
      ctx.report(
          fmt::format("operand {} of {} is a function; only Call's operand 0 names a function", i, opcode_name(inst)),
          w);
      ok = false;
    }
  }
  return ok;
}

// Counts the table (or, for Texture, the flags) allows. infer_result_type()
// checks the others itself, but indexes Texture's operand 0 unguarded.
bool check_operand_count(Context& ctx, const ir::Instruction& inst, const ir::OpcodeInfo& oi, const Where& w) {
  const std::size_t n = inst.operands.size();
  if (inst.opcode == Opcode::Texture) {
    if (inst.aux & ~std::uint16_t{0xFF}) {
      ctx.report(fmt::format("Texture has unknown flags 0x{:x}", inst.aux & ~0xFFu), w);
      return false;
    }
    const std::size_t want = ir::texture_operand_count(inst.aux);
    if (n != want) {
      ctx.report(fmt::format("{} takes {} operands, {} given", opcode_name(inst), want, n), w);
      return false;
    }
    return true;
  }
  if (inst.aux != 0) {
    ctx.report(fmt::format("{} has aux flags 0x{:x}; only Texture has flags", oi.name, inst.aux), w);
    return false;
  }
  if (n < oi.min_operands || (!oi.variadic_tail && n > oi.max_operands)) {
    ctx.report(
        fmt::format("{} takes {} operands, {} given", oi.name,
                    oi.min_operands == oi.max_operands ? fmt::format("{}", oi.min_operands)
                                                       : fmt::format("{} to {}", oi.min_operands, oi.max_operands),
                    n),
        w);
    return false;
  }
  return true;
}

bool operand_usable(const Context& ctx, Operand o) {
  switch (o.kind()) {
    case Operand::Kind::Register: return ctx.register_ok[o.value()] != 0;
    case Operand::Kind::Constant: return ctx.constant_ok[o.value()] != 0;
    case Operand::Kind::Variable: return ctx.variable_ok[o.value()] != 0;
    case Operand::Kind::Function: return ctx.function_ok[o.value()] != 0;
    case Operand::Kind::Literal: return true;
  }
  return false;
}

std::string inferred_type_name(const Context& ctx, const ir::CheckedType& t) {
  if (t.type.index() < ctx.m.type_count()) return ctx.type_name(t.type);
  return ir::describe_type(ctx.m, t.type, t.missing);  // derived while typing: a well-formed type
}

// Result type against the opcode's type rule; void rules have no result.
// ir::check_result_type reads the input as it is (no types are added).
void check_instruction_types(Context& ctx, const ir::Instruction& inst, const ir::OpcodeInfo& oi, const Where& w) {
  for (Operand o : inst.operands)
    if (!operand_usable(ctx, o)) return;  // reported with the operand's entity
  const bool has_result = inst.has_result();
  if (has_result && !ctx.register_ok[inst.result.index()]) return;
  const ir::TypeId result_type = has_result ? ctx.m.reg(inst.result).type : ir::TypeId{};
  const ir::TypeId explicit_type = oi.type_rule == ir::TypeRule::Explicit ? result_type : ir::TypeId{};
  auto inferred =
      ir::check_result_type(ctx.m, inst.opcode, inst.aux,
                            std::span<const Operand>(inst.operands.data(), inst.operands.size()), explicit_type);
  if (!inferred) {
    ctx.report(inferred.error(), w);
    return;
  }
  const ir::TypeId t = inferred->type;
  if (t == ir::predefined::kVoid) {
    if (has_result)
      ctx.report(fmt::format("{} gives no value, but has result r{}", opcode_name(inst), inst.result.index()), w);
    return;
  }
  if (!has_result) {
    ctx.report(fmt::format("{} gives a value of type {}, but has no result register", opcode_name(inst),
                           inferred_type_name(ctx, *inferred)),
               w);
    return;
  }
  if (t != result_type)
    ctx.report(fmt::format("result r{} has type {}, but {} gives {}", inst.result.index(), ctx.type_name(result_type),
                           opcode_name(inst), inferred_type_name(ctx, *inferred)),
               w);
}

// Uniform and push-constant blocks, inputs and opaque handles are read-only
// (SPIR-V spec 2.16.2 and Vulkan's VUID-StandaloneSpirv-... rules on
// stores; GLSL 4.60 §4.3.3-4.3.7: uniforms and inputs are read-only), so no
// operand whose role writes through a pointer (opcode.def: Store's target,
// atomics, modf's out pointer) may point there.
void check_writable_pointers(Context& ctx, const ir::Instruction& inst, const Where& w) {
  for (std::size_t i = 0; i < inst.operands.size(); ++i) {
    if (!ir::writes_through(ir::operand_role(inst.opcode, i))) continue;
    const ir::TypeId t = ctx.usable_operand_type(inst.operands[i]);
    if (!t.valid() || ctx.m.type(t).kind != ir::TypeKind::Pointer) continue;
    const ir::StorageClass storage = ctx.m.type(t).storage;
    if (ir::is_read_only(storage))
      ctx.report(fmt::format("operand {} of {} writes through a pointer to {} storage, which is read-only", i,
                             opcode_name(inst), ir::to_string(storage)),
                 w);
  }
}

// Terminators: no result; If and LoopIf test a bool, Switch an int or uint.
// (Return, Merge and Break values depend on the enclosing blocks and are
// checked in structure_checks.cpp.)
void check_terminator_operands(Context& ctx, const ir::Instruction& inst, const Where& w) {
  if (inst.has_result())
    ctx.report(fmt::format("{} has result r{}; terminators give no value", opcode_name(inst), inst.result.index()), w);
  if (inst.operands.empty()) return;
  const ir::TypeId t = ctx.usable_operand_type(inst.operands[0]);
  if (!t.valid()) return;
  switch (inst.opcode) {
    case Opcode::If:
    case Opcode::LoopIf:
      if (t != ir::predefined::kBool)
        ctx.report(fmt::format("{} condition has type {}, not bool", opcode_name(inst), ctx.type_name(t)), w);
      break;
    case Opcode::Switch:
      if (t != ir::predefined::kInt && t != ir::predefined::kUint)
        ctx.report(fmt::format("Switch selector has type {}, not int or uint", ctx.type_name(t)), w);
      break;
    default: break;
  }
}

}  // namespace

std::string opcode_name(const ir::Instruction& inst) {
  if (!ir::is_known(inst.opcode)) return fmt::format("<opcode {}>", static_cast<std::uint32_t>(inst.opcode));
  if (inst.opcode == Opcode::Texture) return ir::texture_opcode_name(inst.aux);
  return std::string(ir::name(inst.opcode));
}

void check_instruction(Context& ctx, Scopes& scopes, const ir::Instruction& inst, const Where& w) {
  if (!ir::is_known(inst.opcode)) {
    ctx.report(fmt::format("unknown opcode {}", static_cast<std::uint32_t>(inst.opcode)), w);
    // Its result still counts as defined, so that its users do not add
    // problems of their own.
    if (inst.has_result() && inst.result.index() < ctx.m.register_count()) scopes.define_register(inst.result, w);
    return;
  }
  const ir::OpcodeInfo& oi = ir::info(inst.opcode);
  const bool ids_exist = check_operand_ids(ctx, scopes, inst, w);
  const bool kinds_ok = check_operand_kinds(ctx, inst, w);
  const bool count_ok = check_operand_count(ctx, inst, oi, w);
  bool result_exists = true;
  if (inst.has_result() && inst.result.index() >= ctx.m.register_count()) {
    ctx.report(fmt::format("result r{} does not exist", inst.result.index()), w);
    result_exists = false;
  }
  if (oi.family == ir::OpcodeFamily::Control) {
    if (ids_exist && kinds_ok && count_ok) check_terminator_operands(ctx, inst, w);
  } else if (ids_exist && kinds_ok && count_ok && result_exists) {
    check_instruction_types(ctx, inst, oi, w);
    check_writable_pointers(ctx, inst, w);
  }
  if (inst.opcode == Opcode::Call && !inst.operands.empty() && inst.operands[0].is_function() &&
      inst.operands[0].value() < ctx.m.function_count())
    ctx.callees[w.function.index()].push_back(inst.operands[0].value());
  if (inst.has_result() && result_exists) scopes.define_register(inst.result, w);
}

}  // namespace sluice::validator::detail
