// Instruction → expression text. Given the expressions of an instruction's
// operands (already composed, parenthesised here only where GLSL's
// precedence needs it), compose() spells the instruction itself. It never
// emits statements; the statement emitter decides what gets a name.
#pragma once

#include <optional>
#include <span>

#include "ir/instruction.h"
#include "output/glsl/context.h"

namespace sluice::glsl_out {

// Operand expressions line up with inst.operands; a literal operand's Expr
// holds its number, a function operand's its name. For a void instruction
// (Store, ImageStore, barriers) the result is its statement text without
// the ';'.
// `scalar_first`: spell VectorTimesScalar / MatrixTimesScalar as `s * v`
// (the IR keeps the vector first; the source may not have).
Expr compose(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> operands, bool scalar_first = false);

// A constant index of a dynamic-index access or extract (array element,
// matrix column, vector component) that lies outside the array, matrix or
// vector. The IR, like SPIR-V, makes such an access undefined only if it
// runs, and folding gives a never-run access of a valid program this form;
// GLSL makes a constant-expression index out of range a compile-time error
// (GLSL 4.60 §5.7, §5.5), so the output spells it with a non-constant local
// (EmitContext::out_of_range_indices).
std::optional<ir::ConstantId> out_of_range_constant_index(const ir::Module& m, const ir::Instruction& inst);

// Whether a Load through a pointer of this type reads memory a store or
// call could change (inputs, uniforms and push constants cannot change).
bool load_reads_mutable_memory(const EmitContext& ctx, ir::TypeId pointer_type);

// Operators used by the statement emitter for compound assignment
// ("+" for Add, ...); empty when the opcode has no compound form for `type`.
std::string_view compound_operator(const EmitContext& ctx, ir::Opcode op, ir::TypeId type);

// Expression builders shared with the statement emitter.
Expr binary(const Expr& a, std::string_view op, const Expr& b, Prec prec);
Expr prefix_unary(std::string_view op, const Expr& a);
Expr call(std::string_view name, std::span<const Expr> args);
Expr conditional(const Expr& c, const Expr& a, const Expr& b);

// The built-in named like opcode `op` (PackUnorm4x8 → packUnorm4x8), or "".
std::string builtin_by_name(ir::Opcode op);

// Texture and image opcodes (textures.cpp).
Expr compose_texture(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> operands);

}  // namespace sluice::glsl_out
