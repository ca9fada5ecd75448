// Result types of instructions. One function decides, for any opcode and
// operand list, whether the operands are well typed and what the result type
// is; the builder uses it to infer types and the validator to check them.
#pragma once

#include <span>
#include <string>

#include "ir/instruction.h"
#include "ir/module.h"
#include "ir/result.h"

namespace sluice::ir {

// The result type (kVoid for instructions without a value) or a message
// saying what is wrong. `explicit_type` is the requested result type for
// TypeRule::Explicit opcodes (constructors) and ignored otherwise.
// Terminators are not typed here: their operands depend on where they sit
// (the validator checks them with the enclosing blocks at hand).
Result<TypeId> infer_result_type(Module& m, Opcode op, std::uint16_t aux, std::span<const Operand> operands,
                                 TypeId explicit_type = {});

// A GLSL-like spelling of a type for messages: vec4, ivec2, mat3x2,
// float[4], ptr<Output, vec4>, struct S.
std::string describe_type(const Module& m, TypeId t);

// Shape helpers shared by typing, outputs and passes.
bool is_scalar(const Module& m, TypeId t);
bool is_vector(const Module& m, TypeId t);
bool is_matrix(const Module& m, TypeId t);
bool is_pointer(const Module& m, TypeId t);
// Scalar kind of a scalar, vector or matrix; nullopt otherwise.
std::optional<ScalarKind> component_kind(const Module& m, TypeId t);
// 1 for scalars, n for vectors, 0 otherwise.
std::uint32_t component_count(const Module& m, TypeId t);
TypeId pointee(const Module& m, TypeId pointer);

}  // namespace sluice::ir
