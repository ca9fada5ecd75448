// What a shader stage expects from the outside world, reflected from its
// SPIR-V: descriptor bindings, push constants, and user-defined inputs and
// outputs. The runner creates exactly these resources.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "exec/block_layout.h"
#include "exec/spirv_module.h"
#include "ir/result.h"

namespace sluice::exec {

enum class ShaderStage { Vertex, Fragment, Compute, Geometry, TessControl, TessEvaluation };

const char* shader_stage_name(ShaderStage stage);

enum class DescriptorKind {
  UniformBuffer, StorageBuffer, CombinedImageSampler, SampledImage, StorageImage, Sampler,
  UniformTexelBuffer, StorageTexelBuffer
};

const char* descriptor_kind_name(DescriptorKind kind);

// The OpTypeImage operands that decide how a texture is created.
struct ImageShape {
  uint32_t dim = spv::Dim2D;
  bool arrayed = false;
  bool multisampled = false;
  bool depth = false;  // a shadow (depth-comparison) image
  uint32_t format = 0;  // SPIR-V ImageFormat; 0 = Unknown
  ScalarKind sampled_kind = ScalarKind::Float;
};

struct DescriptorBinding {
  uint32_t set = 0;
  uint32_t binding = 0;
  uint32_t count = 1;  // array size of the descriptor variable
  DescriptorKind kind = DescriptorKind::UniformBuffer;
  std::string name;        // OpName of the variable, or of its block type
  uint32_t block_type = 0;  // buffers: the block struct's type id
  ImageShape image;         // images, samplers and texel buffers
};

// A user-defined (not built-in) Input or Output variable of the entry point.
struct StageVariable {
  uint32_t variable_id = 0;
  uint32_t type = 0;  // the pointee type
  uint32_t location = 0;
  uint32_t component = 0;
  bool patch = false;  // a tessellation per-patch variable
  std::string name;
};

struct ShaderInterface {
  ShaderStage stage = ShaderStage::Fragment;
  std::string entry_point;
  std::array<uint32_t, 3> local_size{1, 1, 1};
  std::vector<DescriptorBinding> bindings;  // sorted by (set, binding)
  uint32_t push_constant_type = 0;          // 0 when the shader has none
  uint32_t push_constant_size = 0;
  std::vector<StageVariable> inputs;   // sorted by location
  std::vector<StageVariable> outputs;  // sorted by location
};

// Reflects the first entry point of `stage` in the module.
Result<ShaderInterface> reflect_interface(const SpirvModule& module, ShaderStage stage);

}  // namespace sluice::exec
