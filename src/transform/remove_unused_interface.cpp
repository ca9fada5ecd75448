// Unused-interface elimination: global variables that no instruction of
// any function refers to are removed when the target environment lets a
// shader leave them out, as spirv-opt -O removes them (its aggressive
// dead-code elimination drops unused globals, inputs included, from a
// SPIR-V 1.0-1.3 module and its OpEntryPoint). Which ones, by the Vulkan
// specification:
//
//  - resources: uniform and storage blocks, samplers, images, push
//    constants (a pipeline layout may describe bindings the shader does not
//    declare: "Pipeline Layouts"), and shared (Workgroup) variables;
//  - inputs: an earlier stage's output that no input consumes, or a
//    vertex attribute the shader does not declare, is allowed ("Interface
//    Matching", "Vertex Input Description"), and an undeclared built-in
//    input is simply not read. Kept: inputs whose declaration alone
//    changes what the pipeline does — SampleId and SamplePosition (the
//    built-ins' pages: "If a fragment shader entry point's interface
//    includes an input variable decorated with SampleId, Sample Shading is
//    considered enabled", used or not), `sample`-qualified inputs (per-sample
//    evaluation, kept for the same reason) and geometry inputs marked
//    passthrough (GL_NV_geometry_shader_passthrough: the fixed function
//    copies them).
//
// Outputs stay (the next stage or the framebuffer reads them, and an
// output never written is glslang's and the source's business), and so do
// Private variables (remove-unused-variables handles those).
//
// This changes what reflection sees; -O1 runs it as its last step
// (docs/ir.md), -O0 and a --passes list without it keep every declared
// variable.
//
// Algorithm: one walk over all functions marks every variable operand;
// compact_module() rebuilds the tables without the unmarked candidates.
// Linear.
#include "ir/operands.h"
#include "ir/traversal.h"
#include "ir/typing.h"
#include "transform/module_compaction.h"
#include "transform/passes.h"

namespace sluice::transform {

using namespace ir;

namespace {

// An input the pipeline reacts to by its declaration alone (see above).
bool declaration_matters(const Decorations& d) {
  return d.built_in == "SampleId" || d.built_in == "SamplePosition" || d.sample || d.passthrough;
}

bool removable_when_unused(const Module& m, const Variable& v) {
  if (!is_pointer(m, v.type)) return false;
  switch (m.type(v.type).storage) {
    case StorageClass::Uniform:
    case StorageClass::StorageBuffer:
    case StorageClass::PushConstant:
    case StorageClass::UniformConstant:
    case StorageClass::Workgroup:
      return true;
    case StorageClass::Input:
      return !declaration_matters(v.decorations);
    default:
      return false;
  }
}

}  // namespace

PassResult remove_unused_interface(Module& m) {
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
    if (!removable_when_unused(m, m.variable(v))) continue;
    drop[v.index()] = true;
    any = true;
  }
  if (!any) return false;
  std::vector<bool> all_functions(m.function_count(), true);
  return compact_module(m, variables_in_use(m, all_functions, drop), all_functions);
}

}  // namespace sluice::transform
