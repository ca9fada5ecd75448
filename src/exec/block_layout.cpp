// Walks block types along their explicit layout decorations.
#include "exec/block_layout.h"

#include <algorithm>

namespace sluice::exec {
namespace {

// Matrix layout comes from the struct member that holds the matrix (directly
// or through arrays), so it is passed down the walk.
struct MatrixLayout {
  uint32_t stride = 0;
  bool row_major = false;
};

uint64_t size_of(const SpirvModule& m, uint32_t id, MatrixLayout ml) {
  const SpirvType& t = m.type(id);
  switch (t.kind) {
    case SpirvType::Bool: return 4;
    case SpirvType::Int:
    case SpirvType::Float: return t.width / 8;
    case SpirvType::Vector: return t.count * size_of(m, t.element, ml);
    case SpirvType::Matrix: {
      const SpirvType& column = m.type(t.element);
      const uint64_t scalar = size_of(m, column.element, ml);
      if (ml.row_major) return column.count * (ml.stride ? ml.stride : t.count * scalar);
      return t.count * (ml.stride ? ml.stride : column.count * scalar);
    }
    case SpirvType::Array: {
      const auto stride = m.decorations(id).array_stride;
      return t.count * (stride ? *stride : size_of(m, t.element, ml));
    }
    case SpirvType::Struct: {
      uint64_t end = 0, offset = 0;
      for (uint32_t i = 0; i < t.members.size(); ++i) {
        const auto& md = m.member_decorations(id, i);
        if (md.offset) offset = *md.offset;
        const MatrixLayout member_ml{md.matrix_stride.value_or(0), md.row_major};
        offset += size_of(m, t.members[i], member_ml);
        end = std::max(end, offset);
      }
      return end;
    }
    default: return 0;  // runtime arrays and opaque types take no static space
  }
}

void collect(const SpirvModule& m, uint32_t id, uint64_t base, MatrixLayout ml, uint32_t runtime_length,
             std::vector<ScalarSlot>& out) {
  const SpirvType& t = m.type(id);
  switch (t.kind) {
    case SpirvType::Bool: out.push_back({static_cast<uint32_t>(base), ScalarKind::Bool, 4}); break;
    case SpirvType::Int:
      out.push_back({static_cast<uint32_t>(base), t.is_signed ? ScalarKind::Int : ScalarKind::Uint,
                     static_cast<uint8_t>(t.width / 8)});
      break;
    case SpirvType::Float:
      out.push_back({static_cast<uint32_t>(base), ScalarKind::Float, static_cast<uint8_t>(t.width / 8)});
      break;
    case SpirvType::Vector: {
      const uint64_t scalar = size_of(m, t.element, ml);
      for (uint32_t i = 0; i < t.count; ++i) collect(m, t.element, base + i * scalar, ml, 0, out);
      break;
    }
    case SpirvType::Matrix: {
      const SpirvType& column = m.type(t.element);
      const uint64_t scalar = size_of(m, column.element, ml);
      const uint64_t stride = ml.stride ? ml.stride : (ml.row_major ? t.count : column.count) * scalar;
      for (uint32_t c = 0; c < t.count; ++c)
        for (uint32_t r = 0; r < column.count; ++r) {
          const uint64_t offset = ml.row_major ? r * stride + c * scalar : c * stride + r * scalar;
          collect(m, column.element, base + offset, ml, 0, out);
        }
      break;
    }
    case SpirvType::Array:
    case SpirvType::RuntimeArray: {
      const auto decorated = m.decorations(id).array_stride;
      const uint64_t stride = decorated ? *decorated : size_of(m, t.element, ml);
      const uint32_t n = t.kind == SpirvType::Array ? t.count : runtime_length;
      for (uint32_t i = 0; i < n; ++i) collect(m, t.element, base + i * stride, ml, 0, out);
      break;
    }
    case SpirvType::Struct: {
      uint64_t offset = 0;
      for (uint32_t i = 0; i < t.members.size(); ++i) {
        const auto& md = m.member_decorations(id, i);
        if (md.offset) offset = *md.offset;
        const MatrixLayout member_ml{md.matrix_stride.value_or(0), md.row_major};
        collect(m, t.members[i], base + offset, member_ml, runtime_length, out);
        offset += size_of(m, t.members[i], member_ml);
      }
      break;
    }
    default: break;
  }
}

}  // namespace

const char* scalar_kind_name(ScalarKind kind) {
  switch (kind) {
    case ScalarKind::Float: return "float";
    case ScalarKind::Int: return "int";
    case ScalarKind::Uint: return "uint";
    case ScalarKind::Bool: return "bool";
  }
  return "?";
}

uint64_t layout_size(const SpirvModule& module, uint32_t type_id) { return size_of(module, type_id, {}); }

BlockLayout block_layout(const SpirvModule& module, uint32_t type_id, uint32_t runtime_length) {
  BlockLayout layout;
  layout.static_size = size_of(module, type_id, {});
  const SpirvType& t = module.type(type_id);
  if (t.kind == SpirvType::Struct && !t.members.empty()) {
    const uint32_t last = t.members.back();
    if (module.type(last).kind == SpirvType::RuntimeArray) {
      const auto stride = module.decorations(last).array_stride;
      layout.runtime_stride = stride ? *stride : size_of(module, module.type(last).element, {});
      const auto& md = module.member_decorations(type_id, static_cast<uint32_t>(t.members.size() - 1));
      if (md.offset) layout.static_size = std::max<uint64_t>(layout.static_size, *md.offset);
    }
  }
  collect(module, type_id, 0, {}, runtime_length, layout.slots);
  return layout;
}

ScalarVector scalar_vector(const SpirvModule& module, uint32_t type_id) {
  const SpirvType& t = module.type(type_id);
  auto scalar = [&](const SpirvType& s) -> ScalarVector {
    switch (s.kind) {
      case SpirvType::Float: return {ScalarKind::Float, 1, s.width / 8};
      case SpirvType::Int: return {s.is_signed ? ScalarKind::Int : ScalarKind::Uint, 1, s.width / 8};
      case SpirvType::Bool: return {ScalarKind::Bool, 1, 4};
      default: return {ScalarKind::Float, 0, 0};
    }
  };
  if (t.kind == SpirvType::Vector) {
    ScalarVector sv = scalar(module.type(t.element));
    if (sv.components) sv.components = t.count;
    return sv;
  }
  return scalar(t);
}

}  // namespace sluice::exec
