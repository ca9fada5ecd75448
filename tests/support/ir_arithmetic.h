// The test interpreter's arithmetic (ir_interpreter.h), written from the
// GLSL 4.60 definitions (§5.9 expressions, §8 built-in functions) and
// independently of src/transform's folding: a differential test whose
// interpreter computed with fold::evaluate would agree with a wrong fold
// (tests/support/arithmetic_independence_test.cpp shows one that does not).
// Floats are IEEE-754 binary32, each operation rounded once; the
// transcendental functions are evaluated in double and rounded once (the
// correctly rounded float in practice). Ints and uints wrap (two's
// complement); bools are 0 or 1. An operation it does not model, or whose
// result GLSL leaves undefined (integer division by zero, INT_MIN / -1, a
// shift by the width or more, a float out of an int's range converted to
// it, an index out of range), is an error.
#pragma once

#include <span>

#include "ir/result.h"
#include "ir_values.h"

namespace sluice::testing {

// The value of `op` with result type `result` on `args` (a literal operand
// is a Value with no type whose one word is the literal).
Result<Words> evaluate_operation(const ir::Module& m, ir::Opcode op, ir::TypeId result, std::span<const Value> args);

}  // namespace sluice::testing
