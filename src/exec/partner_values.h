// The values a partner stage (partner_shaders.h) declares to meet one
// interface variable of the checked shader: the variable itself when it is
// a 32-bit scalar, vector or float matrix or a double scalar or vector, or
// one value per member of a block (or struct) of those, each at the location and component the
// member occupies. A partner declares plain variables, never the block:
// Vulkan matches an output variable, block or structure member with an
// input variable, block or structure member by Location and Component and
// type (Vulkan 1.3 spec §15.1.3 "Interface Matching"), so a block member
// meets a variable at its location.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "exec/block_layout.h"
#include "exec/shader_interface.h"
#include "exec/spirv_module.h"
#include "ir/result.h"

namespace sluice::exec {

struct PartnerValue {
  std::uint32_t location = 0;
  std::uint32_t component = 0;
  std::string type;  // GLSL spelling: float, ivec3, mat3x4
  ScalarKind kind = ScalarKind::Float;
  std::uint32_t columns = 0;  // a matrix's columns (its type is matCxR); 0 for scalars and vectors
  std::uint32_t rows = 1;     // a matrix's rows, a vector's components
  bool wide = false;          // double, dvecN (64-bit floats)
  bool patch = false;         // a tessellation per-patch value
  std::string name;           // the checked shader's name for it ("block.member" for a member)
};

// The values of interface variable `v` whose type (the per-vertex element
// for a per-vertex array) is `type`; an error naming what a partner cannot
// declare (arrays, nested structs, double matrices, 64-bit integers,
// booleans).
Result<std::vector<PartnerValue>> partner_values(const SpirvModule& m, const StageVariable& v, std::uint32_t type);

// `layout(location = L[, component = C]) ` for the value.
std::string partner_layout(const PartnerValue& v);
// A suffix naming the value uniquely among its interface: "L_C".
std::string partner_suffix(const PartnerValue& v);
// A value that differs per vertex and location, splatted over the type
// (floats and doubles 0.25 * vertex + 0.125 * location + 0.0625, plus 1/64
// per matrix element; integers vertex + location + 1).
std::string partner_fed_value(const PartnerValue& v, const std::string& vertex);

}  // namespace sluice::exec
