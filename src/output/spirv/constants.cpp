// Constant declarations. One table keyed by (type, value) serves the IR's
// constants and the ones the emitter makes itself (access-chain indices,
// the 1 of an increment, folded constructors), so each value is declared
// once: the λV "yellow" program gets a single OpConstant for its three 1.0s.
// Specialization constants are never merged: each keeps its SpecId.
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "ir/workgroup_size.h"
#include "output/spirv/context.h"

namespace sluice::spirv::detail {

std::uint32_t ModuleContext::record_constant(ConstantInfo info, std::uint32_t id) {
  constant_index_.set(id, static_cast<std::uint32_t>(constant_infos_.size()));
  constant_infos_.push_back(std::move(info));
  return id;
}

const ConstantInfo* ModuleContext::constant_info(std::uint32_t id) const {
  const std::uint32_t* index = constant_index_.find(id);
  return index ? &constant_infos_[*index] : nullptr;
}

std::uint32_t ModuleContext::constant(ir::ConstantId c) {
  if (!c.valid() || c.index() >= m.constant_count()) {
    fail(fmt::format("constant c{} does not exist", c.index()));
    return 0;
  }
  if (std::uint32_t id = ir_constants_[c.index()]) return id;
  const ir::Constant& k = m.constant(c);
  if (!k.type.valid() || k.type.index() >= m.type_count()) {
    fail(fmt::format("constant c{} has no valid type", c.index()));
    return 0;
  }
  std::vector<std::uint32_t> components;
  for (ir::ConstantId part : k.components) {
    // Interning makes components older than their composite; anything else
    // would be a cycle.
    if (part.index() >= c.index()) {
      fail(fmt::format("constant c{} refers to a later constant c{}", c.index(), part.index()));
      return 0;
    }
    components.push_back(constant(part));
  }
  std::uint32_t id = 0;
  // A composite of specialization constants is one too (the workgroup
  // size); only plain constants have a ConstantInfo.
  const bool spec_parts =
      std::any_of(components.begin(), components.end(), [&](std::uint32_t part) { return !constant_info(part); });
  if (k.spec_op != ir::SpecOp::None) {
    id = spec_constant_op(k);
  } else if (k.spec_id || spec_parts) {
    const std::uint32_t type_id = type(k.type);
    id = new_id();
    if (k.is_composite()) {
      globals.op(spv::Op::OpSpecConstantComposite, {type_id, id}, components);
    } else if (k.type == ir::predefined::kBool) {
      globals.op(k.bits ? spv::Op::OpSpecConstantTrue : spv::Op::OpSpecConstantFalse, {type_id, id});
    } else if (m.type(k.type).width == 64) {
      globals.op(spv::Op::OpSpecConstant, {type_id, id, k.bits, k.high_bits});
    } else {
      globals.op(spv::Op::OpSpecConstant, {type_id, id, k.bits});
    }
    if (k.spec_id && !k.is_composite()) decorate(id, spv::Decoration::SpecId, {*k.spec_id});
  } else if (k.is_composite()) {
    id = composite_constant(k.type, components);
  } else if (m.type(k.type).width == 64) {
    id = double_constant((std::uint64_t{k.high_bits} << 32) | k.bits);
  } else {
    id = scalar_constant(k.type, k.bits);
  }
  ir_constants_[c.index()] = id;
  return id;
}

// OpSpecConstantOp: CompositeExtract takes its index as a literal, the
// arithmetic operations take ids.
std::uint32_t ModuleContext::spec_constant_op(const ir::Constant& k) {
  spv::Op op = spv::Op::OpNop;
  switch (k.spec_op) {
    case ir::SpecOp::CompositeExtract: op = spv::Op::OpCompositeExtract; break;
    case ir::SpecOp::IAdd: op = spv::Op::OpIAdd; break;
    case ir::SpecOp::ISub: op = spv::Op::OpISub; break;
    case ir::SpecOp::IMul: op = spv::Op::OpIMul; break;
    case ir::SpecOp::UDiv: op = spv::Op::OpUDiv; break;
    case ir::SpecOp::SDiv: op = spv::Op::OpSDiv; break;
    case ir::SpecOp::None: break;
  }
  if (op == spv::Op::OpNop || k.operands.size() != 2) {
    fail("malformed specialization-constant operation");
    return 0;
  }
  const std::uint32_t first = constant(k.operands[0]);
  const std::uint32_t second =
      op == spv::Op::OpCompositeExtract ? m.constant(k.operands[1]).bits : constant(k.operands[1]);
  const std::uint32_t type_id = type(k.type);
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpSpecConstantOp, {type_id, id, static_cast<std::uint32_t>(op), first, second});
  return id;
}

