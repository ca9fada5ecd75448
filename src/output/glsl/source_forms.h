// Lowerings whose GLSL source form is shorter than their IR, found so that
// the output writes the source form (and a GLSL front end, reading it,
// lowers it to the same IR again):
//
//  - implicit splats: GLSL lets a scalar stand for a vector in `v + s`,
//    `v % s`, `min(v, s)`, `clamp(v, lo, hi)`, `mix(a, b, t)`, `step(e, v)`
//    and `smoothstep(e0, e1, v)`; the IR makes it a vector with
//    ConstructVectorFromScalar after evaluating every operand, right
//    before the operation. Such a construct is spelled as its scalar.
//  - copy-back arguments: an out or inout argument that is not a plain
//    local goes through a temporary T: [Store T (Load P)], the call or
//    built-in with T, then Load T and Store P for each such argument in
//    order. With nothing effectful between the copy-in and the call, and T
//    used nowhere else, the call is written with P in T's place and the
//    copies are not written (GLSL's own copy-in/copy-out semantics).
//    glslang lowers an out argument of another type (converted implicitly
//    from the parameter's type: int to uint or float, uint to float) as
//    `(G = call(.., T, ..), P = conv(T), .., G)`: the call, Store G of its
//    value, Load T, the conversion and Store P for each such argument in
//    order, then Load G where the value is used. With T and G used nowhere
//    else (G, often a private global, in no other function), the call is
//    written with P in T's place where G is loaded, and G is not declared.
//  - split coordinates: a depth comparison takes its coordinate and depth
//    reference from one vecN in GLSL, and textureProj on a 1D or 2D
//    texture a vec4 whose z it ignores; the front end takes the vector
//    apart (ExtractVectorComponentMulti V (0..N-2) and ExtractVectorComponent
//    V N-1, in either order; (0, 1, 3) and 2 for textureProj), each part
//    used only by the sampling. The vector is spelled there, once, where
//    the parts would name or swizzle it.
#pragma once

#include <span>

#include "output/glsl/analysis.h"

namespace sluice::glsl_out {

// Sets regs.implicit_splat. Needs regs.def and the plain use counts.
void find_implicit_splats(const EmitContext& ctx, const ir::Function& f, std::span<const ir::BlockId> reachable,
                          RegisterFacts& regs);

// Sets regs.folded for the copies' Loads (and conversions),
// vars.argument_target for each temporary, vars.return_temporary for G, and
// marks the temporaries declared (they are never written). Needs regs.def
// and the plain use counts.
void find_copy_back_arguments(const EmitContext& ctx, const ir::Function& f, std::span<const ir::BlockId> reachable,
                              RegisterFacts& regs, VariableFacts& vars);

// Sets regs.split_coordinate. Needs regs.def and the plain use counts.
void find_split_coordinates(const EmitContext& ctx, const ir::Function& f, std::span<const ir::BlockId> reachable,
                            RegisterFacts& regs);

}  // namespace sluice::glsl_out
