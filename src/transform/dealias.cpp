// Dealias: removes `r = Alias x` instructions before output.
//
// Algorithm: one transform_block walk per function records r -> x in a
// Substitution and drops the Alias; one sweep then rewrites every use.
// Aliases of aliases resolve to the end of the chain. Linear.
#include "transform/passes.h"
#include "transform/substitution.h"
#include "transform/transformer.h"

namespace sluice::transform {

using namespace ir;

PassResult dealias(Module& m) {
  bool changed = false;
  auto s = transform::for_each_function(
      m, [](FunctionId) { return true; },
      [&](FunctionId f, BlockId entry) -> Status {
        Substitution subst;
        auto walked = transform_block(m, f, entry, [&](InstructionSite&, const Instruction& inst) -> Transforms {
          if (inst.opcode != Opcode::Alias || !inst.result.valid() || inst.operands.size() != 1) return {};
          // A self-alias (r = Alias r) would make r stand for itself; it is
          // malformed, and left for the validator to report.
          if (!subst.replace(inst.result, inst.operands[0])) return {};
          return {Transform::remove()};
        });
        if (!walked) return walked;
        if (!subst.empty()) {
          subst.apply(m.function(f));
          changed = true;
        }
        return ok();
      });
  if (!s) return s.failure();
  return changed;
}

}  // namespace sluice::transform
