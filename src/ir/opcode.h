// Opcodes and their static traits, generated from opcode.def.
#pragma once

#include <cstddef>
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

// What an instruction does with one operand position (the Roles column of
// opcode.def). Consumers derive operand knowledge from it — which pointers
// an instruction reads or writes through, where literals and callees sit —
// instead of listing opcodes and indices. Sub-blocks are not operands: a
// divergent terminator's blocks live in its Block (block.h).
enum class OperandRole : std::uint8_t {
  Value,           // v: a value read
  PointerRead,     // r: a pointer read through (Load)
  PointerWritten,  // w: a pointer written through (Store's target)
  PointerUpdated,  // u: a pointer read and written through (increments, atomics)
  OutPointer,      // o: a pointer a built-in writes a second result through (modf's whole part, uaddCarry's carry)
  Address,         // a: a pointer neither read nor written (an Access chain's base, ArrayLength's array)
  Argument,        // g: a call argument: a value, or a pointer by the callee's parameter direction
  Literal,         // l: a number in the instruction (component, field)
  Callee,          // f: the function Call calls
};

inline bool reads_through(OperandRole r) { return r == OperandRole::PointerRead || r == OperandRole::PointerUpdated; }
inline bool writes_through(OperandRole r) {
  return r == OperandRole::PointerWritten || r == OperandRole::PointerUpdated || r == OperandRole::OutPointer;
}

enum class Opcode : std::uint16_t {
#define OPCODE(name, family, min_ops, max_ops, variadic, rule, effects, roles) name,
#include "ir/opcode.def"
#undef OPCODE
};

// The number of opcodes: an Instruction whose opcode is at or past it is
// garbage (damaged input), and info() must not be asked about it.
inline constexpr std::size_t kOpcodeCount = 0
#define OPCODE(name, family, min_ops, max_ops, variadic, rule, effects, roles) +1
#include "ir/opcode.def"
#undef OPCODE
    ;
inline bool is_known(Opcode op) { return static_cast<std::size_t>(op) < kOpcodeCount; }

struct OpcodeInfo {
  std::string_view name;
  OpcodeFamily family;
  std::uint8_t min_operands;
  std::uint8_t max_operands;
  bool variadic_tail;
  TypeRule type_rule;
  bool has_side_effects;
  std::string_view roles;  // one letter per fixed operand, then one for the variadic tail (opcode.def)
};

const OpcodeInfo& info(Opcode op);
std::optional<Opcode> opcode_from_name(std::string_view name);
inline std::string_view name(Opcode op) { return info(op).name; }
// The role of operand `i` of `op`. Positions past the table's repeat its
// last role (the variadic tail; a malformed instruction with too many
// operands is the operand count's problem, validator and outputs check it).
OperandRole operand_role(Opcode op, std::size_t i);

inline bool is_terminator(Opcode op) { return info(op).family == OpcodeFamily::Control; }
// A computation on values: no side effects, no memory, no image, no call
// (the Unary, Binary, BuiltIn, Construct and Extract families). Passes that
// fold, recompute or move instructions start from this.
inline bool is_pure_computation(Opcode op) {
  const OpcodeInfo& oi = info(op);
  if (oi.has_side_effects) return false;
  switch (oi.family) {
    case OpcodeFamily::Unary:
    case OpcodeFamily::Binary:
    case OpcodeFamily::BuiltIn:
    case OpcodeFamily::Construct:
    case OpcodeFamily::Extract: return true;
    default: return false;
  }
}
// Terminators that own sub-blocks and a merge block.
inline bool is_divergent(Opcode op) {
  return op == Opcode::If || op == Opcode::Loop || op == Opcode::DoLoop || op == Opcode::Switch ||
         op == Opcode::NextBlock;
}
inline bool is_loop(Opcode op) { return op == Opcode::Loop || op == Opcode::DoLoop; }
// Prefix/postfix increment or decrement: a unary read-modify-write of its pointer.
inline bool is_increment(Opcode op) {
  return info(op).family == OpcodeFamily::Unary && operand_role(op, 0) == OperandRole::PointerUpdated;
}

}  // namespace sluice::ir
