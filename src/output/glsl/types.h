// Types and constants as GLSL spells them: type names, declarators, precision
// qualifiers, constant values, and the std140/std430 layout rules (to tell
// which block member offsets the text must state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "output/glsl/context.h"

namespace sluice::glsl_out {

// Types nested deeper than this (arrays of arrays, structs in structs) are
// refused, which bounds the recursion of the functions below.
inline constexpr std::uint32_t kMaxTypeDepth = 64;

// Checks type nesting and fills ctx.canonical: structs with one name and
// the same members (the IR may keep one per layout) are spelled as one.
void compute_canonical_types(EmitContext& ctx);

bool is_opaque(const EmitContext& ctx, ir::TypeId t);          // sampler, texture, image, sampled image
bool contains_opaque(const EmitContext& ctx, ir::TypeId t);    // opaque, or an array or struct holding one
// The scalar/vector/matrix/opaque type at the bottom of any arrays.
ir::TypeId innermost_element(const EmitContext& ctx, ir::TypeId t);

// "vec4", "float[2][3]" (outer size first), "Light", "sampler2DShadow".
std::string type_text(EmitContext& ctx, ir::TypeId t);
// A declaration of `name`: "float name[2][3]", "vec4 data[]".
std::string declarator(EmitContext& ctx, ir::TypeId t, std::string_view name);

// "mediump " or "" for a declaration of type `t`. GLSL ES states what
// differs from the header's defaults (and always a precision for opaque
// types); GLSL 4.50 states lowp and mediump wherever the IR has them
// (`variable` matters only for opaque types there).
std::string precision_prefix(const EmitContext& ctx, ir::TypeId t, ir::Precision p, bool variable);

// The precision glslang gives an operand as the text spells it: a
// register's own, a specialization constant's declared one (the default
// of its kind), none for a literal.
ir::Precision text_precision(const EmitContext& ctx, ir::Operand o);

// GLSL ES: sets ctx.default_float / default_int to the precisions most
// variables and registers of the module have.
void choose_default_precisions(EmitContext& ctx);

// A constant's value as an expression ("vec2(0.5)", "-1.0", "2u").
const Expr& constant_expr(EmitContext& ctx, ir::ConstantId c);

// std140 / std430 alignment and size (GLSL 4.50 §7.6.2.2).
struct MemberLayout {
  std::uint32_t align = 4;
  std::uint32_t size = 0;
};
MemberLayout std_layout(const EmitContext& ctx, ir::TypeId t, bool std430, bool row_major);
inline std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return a ? (v + a - 1) / a * a : v; }

}  // namespace sluice::glsl_out
