// Result types of instructions. One function decides, for any opcode and
// operand list, whether the operands are well typed and what the result type
// is; the builder uses it to infer types and the validator to check them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/instruction.h"
#include "ir/module.h"
#include "ir/result.h"

namespace sluice::ir {

// The result type as the operands give it, or a message saying what is
// wrong, checked without changing the module (the validator's input is
// const). `type` is the module's id for it (kVoid for instructions without
// a value); a type the module lacks (a swizzle's vector, a product's
// matrix) gets an id past the module's types, numbered in `missing` from
// m.type_count() — describe_type(m, type, missing) spells it.
// `explicit_type` is the requested result type for TypeRule::Explicit
// opcodes (constructors) and ignored otherwise. Terminators are not typed
// here: their operands depend on where they sit (the validator checks them
// with the enclosing blocks at hand).
struct CheckedType {
  TypeId type;
  std::vector<Type> missing;
};
Result<CheckedType> check_result_type(const Module& m, Opcode op, std::uint16_t aux, std::span<const Operand> operands,
                                      TypeId explicit_type = {});

// check_result_type, then the missing types interned: the result type's id
// in `m`. The builder and transform::make type new instructions with it.
Result<TypeId> infer_result_type(Module& m, Opcode op, std::uint16_t aux, std::span<const Operand> operands,
                                 TypeId explicit_type = {});

// The precision of a new instruction's result of type `result_type`: none
// for bools, else `given`, else the highest of the operands' registers and
// variables (GLSL ES 3.20 §4.7, "Precision and Precision Qualifiers":
// booleans have no precision; an operation is evaluated at the highest
// precision of its operands). The builder and transform::make share it.
Precision result_precision(const Module& m, TypeId result_type, std::span<const Operand> operands,
                           std::optional<Precision> given = std::nullopt);

// A GLSL-like spelling of a type for messages: vec4, ivec2, mat3x2,
// float[4], ptr<Output, vec4>, struct S. Ids past the module's types name
// `missing` (check_result_type's).
std::string describe_type(const Module& m, TypeId t, std::span<const Type> missing = {});

// Shape helpers shared by typing, outputs and passes.
bool is_scalar(const Module& m, TypeId t);
bool is_vector(const Module& m, TypeId t);
bool is_matrix(const Module& m, TypeId t);
bool is_pointer(const Module& m, TypeId t);
// An image, sampler or sampled image: the opaque types (GLSL 4.60 §4.1.7),
// which Vulkan keeps in UniformConstant handles and out of structs.
bool is_opaque(const Type& t);
// An opaque type, or an array or struct holding one at any depth. Visits
// each reachable type once (a worklist, no recursion); false for an id
// outside the module's types.
bool contains_opaque(const Module& m, TypeId t);
// Scalar kind of a scalar, vector or matrix; nullopt otherwise.
std::optional<ScalarKind> component_kind(const Module& m, TypeId t);
// The scalar type of a scalar, vector or matrix (where float and double,
// both ScalarKind::Float, differ); invalid otherwise.
TypeId component_type(const Module& m, TypeId t);
// A scalar, vector or matrix of doubles (64-bit floats).
bool is_double_like(const Module& m, TypeId t);
// 1 for scalars, n for vectors, 0 otherwise.
std::uint32_t component_count(const Module& m, TypeId t);
// The coordinate components instruction `op` (Texture with `aux`'s flags,
// TextureQueryLod, or a storage-image instruction) needs for `image` (an
// Image type): one per dimension, one more for the layer of an arrayed
// image and for the projective divisor (SPIR-V 1.6 §3.3.10, "Coordinate";
// GLSL 4.60 §8.9 and §8.12 give the same sizes). Sampling may be given more;
// storage-image access takes exactly this many.
std::uint32_t coordinate_components(const Type& image, Opcode op, std::uint16_t aux);
TypeId pointee(const Module& m, TypeId pointer);

}  // namespace sluice::ir
