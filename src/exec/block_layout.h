// Byte layout of buffer blocks as the SPIR-V declares it (Offset,
// ArrayStride, MatrixStride, RowMajor): the size a buffer must have, and the
// offset and kind of every scalar in it. The runner fills buffers scalar by
// scalar from this, and comparisons read results back the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "exec/spirv_module.h"

namespace sluice::exec {

enum class ScalarKind : uint8_t { Float, Int, Uint, Bool };

const char* scalar_kind_name(ScalarKind kind);

struct ScalarSlot {
  uint32_t offset = 0;
  ScalarKind kind = ScalarKind::Float;
  uint8_t bytes = 4;  // 2, 4 or 8
};

struct BlockLayout {
  uint64_t static_size = 0;     // bytes before any runtime array
  uint64_t runtime_stride = 0;  // ArrayStride of a trailing runtime array; 0 when there is none
  std::vector<ScalarSlot> slots;
};

// The layout of `type_id` (normally a Block struct) with `runtime_length`
// elements in a trailing runtime array.
BlockLayout block_layout(const SpirvModule& module, uint32_t type_id, uint32_t runtime_length);

// The byte size of a type as laid out in a block, ignoring runtime arrays.
uint64_t layout_size(const SpirvModule& module, uint32_t type_id);

// The scalar kind and component count of a scalar or vector type; count 0
// when the type is neither.
struct ScalarVector {
  ScalarKind kind = ScalarKind::Float;
  uint32_t components = 0;
  uint32_t bytes = 4;
};
ScalarVector scalar_vector(const SpirvModule& module, uint32_t type_id);

}  // namespace sluice::exec
