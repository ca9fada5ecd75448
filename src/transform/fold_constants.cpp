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
// reciprocal (by_reciprocal() says when); a component of a vector whose
// lanes are known (vector_lanes.h: a constant, or a construct from scalars)
// is that lane, and a swizzle of one a construct of its lanes (spirv-opt's
// CompositeExtract-of-CompositeConstruct folding): `ivec2 v = ivec2(x);
// v.x + v.y` is `x + x`. A lane register replaces the extract only at the
// same precision. Integer additions and subtractions of constants
// reassociate (two's-complement arithmetic wraps, so this is exact; floats
// are left alone): `(i - 3) + 1` is `i + -2`, `5 - (i + 1)` is `4 - i`, and
// a sum that comes to `i + 0` is `i` (spirv-opt's merge-add-sub rules),
// where the inner sum has no other use and x has the result's precision.
// Aggregates likewise: a field of a ConstructStruct or an element (at a
// constant index) of a ConstructArray is that operand, and a construct of
// every part of one value in order (`S(s.a, s.b)`) is that value. A
// component or swizzle of a swizzle is one of the swizzled vector
// (`v.xy.y` is `v.y`; spirv-opt's VectorShuffle feeding rules). And
// modf(c, p) of a constant c is its fraction, its whole part stored to p.
#include <cmath>
#include <unordered_map>

#include "ir/operands.h"
#include "ir/typing.h"
#include "transform/fold.h"
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"
#include "transform/vector_lanes.h"

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

// The lanes an ExtractVectorComponent(Multi) `x k...` picks, where x's lanes
// are known and every picked one is a constant or a register of the
// result's precision; nullopt otherwise.
std::optional<std::vector<Operand>> lanes_picked(const Module& m, const VectorLanes& lanes, Substitution& subst,
                                                 std::span<const Operand> operands, Precision precision) {
  if (operands.size() < 2) return std::nullopt;
  const auto known = lanes.of(operands[0]);
  if (!known) return std::nullopt;
  std::vector<Operand> picked;
  for (std::size_t i = 1; i < operands.size(); ++i) {
    if (!operands[i].is_literal() || operands[i].value() >= known->size()) return std::nullopt;
    const Operand lane = subst.resolve((*known)[operands[i].value()]);
    if (!lane.is_constant() && !(lane.is_register() && m.reg(lane.as_register()).precision == precision))
      return std::nullopt;
    picked.push_back(lane);
  }
  return picked;
}

// The index an extract's second operand names: a literal, or an integer
// constant of at most 32 bits that no specialization can change; nullopt
// otherwise (a negative int becomes an index out of every range).
std::optional<std::uint32_t> constant_index(const Module& m, Operand o) {
  if (o.is_literal()) return o.value();
  if (!o.is_constant() || fold::depends_on_spec_constant(m, o.as_constant())) return std::nullopt;
  const Constant& c = m.constant(o.as_constant());
  const Type& t = m.type(c.type);
  if (c.is_composite() || t.kind != TypeKind::Scalar || t.scalar == ScalarKind::Bool || t.scalar == ScalarKind::Float ||
      t.width > 32)
    return std::nullopt;
  return c.bits;
}

// A part (index `index`, a literal or an integer constant) of a value whose
// parts are known (vector_lanes.h): a field of a ConstructStruct, an element
// of a ConstructArray, or of a constant; when it is a constant, or a
// register of the result's type and precision.
std::optional<Operand> part_picked(const Module& m, const VectorLanes& lanes, Substitution& subst,
                                   std::span<const Operand> operands, TypeId type, Precision precision) {
  if (operands.size() != 2) return std::nullopt;
  const auto index = constant_index(m, operands[1]);
  if (!index) return std::nullopt;
  const auto known = lanes.parts(operands[0]);
  if (!known || *index >= known->size()) return std::nullopt;
  const Operand part = subst.resolve((*known)[*index]);
  if (m.type_of(part) != type) return std::nullopt;
  if (!part.is_constant() && !(part.is_register() && m.reg(part.as_register()).precision == precision))
    return std::nullopt;
  return part;
}

