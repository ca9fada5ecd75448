// NoContraction on floating-point arithmetic (Options::no_contraction,
// `--fp-contract=off`). The SPIR-V specification (Decoration, NoContraction)
// applies it to an arithmetic instruction: the operation "cannot be combined
// with another instruction to form a single operation" (an OpFMul with an
// addition into a fused multiply-add) and may not be reassociated. Without
// it a driver may contract a * b + c into one fma wherever it likes, so the
// same expression can round differently once the code around it changes;
// with it every operation rounds on its own, as glslang's GlslangToSpv
// makes the operations of a GLSL `precise` result.
//
// Every instruction with a result goes through FunctionEmitter::op()
// (memory.cpp), which calls forbid_contraction(): this is the one place the
// decoration is decided, whatever instruction selection chose the opcode
// (arith(), negate(), matrix products, increments, dot of scalars as OpFMul).
// The opcodes are SPIR-V's floating-point arithmetic instructions
// (Arithmetic Instructions, §3.52.13 of the unified specification); the
// integer ones never contract, and the GLSL.std.450 instructions are
// extended instructions, not arithmetic, so the decoration does not apply.
#include "output/spirv/context.h"

namespace sluice::spirv::detail {
namespace {

bool is_float_arithmetic(spv::Op o) {
  switch (o) {
    case spv::Op::OpFNegate:
    case spv::Op::OpFAdd:
    case spv::Op::OpFSub:
    case spv::Op::OpFMul:
    case spv::Op::OpFDiv:
    case spv::Op::OpFRem:
    case spv::Op::OpFMod:
    case spv::Op::OpVectorTimesScalar:
    case spv::Op::OpMatrixTimesScalar:
    case spv::Op::OpVectorTimesMatrix:
    case spv::Op::OpMatrixTimesVector:
    case spv::Op::OpMatrixTimesMatrix:
    case spv::Op::OpOuterProduct:
    case spv::Op::OpDot: return true;
    default: return false;
  }
}

}  // namespace

void ModuleContext::forbid_contraction(spv::Op o, std::uint32_t id) {
  if (options.no_contraction && is_float_arithmetic(o)) decorate(id, spv::Decoration::NoContraction);
}

}  // namespace sluice::spirv::detail
