// Instructions and their operands. Every operand, whatever the opcode, is an
// Operand in one list, so the single operand visitor (operands.h) reaches all
// of them and no pass needs a per-opcode match to find ids.
#pragma once

#include <cstdint>

#include <boost/container/small_vector.hpp>

#include "ir/ids.h"
#include "ir/opcode.h"

namespace sluice::ir {

// An operand packs its kind and index into 32 bits: instructions stay small
// (the IR's memory budget is 64 bytes per instruction, register included).
class Operand {
 public:
  enum class Kind : std::uint8_t { Register, Constant, Variable, Function, Literal };
  static constexpr std::uint32_t kMaxValue = (1u << 29) - 1;

  Operand() = default;
  Operand(RegisterId id) : Operand(Kind::Register, id.index()) {}
  Operand(ConstantId id) : Operand(Kind::Constant, id.index()) {}
  Operand(VariableId id) : Operand(Kind::Variable, id.index()) {}
  Operand(FunctionId id) : Operand(Kind::Function, id.index()) {}
  static Operand literal(std::uint32_t value) { return Operand(Kind::Literal, value); }

  Kind kind() const { return static_cast<Kind>(bits_ >> 29); }
  std::uint32_t value() const { return bits_ & kMaxValue; }
  bool is_register() const { return kind() == Kind::Register; }
  bool is_constant() const { return kind() == Kind::Constant; }
  bool is_variable() const { return kind() == Kind::Variable; }
  bool is_function() const { return kind() == Kind::Function; }
  bool is_literal() const { return kind() == Kind::Literal; }
  RegisterId as_register() const { return RegisterId(value()); }
  ConstantId as_constant() const { return ConstantId(value()); }
  VariableId as_variable() const { return VariableId(value()); }
  FunctionId as_function() const { return FunctionId(value()); }

  friend bool operator==(Operand, Operand) = default;

 private:
  Operand(Kind k, std::uint32_t v) : bits_((static_cast<std::uint32_t>(k) << 29) | (v & kMaxValue)) {}
  std::uint32_t bits_ = 0;
};

using OperandList = boost::container::small_vector<Operand, 4>;

struct Instruction {
  Opcode opcode = Opcode::Unreachable;
  // Opcode-specific flags: TextureFlags for Texture; zero otherwise.
  std::uint16_t aux = 0;
  RegisterId result;  // invalid for instructions without a value
  SourceLocId location;
  OperandList operands;

  bool has_result() const { return result.valid(); }
};

}  // namespace sluice::ir
