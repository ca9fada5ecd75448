// Instructions and their operands. Every operand, whatever the opcode, is an
// Operand in one list, so the single operand visitor (operands.h) reaches all
// of them and no pass needs a per-opcode match to find ids.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ir/ids.h"
#include "ir/opcode.h"
#include "ir/operand_list.h"

namespace sluice::ir {

struct Instruction {
  Opcode opcode = Opcode::Unreachable;
  // Opcode-specific flags: TextureFlags for Texture; zero otherwise.
  std::uint16_t aux = 0;
  RegisterId result;  // invalid for instructions without a value
  SourceLocId location;
  OperandList operands;

  bool has_result() const { return result.valid(); }
};

// The IR's memory budget is 64 bytes per instruction, everything included
// (docs/performance.md): the instruction itself takes 28 of them.
static_assert(sizeof(Instruction) == 28);
// Block instruction vectors move, never copy, instructions when they grow.
static_assert(std::is_nothrow_move_constructible_v<Instruction>);
static_assert(std::is_nothrow_move_assignable_v<Instruction>);

}  // namespace sluice::ir
