// Which interface variables of the geometry and tessellation stages are
// per-vertex arrays: the outer array dimension of a geometry or
// tessellation input, and of a tessellation control output, indexes the
// primitive's or patch's vertices rather than locations (GLSL 4.60 §4.3.4,
// §4.3.6; SPIR-V spec 2.16.2, "arrayed" interface variables). `patch`
// variables are not per vertex. Outputs and front ends count locations
// without that dimension.
//
// Also the one model of which locations and components an interface
// variable occupies (SPIR-V spec 2.16.2 / Vulkan "Location Assignment"):
// the GLSL front end, the validator and the GLSL output use it.
#pragma once

#include <optional>

#include "ir/module.h"

namespace sluice::ir {

bool is_per_vertex_array(const Module& m, const Variable& v);

// The type whose locations `v` occupies: its pointee, without the vertex
// dimension of a per-vertex array.
TypeId location_type(const Module& m, const Variable& v);

// Locations a value of type `t` occupies: a scalar or vector one, a matrix
// one per column, an array its count times its element's, a struct the sum
// of its members'. Saturates at 2^32 - 1 instead of wrapping.
std::uint32_t location_slots(const Module& m, TypeId t);

// A user input or output (no built-in) with a Location, and what it
// occupies: locations [first, first + count) and, in each, the components
// in `components` (bit i: component i). A scalar or vector (or an array or
// matrix of them) takes its width from its Component; a struct or block
// takes whole locations.
struct LocationUse {
  VariableId variable;
  StorageClass storage = StorageClass::Input;
  std::uint32_t index = 0;  // dual-source blending: outputs of another index are apart
  bool patch = false;       // per-patch variables are counted apart from per-vertex ones
  std::uint64_t first = 0, count = 0;
  std::uint8_t components = 0xf;
};
std::optional<LocationUse> location_use(const Module& m, VariableId id);

// Two user inputs (or outputs) of the entry point that share a component of
// a location (SPIR-V spec 2.16.2: "no two variables ... may be assigned the
// same Location and Component"), or none. O(n log n) in the globals: a
// sweep over the uses sorted by first location.
struct LocationOverlap {
  VariableId first, second;  // in declaration order
  std::uint64_t location = 0;
};
std::optional<LocationOverlap> find_location_overlap(const Module& m);

// Whether `t` (or, through arrays, its element) is a block whose members
// carry their own locations (StructMember::location) instead of the
// variable carrying one.
bool has_member_locations(const Module& m, TypeId t);

}  // namespace sluice::ir