// `extract(swizzle(x, k...), j...)` as the operands of one extract of x
// (x, k[j]...); a one-element {x} when that is x itself, every lane in
// order. x must be a register of the result's precision. nullopt when the
// operand is no known swizzle.
std::optional<std::vector<Operand>> through_swizzle(
    const Module& m, const std::unordered_map<std::uint32_t, std::vector<Operand>>& swizzles,
    std::span<const Operand> operands, TypeId type, Precision precision) {
  if (operands.size() < 2 || !operands[0].is_register()) return std::nullopt;
  const auto it = swizzles.find(operands[0].value());
  if (it == swizzles.end()) return std::nullopt;
  const std::vector<Operand>& inner = it->second;  // x, k...
  const Operand x = inner[0];
  if (!x.is_register() || m.reg(x.as_register()).precision != precision) return std::nullopt;
  std::vector<Operand> composed{x};
  for (std::size_t i = 1; i < operands.size(); ++i) {
    if (!operands[i].is_literal() || operands[i].value() + 1 >= inner.size()) return std::nullopt;
    composed.push_back(inner[operands[i].value() + 1]);
  }
  bool identity = m.type_of(x) == type;
  for (std::size_t i = 1; identity && i < composed.size(); ++i) identity = composed[i].value() == i - 1;
  if (identity) return std::vector<Operand>{x};
  return composed;
}

// Which part of which value an extract with a constant index reads.
struct ExtractedPart {
  Operand whole;
  std::uint32_t index;
};

// A construct of every part of one value, in order (`S(s.a, s.b)`,
// `vec2(v.x, v.y)`), is that value, when it has the result's type and
// precision (spirv-opt's CompositeConstruct-of-CompositeExtract folding).
std::optional<Operand> reassembled(const Module& m, const std::unordered_map<std::uint32_t, ExtractedPart>& extracted,
                                   std::span<const Operand> operands, TypeId type, Precision precision) {
  if (operands.empty()) return std::nullopt;
  std::optional<Operand> whole;
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (!operands[i].is_register()) return std::nullopt;
    const auto it = extracted.find(operands[i].value());
    if (it == extracted.end() || it->second.index != i || (whole && *whole != it->second.whole)) return std::nullopt;
    whole = it->second.whole;
  }
  const Type& t = m.type(type);
  const std::size_t parts = t.kind == TypeKind::Struct ? t.members.size() : t.count;
  if (parts != operands.size() || m.type_of(*whole) != type) return std::nullopt;
  if (whole->is_register() && m.reg(whole->as_register()).precision != precision) return std::nullopt;
  return whole;
}

// modf(c, p) of a float32 constant: the fraction, and the whole part to
// store through p (GLSL 4.60 §8.3: both parts keep c's sign; modf(±inf) is
// ±0 and ±inf; NaN gives NaN twice). nullopt for anything else.
struct ModfParts {
  ConstantId fraction, whole;
};
std::optional<ModfParts> modf_of(Module& m, Operand x, TypeId type) {
  if (!x.is_constant() || fold::depends_on_spec_constant(m, x.as_constant())) return std::nullopt;
  const Constant& c = m.constant(x.as_constant());
  const TypeId scalar = m.type(type).kind == TypeKind::Vector ? m.type(type).element : type;
  if (m.type(scalar).kind != TypeKind::Scalar || m.type(scalar).scalar != ScalarKind::Float ||
      m.type(scalar).width != 32 || c.type != type)
    return std::nullopt;
  const std::vector<ConstantId> parts =
      c.is_composite() ? std::vector<ConstantId>(c.components.begin(), c.components.end())
                       : std::vector<ConstantId>{x.as_constant()};
  std::vector<ConstantId> fractions, wholes;
  for (ConstantId part : parts) {
    float whole = 0;
    const float fraction = std::modf(m.constant(part).as_float(), &whole);
    fractions.push_back(m.float_constant(fraction));
    wholes.push_back(m.float_constant(whole));
  }
  if (!c.is_composite()) return ModfParts{fractions[0], wholes[0]};
  return ModfParts{m.composite_constant(type, fractions), m.composite_constant(type, wholes)};
}

// An integer value known as `±x ± c` (x a register, c a constant): the Add
// or Sub that made it, with one constant operand.
struct Affine {
  Operand x;
  bool negated_x = false;
  Operand c;
  bool negated_c = false;
};

bool is_integer(const Module& m, TypeId t) {
  const auto kind = component_kind(m, t);
  return kind && (*kind == ScalarKind::Int || *kind == ScalarKind::Uint) && !is_matrix(m, t);
}

// `a op b` (Add or Sub) as ±x ± c, when exactly one side is a constant.
std::optional<Affine> affine_of(Opcode op, Operand a, Operand b) {
  if (a.is_constant() == b.is_constant()) return std::nullopt;
  if (op == Opcode::Add) return a.is_constant() ? Affine{b, false, a, false} : Affine{a, false, b, false};
  return b.is_constant() ? Affine{a, false, b, true}   // x - c
                         : Affine{b, true, a, false};  // c - x
}

bool all_zero(const Module& m, ConstantId id) {
  const Constant& c = m.constant(id);
  if (!c.is_composite()) return c.bits == 0;
  for (ConstantId part : c.components)
    if (m.constant(part).bits != 0) return false;
  return true;
}

