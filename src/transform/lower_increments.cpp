// Increments and decrements as plain memory operations, so that
// forward-stores, fold and eliminate-dead-stores see through them:
//
//   r = PrefixIncrement p    ->   t = Load p;  r = Add t 1;  Store p r
//   r = PostfixIncrement p   ->   r = Load p;  t = Add r 1;  Store p t
//
// (Decrement: Sub.) The SPIR-V output emits exactly these three
// instructions for an increment, so nothing grows. Only increments of
// scalars and vectors on Function-storage and Private memory are lowered:
// the ones forwarding can use; those of matrices, and of memory other
// invocations can see, stay as they are. `r` keeps its register (and so
// its precision); the new register takes r's precision.
//
// Algorithm: one transform walk (Access results are defined before their
// uses, so each pointer's storage class is known when it is reached).
// Linear.
#include "ir/typing.h"
#include "transform/passes.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

namespace {

// 1 of the scalar or vector type `t`; invalid for other types.
ConstantId one_of(Module& m, TypeId t) {
  const Type& type = m.type(t);
  TypeId scalar = t;
  if (type.kind == TypeKind::Vector) scalar = type.element;
  else if (type.kind != TypeKind::Scalar) return {};
  ConstantId one;
  switch (m.type(scalar).scalar) {
    case ScalarKind::Float: one = m.type(scalar).width == 64 ? m.double_constant(1.0) : m.float_constant(1.0f); break;
    case ScalarKind::Int: one = m.int_constant(1); break;
    case ScalarKind::Uint: one = m.uint_constant(1); break;
    default: return {};
  }
  if (type.kind == TypeKind::Scalar) return one;
  const std::vector<ConstantId> components(type.count, one);
  return m.composite_constant(t, components);
}

}  // namespace

PassResult lower_increments(Module& m) {
  bool changed = false;
  auto walked = for_each_instruction(m, [&](InstructionSite&, const Instruction& inst) -> Transforms {
    if (!is_increment(inst.opcode) || !inst.result.valid() || inst.operands.size() != 1) return {};
    const Operand p = inst.operands[0];
    const TypeId pointer = m.type_of(p);
    if (!pointer.valid() || !is_pointer(m, pointer)) return {};
    const StorageClass storage = m.type(pointer).storage;
    if (storage != StorageClass::Function && storage != StorageClass::Private) return {};
    if (p.is_variable() && m.variable(p.as_variable()).decorations.volatile_) return {};
    const RegisterId r = inst.result;
    const ConstantId one = one_of(m, m.reg(r).type);
    if (!one.valid()) return {};
    const bool prefix = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PrefixDecrement;
    const bool up = inst.opcode == Opcode::PrefixIncrement || inst.opcode == Opcode::PostfixIncrement;
    const Opcode op = up ? Opcode::Add : Opcode::Sub;
    const Precision precision = m.reg(r).precision;
    const Operand pointer_operand[] = {p};
    Transforms out;
    if (prefix) {
      auto load = make(m, Opcode::Load, pointer_operand, {}, precision);
      if (!load) return {};
      const Operand sum_operands[] = {Operand(load->result), Operand(one)};
      auto sum = make_with_result_id(m, op, r, sum_operands);
      if (!sum) return {};
      const Operand store_operands[] = {p, Operand(r)};
      auto store = make(m, Opcode::Store, store_operands);
      if (!store) return {};
      out = {Transform::add(std::move(*load)), Transform::add(std::move(*sum)), Transform::add(std::move(*store))};
    } else {
      auto load = make_with_result_id(m, Opcode::Load, r, pointer_operand);
      if (!load) return {};
      const Operand sum_operands[] = {Operand(r), Operand(one)};
      auto sum = make(m, op, sum_operands, {}, precision);
      if (!sum) return {};
      const Operand store_operands[] = {p, Operand(sum->result)};
      auto store = make(m, Opcode::Store, store_operands);
      if (!store) return {};
      out = {Transform::add(std::move(*load)), Transform::add(std::move(*sum)), Transform::add(std::move(*store))};
    }
    changed = true;
    return out;
  });
  if (!walked) return walked.failure();
  return changed;
}

}  // namespace sluice::transform
