// Checks of one instruction that need no knowledge of where its block sits:
// opcode, operand ids and kinds, result/type agreement through
// ir::infer_result_type(), and (through Scopes) that every register and
// variable it uses is visible. structure_checks.cpp adds the checks that
// depend on the enclosing blocks (Break targets, Return values, ...).
#pragma once

#include "ir/instruction.h"
#include "validator/context.h"
#include "validator/dominance.h"

namespace sluice::validator::detail {

// Runs every check on `inst`, then defines its result in `scopes`.
void check_instruction(Context& ctx, Scopes& scopes, const ir::Instruction& inst, const Where& where);

// The opcode as the dump spells it (Texture variants included).
std::string opcode_name(const ir::Instruction& inst);

}  // namespace sluice::validator::detail
