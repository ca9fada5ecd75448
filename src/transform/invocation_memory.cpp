// See invocation_memory.h.
#include "transform/invocation_memory.h"

#include "ir/typing.h"

namespace sluice::transform {

using namespace ir;

std::vector<bool> parameter_variables(const Module& m) {
  std::vector<bool> parameter(m.variable_count());
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    for (const FunctionParam& p : m.function(FunctionId(i)).params)
      if (p.variable.index() < parameter.size()) parameter[p.variable.index()] = true;
  return parameter;
}

bool is_invocation_memory(const Module& m, VariableId v) {
  const Variable& var = m.variable(v);
  if (var.decorations.volatile_ || !is_pointer(m, var.type)) return false;
  const StorageClass s = m.type(var.type).storage;
  return s == StorageClass::Function || s == StorageClass::Private;
}

}  // namespace sluice::transform