// The outer integer Add/Sub `inner op k` or `k op inner` over an inner value
// known as ±x ± c, as one instruction `opcode operands` of x and a folded
// constant. nullopt where that would need a negation (-x - c).
struct Reassociated {
  Opcode op;
  std::vector<Operand> operands;
};
std::optional<Reassociated> reassociate(Module& m, Opcode op, TypeId type, std::span<const Operand> operands,
                                        const std::unordered_map<std::uint32_t, Affine>& affine,
                                        std::span<const std::uint32_t> uses) {
  if (operands.size() != 2 || operands[0].is_constant() == operands[1].is_constant()) return std::nullopt;
  const bool inner_first = operands[1].is_constant();
  const Operand inner = inner_first ? operands[0] : operands[1], k = inner_first ? operands[1] : operands[0];
  // Only an inner sum used here alone: it then dies, which pays for the new
  // constant the rewrite may need (otherwise the module could grow).
  if (!inner.is_register() || inner.value() >= uses.size() || uses[inner.value()] != 1) return std::nullopt;
  const auto it = affine.find(inner.value());
  if (it == affine.end()) return std::nullopt;
  const Affine& a = it->second;
  // The constant part C = ±c, then: inner + k = ±x + (C + k); inner - k =
  // ±x + (C - k); k - inner = ∓x + (k - C). Each new constant is one Add or
  // Sub of c and k, possibly negated as a whole.
  bool negated_x = a.negated_x, negated_c = false;
  Opcode constant_op;
  Operand first = a.c, second = k;
  if (op == Opcode::Add) {
    constant_op = a.negated_c ? Opcode::Sub : Opcode::Add;  // k - c, or c + k
    if (a.negated_c) first = k, second = a.c;
  } else if (inner_first) {
    constant_op = a.negated_c ? Opcode::Add : Opcode::Sub;  // -(c + k), or c - k
    negated_c = a.negated_c;
  } else {
    negated_x = !negated_x;
    constant_op = a.negated_c ? Opcode::Add : Opcode::Sub;  // k + c, or k - c
    first = k, second = a.c;
  }
  if (negated_x && negated_c) return std::nullopt;
  const Operand constant_ops[] = {first, second};
  const auto c = fold::evaluate(fold::Evaluation{m, constant_op, 0, type, constant_ops});
  if (!c) return std::nullopt;
  if (negated_x) return Reassociated{Opcode::Sub, {Operand(*c), a.x}};
  if (!negated_c && all_zero(m, *c)) return Reassociated{Opcode::Alias, {a.x}};  // x + 0
  return Reassociated{negated_c ? Opcode::Sub : Opcode::Add, {a.x, Operand(*c)}};
}

}  // namespace

