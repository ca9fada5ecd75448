// functions_writing_memory: first each function's own instructions (an
// instruction with side effects writes such memory unless every pointer it
// writes through is a Function-storage one; terminators change no memory),
// then a fixed point over the calls: a caller of a writing function
// writes. Each round marks at least one more function or ends, so there
// are at most as many rounds as functions (recursion included, which the
// output refuses elsewhere).
#include "output/glsl/call_effects.h"

namespace sluice::glsl_out {
namespace {

bool writes_memory(const ir::Module& m, const ir::Instruction& inst) {
  const ir::OpcodeInfo& info = ir::info(inst.opcode);
  if (!info.has_side_effects || info.family == ir::OpcodeFamily::Control) return false;
  bool through_pointer = false;
  for (const ir::Operand& o : inst.operands) {
    const ir::TypeId t = m.type_of(o);
    if (!t.valid() || m.type(t).kind != ir::TypeKind::Pointer) continue;
    through_pointer = true;
    // A call's out argument may point at any memory (the IR checks only
    // the pointee type), and the callee writes it through a Function-
    // storage parameter, which its own summary does not count.
    if (m.type(t).storage != ir::StorageClass::Function) return true;
  }
  // A call's own effects come from its callee's summary (the fixed point);
  // any other effect without a pointer is a barrier and the like.
  return inst.opcode != ir::Opcode::Call && !through_pointer;
}

}  // namespace

std::vector<std::uint8_t> functions_writing_memory(const ir::Module& m,
                                                   const std::vector<std::vector<ir::FunctionId>>& callees) {
  const std::size_t n = m.function_count();
  std::vector<std::uint8_t> writes(n, 0);
  for (std::uint32_t i = 0; i < n; ++i)
    for (const ir::Block& b : m.function(ir::FunctionId(i)).blocks)
      for (const ir::Instruction& inst : b.instructions)
        if (writes_memory(m, inst)) writes[i] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (writes[i]) continue;
      for (ir::FunctionId c : callees[i])
        if (writes[c.index()]) {
          writes[i] = 1;
          changed = true;
          break;
        }
    }
  }
  return writes;
}

}  // namespace sluice::glsl_out
