#include "ir/workgroup_size.h"

namespace sluice::ir {

bool has_specialized_workgroup_size(const ShaderInfo& shader) {
  return shader.stage == ShaderStage::Compute &&
         (shader.local_size_spec_id[0] || shader.local_size_spec_id[1] || shader.local_size_spec_id[2]);
}

bool is_workgroup_size_constant(const Module& m, ConstantId c) {
  const ShaderInfo& shader = m.shader();
  if (!has_specialized_workgroup_size(shader) || !c.valid() || c.index() >= m.constant_count()) return false;
  const Constant& k = m.constant(c);
  if (!k.type.valid() || k.type.index() >= m.type_count() || k.components.size() != 3 || k.spec_id) return false;
  const Type& t = m.type(k.type);
  if (t.kind != TypeKind::Vector || t.element != predefined::kUint) return false;
  for (std::size_t i = 0; i < 3; ++i) {
    if (k.components[i].index() >= c.index()) return false;
    const Constant& part = m.constant(k.components[i]);
    if (part.type != predefined::kUint || part.spec_id != shader.local_size_spec_id[i] ||
        part.bits != shader.local_size[i] || part.spec_op != SpecOp::None || part.is_composite())
      return false;
  }
  return true;
}

ConstantId find_workgroup_size_constant(const Module& m) {
  if (!has_specialized_workgroup_size(m.shader())) return {};
  for (std::uint32_t i = 0; i < m.constant_count(); ++i)
    if (is_workgroup_size_constant(m, ConstantId(i))) return ConstantId(i);
  return {};
}

}  // namespace sluice::ir
