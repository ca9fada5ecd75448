// Which interface variables of the geometry and tessellation stages are
// per-vertex arrays: the outer array dimension of a geometry or
// tessellation input, and of a tessellation control output, indexes the
// primitive's or patch's vertices rather than locations (GLSL 4.60 §4.3.4,
// §4.3.6; SPIR-V spec 2.16.2, "arrayed" interface variables). `patch`
// variables are not per vertex. Outputs and front ends count locations
// without that dimension.
#pragma once

#include "ir/module.h"

namespace sluice::ir {

bool is_per_vertex_array(const Module& m, const Variable& v);

// The type whose locations `v` occupies: its pointee, without the vertex
// dimension of a per-vertex array.
TypeId location_type(const Module& m, const Variable& v);

// Whether `t` (or, through arrays, its element) is a block whose members
// carry their own locations (StructMember::location) instead of the
// variable carrying one.
bool has_member_locations(const Module& m, TypeId t);

}  // namespace sluice::ir
