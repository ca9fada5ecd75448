// See pointer_roots.h.
#include "transform/pointer_roots.h"

#include "ir/traversal.h"
#include "ir/typing.h"

namespace sluice::transform {

using namespace ir;

MemoryKind memory_kind(const Module& m, VariableId v) {
  const Variable& var = m.variable(v);
  if (var.decorations.volatile_ || !is_pointer(m, var.type)) return MemoryKind::Shared;
  const StorageClass storage = m.type(var.type).storage;
  if (storage == StorageClass::Function || storage == StorageClass::Private) return MemoryKind::Invocation;
  return is_read_only(storage) ? MemoryKind::ReadOnly : MemoryKind::Shared;
}

std::vector<bool> parameter_variables(const Module& m) {
  std::vector<bool> parameter(m.variable_count());
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const FunctionParam& p : m.function(FunctionId(i)).params)
      if (p.variable.index() < parameter.size()) parameter[p.variable.index()] = true;
  return parameter;
}

}  // namespace sluice::transform
