// The one operand visitor. Every id an instruction refers to is an Operand in
// its operand list, so reading or rewriting "all operands of any
// instruction" is a loop here, never a switch over opcodes in a pass.
#pragma once

#include <cstddef>

#include "ir/instruction.h"

namespace sluice::ir {

// f(const Operand&, std::size_t index) for every operand, literals included.
template <class F>
void for_each_operand(const Instruction& inst, F&& f) {
  for (std::size_t i = 0; i < inst.operands.size(); ++i) f(inst.operands[i], i);
}

// f(Operand) -> Operand replaces each operand with what f returns.
template <class F>
void rewrite_operands(Instruction& inst, F&& f) {
  for (Operand& op : inst.operands) op = f(op);
}

// f(RegisterId) for each register the instruction reads.
template <class F>
void for_each_register_use(const Instruction& inst, F&& f) {
  for (const Operand& op : inst.operands)
    if (op.is_register()) f(op.as_register());
}

// f(VariableId) for each variable the instruction names.
template <class F>
void for_each_variable_use(const Instruction& inst, F&& f) {
  for (const Operand& op : inst.operands)
    if (op.is_variable()) f(op.as_variable());
}

}  // namespace sluice::ir
