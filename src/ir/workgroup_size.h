// The constant gl_WorkGroupSize stands for when layout(local_size_x_id = N)
// specializes the workgroup size (ShaderInfo::local_size_spec_id): a uvec3
// whose specialized components are specialization constants with those ids
// and the local size as defaults. The SPIR-V output decorates it as the
// WorkgroupSize built-in; the GLSL output spells it gl_WorkGroupSize.
#pragma once

#include "ir/module.h"

namespace sluice::ir {

// Whether some dimension of the shader's workgroup size is specialized.
bool has_specialized_workgroup_size(const ShaderInfo& shader);

// Whether `c` is that uvec3 for the module's ShaderInfo.
bool is_workgroup_size_constant(const Module& m, ConstantId c);

// The module's workgroup-size constant; invalid when the module has none
// (the size is not specialized, or nothing interned the constant).
ConstantId find_workgroup_size_constant(const Module& m);

}  // namespace sluice::ir
