// See pointer_roots.h.
#include "transform/pointer_roots.h"

#include "ir/traversal.h"
#include "ir/typing.h"

namespace sluice::transform {

using namespace ir;

MemoryKind memory_kind(const Module& m, VariableId v) {
  const Variable& var = m.variable(v);
  if (var.decorations.volatile_ || !is_pointer(m, var.type)) return MemoryKind::Shared;
  switch (m.type(var.type).storage) {
    case StorageClass::Function:
    case StorageClass::Private: return MemoryKind::Invocation;
    case StorageClass::Input:
    case StorageClass::Uniform:
    case StorageClass::PushConstant:
    case StorageClass::UniformConstant: return MemoryKind::ReadOnly;
    default: return MemoryKind::Shared;
  }
}

std::vector<bool> parameter_variables(const Module& m) {
  std::vector<bool> parameter(m.variable_count());
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const FunctionParam& p : m.function(FunctionId(i)).params)
      if (p.variable.index() < parameter.size()) parameter[p.variable.index()] = true;
  return parameter;
}

}  // namespace sluice::transform