// The uvec3 the WorkgroupSize built-in decorates when layout(local_size_x_id
// = N) specializes the workgroup size: the module's own constant when the
// shader reads gl_WorkGroupSize (the front end interns it), else one made
// here from the local size and its specialization ids.
std::uint32_t ModuleContext::workgroup_size_constant(const ir::ShaderInfo& shader) {
  const ir::TypeId uvec3 = vector_of(ir::ScalarKind::Uint, 3);
  if (const ir::ConstantId c = ir::find_workgroup_size_constant(m); c.valid()) return constant(c);
  std::uint32_t parts[3];
  for (std::size_t i = 0; i < 3; ++i) {
    if (!shader.local_size_spec_id[i]) {
      parts[i] = uint_constant(shader.local_size[i]);
      continue;
    }
    parts[i] = new_id();
    globals.op(spv::Op::OpSpecConstant, {type(ir::predefined::kUint), parts[i], shader.local_size[i]});
    decorate(parts[i], spv::Decoration::SpecId, {*shader.local_size_spec_id[i]});
  }
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpSpecConstantComposite, {type(uvec3), id}, parts);
  return id;
}

std::uint32_t ModuleContext::scalar_constant(ir::TypeId scalar_type, std::uint32_t bits) {
  if (scalar_type == ir::predefined::kBool) bits = bits ? 1u : 0u;
  const std::uint64_t key = pack_key(scalar_type.index(), bits);
  if (std::uint32_t id = scalar_constants_.get(key)) return id;
  const std::uint32_t type_id = type(scalar_type);
  const std::uint32_t id = new_id();
  if (scalar_type == ir::predefined::kBool)
    globals.op(bits ? spv::Op::OpConstantTrue : spv::Op::OpConstantFalse, {type_id, id});
  else
    globals.op(spv::Op::OpConstant, {type_id, id, bits});
  scalar_constants_.set(key, id);
  return record_constant(ConstantInfo{scalar_type, bits, {}}, id);
}

std::uint32_t ModuleContext::float_constant(float v) {
  return scalar_constant(ir::predefined::kFloat, std::bit_cast<std::uint32_t>(v));
}

std::uint32_t ModuleContext::double_constant(std::uint64_t bits) {
  if (auto it = double_constants_.find(bits); it != double_constants_.end()) return it->second;
  ir::TypeId double_type;
  for (std::uint32_t i = 0; i < m.type_count() && !double_type.valid(); ++i)
    if (m.type(ir::TypeId(i)) == ir::Type::make_double()) double_type = ir::TypeId(i);
  if (!double_type.valid()) {
    fail("a double constant in a module without the double type");
    return 0;
  }
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpConstant,
             {type(double_type), id, static_cast<std::uint32_t>(bits), static_cast<std::uint32_t>(bits >> 32)});
  double_constants_.emplace(bits, id);
  return record_constant(ConstantInfo{double_type, static_cast<std::uint32_t>(bits), {}}, id);
}

std::uint32_t ModuleContext::splat_number(ir::TypeId t, std::int32_t v) {
  const ir::Type& ty = m.type(t);
  if (ty.kind == ir::TypeKind::Vector || ty.kind == ir::TypeKind::Matrix) {
    const std::uint32_t part = splat_number(ty.element, v);
    std::vector<std::uint32_t> parts(ty.count, part);
    return composite_constant(t, parts);
  }
  if (ty.kind != ir::TypeKind::Scalar) {
    fail("splat constant of a type that is not a scalar, vector or matrix");
    return 0;
  }
  if (ty.width == 64) return double_constant(std::bit_cast<std::uint64_t>(static_cast<double>(v)));
  if (ty.scalar == ir::ScalarKind::Float) return scalar_constant(t, std::bit_cast<std::uint32_t>(static_cast<float>(v)));
  return scalar_constant(t, static_cast<std::uint32_t>(v));
}

std::uint32_t ModuleContext::composite_constant(ir::TypeId composite_type, std::span<const std::uint32_t> parts) {
  std::vector<std::uint32_t> key{composite_type.index()};
  key.insert(key.end(), parts.begin(), parts.end());
  auto [it, inserted] = composite_constants_.emplace(std::move(key), 0);
  if (!inserted) return it->second;
  const std::uint32_t type_id = type(composite_type);
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpConstantComposite, {type_id, id}, parts);
  it->second = id;
  return record_constant(ConstantInfo{composite_type, 0, {parts.begin(), parts.end()}}, id);
}

std::uint32_t ModuleContext::splat_constant(ir::TypeId t, std::uint32_t bits) {
  const ir::Type& ty = m.type(t);
  if (ty.kind == ir::TypeKind::Scalar) return scalar_constant(t, bits);
  if (ty.kind != ir::TypeKind::Vector && ty.kind != ir::TypeKind::Matrix) {
    fail("splat constant of a type that is not a scalar, vector or matrix");
    return 0;
  }
  const std::uint32_t part = splat_constant(ty.element, bits);
  std::vector<std::uint32_t> parts(ty.count, part);
  return composite_constant(t, parts);
}

std::uint32_t ModuleContext::undef(ir::TypeId t) {
  if (std::uint32_t id = undefs_.get(t.index())) return id;
  const std::uint32_t type_id = type(t);
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpUndef, {type_id, id});
  undefs_.set(t.index(), id);
  return id;
}

}  // namespace sluice::spirv::detail
