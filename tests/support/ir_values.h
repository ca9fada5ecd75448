// Values of the test IR interpreter (ir_interpreter.h): a value is its
// type's scalar components flattened in declaration order, one 32-bit word
// each (floats as IEEE-754 binary32 bits, ints two's complement, bools 0 or
// 1; matrices column by column, arrays element by element, structs member
// by member), the layout SPIR-V's OpCompositeExtract indices walk. 64-bit
// scalars are not modelled.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"

namespace sluice::testing {

using Words = std::vector<std::uint32_t>;  // one word per scalar component

struct Value {
  ir::TypeId type;  // invalid for a literal operand (its word is the literal)
  Words words;
};

// The words of a value of type `t`; nullopt for types with no flat value
// (doubles, opaque types, runtime arrays).
std::optional<std::uint32_t> flat_size(const ir::Module& m, ir::TypeId t);

// Part `index` of a composite of type `t`: its first word and type
// (a vector's component, a matrix's column, an array's element, a struct's
// member); nullopt when out of range or `t` is not a composite.
struct Part {
  std::uint32_t offset;
  ir::TypeId type;
};
std::optional<Part> part_of(const ir::Module& m, ir::TypeId t, std::uint32_t index);

// A constant's words (specialization constants at their defaults).
Words words_of(const ir::Module& m, ir::ConstantId c);

// One word from a float, for inputs.
std::uint32_t float_word(float f);

// Text of a value of type `t` for comparisons in tests: floats in hex
// (exact), composites as "(a,b,)".
std::string text_of(const ir::Module& m, ir::TypeId t, const Words& w);

// A value's components as floats (ints converted, bools 0 or 1): what the
// λV tests read from an output.
std::vector<float> floats_of(const ir::Module& m, ir::TypeId t, const Words& w);

}  // namespace sluice::testing
