// Constant folding: every unary, binary, built-in, constructor and extract
// instruction whose operands are all constants becomes that constant.
//
// Algorithm: one pre-order transform_block walk per function. A register is
// always defined before it is used in pre-order, so each instruction looks
// at its operands through the Substitution of the registers folded so far
// (cascades fold in the same walk); a foldable instruction is evaluated
// (fold.h), its register recorded as replaced by the interned constant, and
// the instruction removed. One sweep then rewrites the uses, terminators'
// operands (If conditions, Merge values) included. Linear in instructions;
// constants are interned through the module's hash table.
//
// Also: Select on a constant condition becomes the chosen operand, even
// when that operand is not a constant; an Alias of a constant becomes the
// constant; a float division by a constant becomes a multiplication by its
// reciprocal (by_reciprocal() says when).
#include <cmath>

#include "transform/fold.h"
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

bool foldable_family(Opcode op) {
  // An alias of a constant is that constant.
  return is_pure_computation(op) || (info(op).family == OpcodeFamily::Alias && !info(op).has_side_effects);
}

// select(c, a, b) with a constant c whose components all agree.
std::optional<Operand> chosen_by_select(const Module& m, std::span<const Operand> ops, TypeId result_type) {
  if (ops.size() != 3 || !ops[0].is_constant()) return std::nullopt;
  if (fold::depends_on_spec_constant(m, ops[0].as_constant())) return std::nullopt;
  const Constant& c = m.constant(ops[0].as_constant());
  std::optional<bool> all;
  if (!c.is_composite()) {
    all = c.as_bool();
  } else {
    for (ConstantId part : c.components) {
      const bool b = m.constant(part).as_bool();
      if (all && *all != b) return std::nullopt;
      all = b;
    }
  }
  if (!all) return std::nullopt;
  const Operand pick = *all ? ops[1] : ops[2];
  if (m.type_of(pick) != result_type) return std::nullopt;
  return pick;
}

// x / c, for a float32 constant c, as x * (1 / c). Vulkan lets OpFDiv be
// off by 2.5 ULP when the divisor's magnitude is in [2^-126, 2^126]
// (Vulkan 1.3, "Precision and Operation of SPIR-V Instructions"); the
// product with the rounded reciprocal is off by at most about 1 ULP, so it
// is one of the results the division may give, and what drivers and
// spirv-opt compute for it anyway. A divisor outside that range, a
// specialization constant and doubles keep the division.
std::optional<Operand> reciprocal_of(Module& m, Operand divisor, TypeId type) {
  if (!divisor.is_constant() || fold::depends_on_spec_constant(m, divisor.as_constant())) return std::nullopt;
  const Type& t = m.type(type);
  const TypeId scalar = t.kind == TypeKind::Vector ? t.element : type;
  if (m.type(scalar).kind != TypeKind::Scalar || m.type(scalar).scalar != ScalarKind::Float ||
      m.type(scalar).width != 32)
    return std::nullopt;
  auto one_over = [&](ConstantId c) -> std::optional<ConstantId> {
    const float f = m.constant(c).as_float();
    const float magnitude = std::fabs(f);
    if (!(magnitude >= 0x1p-126f && magnitude <= 0x1p126f)) return std::nullopt;  // NaN fails too
    return m.float_constant(1.0f / f);
  };
  const Constant& c = m.constant(divisor.as_constant());
  if (!c.is_composite()) {
    const auto r = one_over(divisor.as_constant());
    return r ? std::optional<Operand>(Operand(*r)) : std::nullopt;
  }
  std::vector<ConstantId> parts;
  for (ConstantId part : std::vector<ConstantId>(c.components.begin(), c.components.end())) {
    const auto r = one_over(part);
    if (!r) return std::nullopt;
    parts.push_back(*r);
  }
  return Operand(m.composite_constant(type, parts));
}

}  // namespace

PassResult fold_constants(Module& m) {
  bool changed = false;
  auto s = transform::for_each_function(
      m, [](FunctionId) { return true; },
      [&](FunctionId f, BlockId entry) -> Status {
        Substitution subst;
        OperandList resolved;
        bool rewritten = false;
        auto walked = transform_block(m, f, entry, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
          if (site.is_terminator || !inst.result.valid() || !foldable_family(inst.opcode)) return {};
          resolved.assign(inst.operands.begin(), inst.operands.end());
          for (Operand& o : resolved) o = subst.resolve(o);
          const TypeId type = m.reg(inst.result).type;
          const std::span<const Operand> operands(resolved.data(), resolved.size());
          std::optional<Operand> value;
          if (inst.opcode == Opcode::Alias) {
            // inline-functions leaves `r = Alias c` for a callee returning a
            // constant; dealias removes it only at the end of -O1, so fold
            // what uses it now (int(one()) with one() returning 2.0 is 2).
            if (operands.size() != 1 || !operands[0].is_constant()) return {};
            value = operands[0];
          }
          if (inst.opcode == Opcode::Select) value = chosen_by_select(m, operands, type);
          if (!value && inst.opcode != Opcode::Alias) {
            if (auto c = fold::evaluate(fold::Evaluation{m, inst.opcode, inst.aux, type, operands})) value = *c;
          }
          if (!value && inst.opcode == Opcode::Div && operands.size() == 2) {
            if (const auto r = reciprocal_of(m, operands[1], type)) {
              const Operand mul_operands[] = {operands[0], *r};
              auto mul = make_with_result_id(m, Opcode::Mul, inst.result, mul_operands);
              if (!mul) return {};
              mul->location = inst.location;
              rewritten = true;
              return {Transform::add(std::move(*mul))};
            }
          }
          if (!value || !subst.replace(inst.result, *value)) return {};
          return {Transform::remove()};
        });
        if (!walked) return walked;
        changed = changed || rewritten;
        if (!subst.empty()) {
          subst.apply(m.function(f));
          changed = true;
        }
        return ok();
      });
  if (!s) return s.failure();
  return changed;
}

}  // namespace sluice::transform