PassResult fold_constants(Module& m) {
  bool changed = false;
  std::vector<std::uint32_t> uses(m.register_count(), 0);
  auto s = transform::for_each_function(
      m, [](FunctionId) { return true; },
      [&](FunctionId f, BlockId entry) -> Status {
        Substitution subst;
        OperandList resolved;
        VectorLanes lanes(m);
        std::unordered_map<std::uint32_t, Affine> affine;  // by register: integer Add/Sub with a constant
        std::unordered_map<std::uint32_t, ExtractedPart> extracted;  // by register: extracts at a constant index
        std::unordered_map<std::uint32_t, std::vector<Operand>> swizzles;  // by register: its swizzle's operands
        // Uses by register in this function (the module-sized table is left
        // zeroed for the next function: linear in the function's size).
        std::vector<std::uint32_t> counted;
        for (const Block& block : m.function(f).blocks)
          for (const Instruction& inst : block.instructions)
            for_each_register_use(inst, [&](RegisterId r) {
              if (r.index() >= uses.size()) return;
              if (uses[r.index()]++ == 0) counted.push_back(r.index());
            });
        struct Reset {
          std::vector<std::uint32_t>& uses;
          std::vector<std::uint32_t>& counted;
          ~Reset() {
            for (std::uint32_t r : counted) uses[r] = 0;
          }
        } reset{uses, counted};
        bool rewritten = false;
        auto walked = transform_block(m, f, entry, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
          if (site.is_terminator || !inst.result.valid()) return {};
          if (inst.opcode == Opcode::Modf && inst.operands.size() == 2) {
            // The fraction replaces the result; the whole part is stored.
            const auto parts = modf_of(m, subst.resolve(inst.operands[0]), m.reg(inst.result).type);
            if (!parts || !subst.replace(inst.result, Operand(parts->fraction))) return {};
            Instruction store;
            store.opcode = Opcode::Store;
            store.location = inst.location;
            store.operands = {subst.resolve(inst.operands[1]), Operand(parts->whole)};
            return {Transform::add(std::move(store))};
          }
          if (!foldable_family(inst.opcode)) return {};
          lanes.note(inst);
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
          if (!value && (inst.opcode == Opcode::ExtractVectorComponent ||
                         inst.opcode == Opcode::ExtractVectorComponentMulti)) {
            auto picked = lanes_picked(m, lanes, subst, operands, m.reg(inst.result).precision);
            if (picked && inst.opcode == Opcode::ExtractVectorComponent) {
              value = (*picked)[0];
            } else if (picked) {
              auto construct = make_with_result_id(m, Opcode::ConstructVectorFromMultiple, inst.result, *picked);
              if (!construct) return {};
              construct->location = inst.location;
              lanes.note(*construct);
              rewritten = true;
              return {Transform::add(std::move(*construct))};
            }
          }
          const Precision precision = m.reg(inst.result).precision;
          if (!value && (inst.opcode == Opcode::ExtractStructField || inst.opcode == Opcode::ExtractArrayElement ||
                         inst.opcode == Opcode::ExtractMatrixColumn))
            value = part_picked(m, lanes, subst, operands, type, precision);
          if (!value && operands.size() == 2 &&
              (inst.opcode == Opcode::ExtractStructField || inst.opcode == Opcode::ExtractVectorComponent ||
               inst.opcode == Opcode::ExtractArrayElement)) {
            // Not at a specialization-constant index, whose value is not known yet.
            if (const auto index = constant_index(m, operands[1]))
              extracted[inst.result.index()] = ExtractedPart{operands[0], *index};
          }
          if (!value && (inst.opcode == Opcode::ConstructStruct || inst.opcode == Opcode::ConstructArray ||
                         inst.opcode == Opcode::ConstructVectorFromMultiple))
            value = reassembled(m, extracted, operands, type, precision);
          if (!value && (inst.opcode == Opcode::ExtractVectorComponent ||
                         inst.opcode == Opcode::ExtractVectorComponentMulti)) {
            // A component or swizzle of a swizzle of x is one of x.
            if (auto composed = through_swizzle(m, swizzles, operands, type, precision)) {
              if (composed->size() == 1 && composed->front().is_register() &&
                  composed->front().as_register() != inst.result && m.type_of(composed->front()) == type) {
                value = composed->front();  // the identity swizzle of x is x
              } else {
                const Opcode op = inst.opcode;
                auto made = make_with_result_id(m, op, inst.result, *composed);
                if (!made) return {};
                made->location = inst.location;
                if (op == Opcode::ExtractVectorComponentMulti)
                  swizzles[inst.result.index()] = std::vector<Operand>(made->operands.begin(), made->operands.end());
                rewritten = true;
                return {Transform::add(std::move(*made))};
              }
            }
            if (!value && inst.opcode == Opcode::ExtractVectorComponentMulti && operands.size() >= 2 &&
                operands[0].is_register())
              swizzles[inst.result.index()] = std::vector<Operand>(operands.begin(), operands.end());
          }
          if (!value && (inst.opcode == Opcode::Add || inst.opcode == Opcode::Sub) && is_integer(m, type)) {
            auto r = reassociate(m, inst.opcode, type, operands, affine, uses);
            const Operand x = r ? (r->op == Opcode::Sub && r->operands[0].is_constant() ? r->operands[1] : r->operands[0])
                                : Operand();
            if (r && x.is_register() && m.reg(x.as_register()).precision != m.reg(inst.result).precision) r.reset();
            if (r) {
              if (r->op == Opcode::Alias) {
                // x + 0 is x (of the result's type and precision).
                if (m.type_of(x) == type) value = x;
              } else {
                auto made = make_with_result_id(m, r->op, inst.result, r->operands);
                if (!made) return {};
                made->location = inst.location;
                if (auto a = affine_of(made->opcode, made->operands[0], made->operands[1])) affine[inst.result.index()] = *a;
                if (x.is_register() && x.value() < uses.size() && uses[x.value()]++ == 0) counted.push_back(x.value());
                rewritten = true;
                return {Transform::add(std::move(*made))};
              }
            } else if (auto a = affine_of(inst.opcode, operands[0], operands[1])) {
              affine[inst.result.index()] = *a;
            }
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
          // The result's uses are now the value's (reassociate() counts them).
          if (value->is_register() && value->value() < uses.size() && inst.result.index() < uses.size()) {
            if (uses[value->value()] == 0) counted.push_back(value->value());
            uses[value->value()] += uses[inst.result.index()];
          }
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
