// What a variable's memory qualifiers forbid. A variable declared readonly
// (GLSL 4.60 §4.10 "Memory Qualifiers"; SPIR-V's NonWritable) is never
// written: no operand whose role writes through a pointer (opcode.def:
// Store's target, atomics, modf's out pointer) may have it as its root
// (ir/pointer_roots.h). glslang refuses such a write ("can't modify a
// readonly buffer"), so the GLSL output could not be compiled.
#include <fmt/format.h>

#include "ir/opcode.h"
#include "ir/pointer_roots.h"
#include "ir/traversal.h"
#include "validator/context.h"
#include "validator/instruction_checks.h"

namespace sluice::validator::detail {

void check_read_only_variables(Context& ctx) {
  // Roots follow Access chains through registers, which must be valid.
  if (!ctx.problems.empty()) return;
  const ir::Module& m = ctx.m;
  const ir::PointerRoots roots(m);
  for (std::uint32_t fi = 0; fi < m.function_count(); ++fi) {
    const ir::FunctionId fid(fi);
    const ir::Function& f = m.function(fid);
    if (!f.entry.valid()) continue;
    ir::visit(f, [&](const ir::BlockVisit& bv, const ir::Block& b) {
      for (std::size_t i = 0; i < b.instructions.size(); ++i) {
        const ir::Instruction& inst = b.instructions[i];
        for (std::size_t k = 0; k < inst.operands.size(); ++k) {
          if (!ir::writes_through(ir::operand_role(inst.opcode, k))) continue;
          const ir::VariableId v = roots.root(inst.operands[k]);
          if (!v.valid() || !m.variable(v).decorations.readonly) continue;
          ctx.report(fmt::format("operand {} of {} writes into v{}, which is declared readonly", k,
                                 opcode_name(inst), v.index()),
                     Where{fid, bv.id, static_cast<std::int32_t>(i)});
        }
      }
      return ir::VisitAction::VisitSubBlocks;
    });
  }
}

}  // namespace sluice::validator::detail
