#include "transform/vector_lanes.h"

namespace sluice::transform {

using namespace ir;

void VectorLanes::note(const Instruction& inst) {
  if (!inst.result.valid()) return;
  const Type& t = m_.type(m_.reg(inst.result).type);
  if ((inst.opcode == Opcode::ConstructStruct && t.kind == TypeKind::Struct &&
       inst.operands.size() == t.members.size()) ||
      (inst.opcode == Opcode::ConstructArray && t.kind == TypeKind::Array && !t.length.valid() &&
       inst.operands.size() == t.count)) {
    lanes_[inst.result.index()] = Lanes(inst.operands.begin(), inst.operands.end());
    return;
  }
  if (inst.opcode == Opcode::ConstructMatrixFromMultiple && t.kind == TypeKind::Matrix &&
      inst.operands.size() == t.count) {
    // Columns only: mat2(a, b, c, d) from scalars has no column operands.
    for (const Operand& o : inst.operands)
      if (m_.type_of(o) != t.element) return;
    lanes_[inst.result.index()] = Lanes(inst.operands.begin(), inst.operands.end());
    return;
  }
  if (t.kind != TypeKind::Vector) return;
  if (inst.opcode == Opcode::ConstructVectorFromScalar && inst.operands.size() == 1) {
    if (m_.type(m_.type_of(inst.operands[0])).kind != TypeKind::Scalar) return;
    lanes_[inst.result.index()] = Lanes(t.count, inst.operands[0]);
    return;
  }
  if (inst.opcode != Opcode::ConstructVectorFromMultiple || inst.operands.size() != t.count) return;
  Lanes lanes;
  for (const Operand& o : inst.operands) {
    // Same component type only: a conversion inside the constructor is no lane.
    if (m_.type_of(o) != t.element) return;
    lanes.push_back(o);
  }
  lanes_[inst.result.index()] = std::move(lanes);
}

std::optional<Lanes> VectorLanes::of(Operand value) const {
  const TypeId t = m_.type_of(value);
  if (!t.valid() || m_.type(t).kind != TypeKind::Vector) return std::nullopt;
  return parts(value);
}

std::optional<Lanes> VectorLanes::parts(Operand value) const {
  if (value.is_constant()) {
    const Constant& c = m_.constant(value.as_constant());
    const TypeKind kind = m_.type(c.type).kind;
    if (c.spec_id || c.spec_op != SpecOp::None || !c.is_composite() ||
        (kind != TypeKind::Vector && kind != TypeKind::Struct && kind != TypeKind::Array &&
         kind != TypeKind::Matrix))
      return std::nullopt;
    Lanes lanes;
    for (ConstantId part : c.components) {
      const Constant& p = m_.constant(part);
      if (p.spec_id || p.spec_op != SpecOp::None) return std::nullopt;
      lanes.push_back(Operand(part));
    }
    return lanes;
  }
  if (!value.is_register()) return std::nullopt;
  const auto it = lanes_.find(value.value());
  if (it == lanes_.end()) return std::nullopt;
  return it->second;
}

}  // namespace sluice::transform
