// A small read-only view of a SPIR-V binary: the types, constants, global
// variables, decorations, names and entry points that the runner needs to
// create resources for a shader. It is not a validator: malformed modules
// give errors only where the runner would otherwise misread them.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/result.h"

namespace sluice::exec {

// The numbers are SPIR-V's (spirv.hpp); only what the runner reads is named.
namespace spv {
enum ExecutionModel : uint32_t {
  Vertex = 0, TessellationControl = 1, TessellationEvaluation = 2, Geometry = 3, Fragment = 4, GLCompute = 5
};
enum StorageClass : uint32_t {
  UniformConstant = 0, Input = 1, Uniform = 2, Output = 3, Workgroup = 4, Private = 6, Function = 7,
  PushConstant = 9, Image = 11, StorageBuffer = 12
};
enum Dim : uint32_t { Dim1D = 0, Dim2D = 1, Dim3D = 2, Cube = 3, Rect = 4, Buffer = 5, SubpassData = 6 };
}  // namespace spv

struct SpirvType {
  enum Kind { Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Image, Sampler, SampledImage,
              Pointer, Other };
  Kind kind = Other;
  uint32_t width = 0;       // Int, Float: bits
  bool is_signed = false;   // Int
  uint32_t element = 0;     // Vector, Matrix (column type), Array, RuntimeArray, SampledImage, Pointer
  uint32_t count = 0;       // Vector components, Matrix columns, Array length
  std::vector<uint32_t> members;  // Struct
  uint32_t storage_class = 0;     // Pointer
  // Image operands, in SPIR-V's encoding.
  uint32_t sampled_type = 0, dim = 0, depth = 0, arrayed = 0, multisampled = 0, sampled = 0, format = 0;
};

struct SpirvDecorations {
  std::optional<uint32_t> location, component, binding, descriptor_set, offset, array_stride, matrix_stride,
      builtin, index;
  bool block = false, buffer_block = false, flat = false, no_perspective = false, centroid = false,
       sample = false, row_major = false, patch = false;
};

struct SpirvVariable {
  uint32_t id = 0;
  uint32_t pointer_type = 0;
  uint32_t type = 0;  // the pointee
  uint32_t storage_class = 0;
};

struct SpirvEntryPoint {
  uint32_t model = 0;
  uint32_t function = 0;
  std::string name;
  std::vector<uint32_t> interface;
  std::array<uint32_t, 3> local_size{1, 1, 1};
  std::vector<uint32_t> execution_modes;  // the OpExecutionMode modes, without their operands
};

class SpirvModule {
 public:
  static Result<SpirvModule> parse(std::span<const uint32_t> words);

  uint32_t version() const { return version_; }
  const std::vector<SpirvEntryPoint>& entry_points() const { return entry_points_; }
  const std::vector<SpirvVariable>& variables() const { return variables_; }
  // The type with this id; a Kind::Other placeholder for unknown ids.
  const SpirvType& type(uint32_t id) const;
  const SpirvDecorations& decorations(uint32_t id) const;
  const SpirvDecorations& member_decorations(uint32_t struct_id, uint32_t member) const;
  std::string name(uint32_t id) const;
  // The value of a 32- or 64-bit integer (spec) constant, if `id` is one.
  std::optional<uint64_t> integer_constant(uint32_t id) const;
  bool has_capability(uint32_t capability) const;
  // Every OpCapability's operand, in module order.
  const std::vector<uint32_t>& capabilities() const { return capabilities_; }

 private:
  uint32_t version_ = 0;
  std::vector<SpirvEntryPoint> entry_points_;
  std::vector<SpirvVariable> variables_;
  std::unordered_map<uint32_t, SpirvType> types_;
  std::unordered_map<uint32_t, SpirvDecorations> decorations_;
  std::map<std::pair<uint32_t, uint32_t>, SpirvDecorations> member_decorations_;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint32_t, uint64_t> constants_;
  std::vector<uint32_t> capabilities_;
};

}  // namespace sluice::exec
