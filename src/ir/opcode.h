// Opcodes and their static traits, generated from opcode.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sluice::ir {

enum class OpcodeFamily : std::uint8_t {
  Control, Access, Extract, Construct, Memory, Call, Unary, Binary, BuiltIn, Texture, Image, Atomic, Alias,
};

// How an opcode's result type follows from its operands; typing.cpp
// implements each rule once.
enum class TypeRule : std::uint8_t {
  Void,              // no result
  Explicit,          // result type given by the builder's caller (constructors)
  Custom,            // rule specific to the opcode (typing.cpp)
  Pointee,           // operand 0 is a pointer; the result is what it points to
  SameAsFirst,       // any type; the result has operand 0's type
  ArithSame,         // numeric scalar/vector/matrix, all operands the same type
  NumericSame,       // numeric scalar/vector, all the same
  SignedSame,        // float or signed int scalar/vector, all the same
  FloatSame,         // float scalar/vector, all the same
  IntSame,           // int or uint scalar/vector, all the same
  BoolSame,          // bool scalar/vector, all the same
  Shift,             // int or uint scalar/vector; operands may differ in signedness only
  CompareShape,      // numeric (or bool, for the equalities) operands of one type -> bool of that shape
  CompareWhole,      // any non-pointer operands of one type -> bool
  FloatToScalar,     // float scalar/vector operands of one type -> float
  FloatToBoolShape,  // float scalar/vector -> bool of that shape
  IntToIntShape,     // int or uint scalar/vector -> int of that shape
  BoolVectorToBool,  // bvecN -> bool
};

enum class Opcode : std::uint16_t {
#define OPCODE(name, family, min_ops, max_ops, variadic, rule, effects) name,
#include "ir/opcode.def"
#undef OPCODE
};

struct OpcodeInfo {
  std::string_view name;
  OpcodeFamily family;
  std::uint8_t min_operands;
  std::uint8_t max_operands;
  bool variadic_tail;
  TypeRule type_rule;
  bool has_side_effects;
};

const OpcodeInfo& info(Opcode op);
std::optional<Opcode> opcode_from_name(std::string_view name);
inline std::string_view name(Opcode op) { return info(op).name; }

inline bool is_terminator(Opcode op) { return info(op).family == OpcodeFamily::Control; }
// Terminators that own sub-blocks and a merge block.
inline bool is_divergent(Opcode op) {
  return op == Opcode::If || op == Opcode::Loop || op == Opcode::DoLoop || op == Opcode::Switch ||
         op == Opcode::NextBlock;
}
inline bool is_loop(Opcode op) { return op == Opcode::Loop || op == Opcode::DoLoop; }

}  // namespace sluice::ir
