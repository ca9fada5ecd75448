// See pointer_roots.h.
#include "ir/pointer_roots.h"

#include "ir/traversal.h"

namespace sluice::ir {

PointerRoots::PointerRoots(const Module& m) : variable_count_(m.variable_count()), root_(m.register_count()) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const Function& f = m.function(FunctionId(i));
    if (!f.entry.valid()) continue;
    visit(f, [&](const BlockVisit&, const Block& b) {
      for (const Instruction& inst : b.instructions)
        if (info(inst.opcode).family == OpcodeFamily::Access && !inst.operands.empty() && inst.result.valid() &&
            inst.result.index() < root_.size())
          root_[inst.result.index()] = root(inst.operands[0]);
      return VisitAction::VisitSubBlocks;
    });
  }
}

}  // namespace sluice::ir
