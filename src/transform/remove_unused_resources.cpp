// Unused-resource elimination: global variables of the resource storage
// classes (uniform and storage blocks, samplers and images, push
// constants) and shared (Workgroup) variables that no instruction of any
// function refers to are removed, as spirv-opt -O removes them. Inputs and
// outputs stay (they are the stage's interface whether used or not), and
// so do Private variables (remove-unused-variables handles those).
//
// This changes what reflection sees, so it is its own pass: -O1 runs it,
// a pass list without it keeps every declared resource.
//
// Algorithm: one walk over all functions marks every variable operand;
// compact_module() rebuilds the tables without the unmarked resources.
// Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"

namespace sluice::transform {

using namespace ir;

PassResult remove_unused_resources(Module& m) {
  std::vector<bool> used(m.variable_count());
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    if (!f.entry.valid()) continue;
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions)
        for_each_variable_use(inst, [&](VariableId v) {
          if (v.index() < used.size()) used[v.index()] = true;
        });
      return VisitAction::VisitSubBlocks;
    });
  }
  std::vector<bool> drop(m.variable_count());
  bool any = false;
  for (VariableId v : m.globals()) {
    if (v.index() >= used.size() || used[v.index()]) continue;
    const TypeId t = m.variable(v).type;
    if (!is_pointer(m, t)) continue;
    switch (m.type(t).storage) {
      case StorageClass::Uniform:
      case StorageClass::StorageBuffer:
      case StorageClass::PushConstant:
      case StorageClass::UniformConstant:
      case StorageClass::Workgroup:
        drop[v.index()] = true;
        any = true;
        break;
      default:
        break;
    }
  }
  if (!any) return false;
  std::vector<bool> all_functions(m.function_count(), true);
  return compact_module(m, variables_in_use(m, all_functions, drop), all_functions);
}

}  // namespace sluice::transform
