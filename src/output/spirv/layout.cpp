// std140/std430 sizes, alignments, strides and offsets (rules in layout.h).
// Recursion here follows type nesting only, which compute_facts() has
// bounded (ModuleContext rejects types nested deeper than kMaxTypeDepth).
#include "output/spirv/layout.h"

#include <algorithm>

namespace sluice::spirv::detail {
namespace {

std::uint32_t round_up(std::uint32_t v, std::uint32_t a) { return a == 0 ? v : (v + a - 1) / a * a; }

}  // namespace

bool Layouts::compute_facts(ir::TypeId* bad) {
  facts_.assign(m_.type_count(), TypeFacts{});
  for (std::uint32_t i = 0; i < m_.type_count(); ++i) {
    const ir::Type& t = m_.type(ir::TypeId(i));
    TypeFacts& f = facts_[i];
    auto child = [&](ir::TypeId c) {
      if (!c.valid() || c.index() >= i) {
        *bad = ir::TypeId(i);
        return false;
      }
      const TypeFacts& cf = facts_[c.index()];
      f.depth = std::max(f.depth, cf.depth + 1);
      f.contains_bool |= cf.contains_bool;
      f.contains_matrix |= cf.contains_matrix;
      f.aggregate |= cf.aggregate;
      f.contains_int |= cf.contains_int;
      return true;
    };
    switch (t.kind) {
      case ir::TypeKind::Scalar:
        f.contains_bool = t.scalar == ir::ScalarKind::Bool;
        f.contains_int = t.scalar == ir::ScalarKind::Int || t.scalar == ir::ScalarKind::Uint || t.width == 64;
        break;
      case ir::TypeKind::Vector:
      case ir::TypeKind::SampledImage:
        if (!child(t.element)) return false;
        break;
      case ir::TypeKind::Matrix:
        if (!child(t.element)) return false;
        f.contains_matrix = true;
        break;
      case ir::TypeKind::Array:
      case ir::TypeKind::UnsizedArray:
        if (!child(t.element)) return false;
        f.aggregate = true;
        break;
      case ir::TypeKind::Struct:
        for (const auto& member : t.members)
          if (!child(member.type)) return false;
        f.aggregate = true;
        break;
      case ir::TypeKind::Pointer:
        // A pointer's facts are not its pointee's; only check the reference.
        if (!t.element.valid() || t.element.index() >= i) {
          *bad = ir::TypeId(i);
          return false;
        }
        f.depth = facts_[t.element.index()].depth + 1;
        break;
      default:
        break;
    }
  }
  return true;
}

Flavour Layouts::normalize(ir::TypeId t, Flavour f) const {
  if (!is_laid_out(f)) return kPlain;
  const ir::Type& ty = m_.type(t);
  const TypeFacts& facts = facts_[t.index()];
  switch (ty.kind) {
    case ir::TypeKind::Scalar:
    case ir::TypeKind::Vector:
      // Only bool differs: blocks store it as uint.
      return facts.contains_bool ? static_cast<Flavour>(layout_of(f)) : kPlain;
    case ir::TypeKind::Array:
    case ir::TypeKind::UnsizedArray: {
      // An array of blocks (a descriptor array) keeps the buffer bit its
      // elements are declared with, so that the array's element type is the
      // block an access chain into the array yields (BufferBlock before
      // SPIR-V 1.3, as the variable's flavour says).
      ir::TypeId element = ty.element;
      while (m_.type(element).kind == ir::TypeKind::Array) element = m_.type(element).element;
      const bool of_blocks = m_.type(element).kind == ir::TypeKind::Struct && m_.type(element).is_block;
      return static_cast<Flavour>(layout_of(f) | (of_blocks ? (f & kBufferBit) : 0) |
                                  (facts.contains_matrix ? (f & kRowMajorBit) : 0));
    }
    case ir::TypeKind::Struct:
      return static_cast<Flavour>(layout_of(f) | (ty.is_block ? (f & kBufferBit) : 0) |
                                  (facts.contains_matrix ? (f & kRowMajorBit) : 0));
    default:
      return kPlain;
  }
}

Flavour Layouts::member_flavour(ir::TypeId t, Flavour f, std::uint32_t index) const {
  const ir::StructMember& member = m_.type(t).members[index];
  Flavour row = f & kRowMajorBit;  // GLSL: members inherit the enclosing matrix layout
  if (member.matrix_layout == ir::MatrixLayout::RowMajor) row = kRowMajorBit;
  if (member.matrix_layout == ir::MatrixLayout::ColumnMajor) row = 0;
  return static_cast<Flavour>(layout_of(f) | row);
}

Layouts::SizeAlign Layouts::size_align(ir::TypeId t, Flavour f) {
  const std::uint64_t key = pack_key(t.index(), f);
  if (const std::uint32_t* size = size_cache_.find(key)) return {*size, align_cache_.get(key)};
  const bool std140 = layout_of(f) == layout_of(kStd140);
  const ir::Type& ty = m_.type(t);
  SizeAlign r;
  switch (ty.kind) {
    case ir::TypeKind::Scalar: r = {ty.width / 8, ty.width / 8}; break;
    case ir::TypeKind::Vector: r = vector_size_align(ty.count, m_.type(ty.element).width / 8); break;
    case ir::TypeKind::Matrix: {
      const std::uint32_t stride = matrix_stride(t, f);
      const std::uint32_t n = is_row_major(f) ? m_.type(ty.element).count : ty.count;
      r = {stride * n, stride};
      break;
    }
    case ir::TypeKind::Array:
    case ir::TypeKind::UnsizedArray: {
      const SizeAlign e = size_align(ty.element, f);
      const std::uint32_t align = std140 ? round_up(e.align, 16) : e.align;
      r = {ty.kind == ir::TypeKind::Array ? array_stride(t, f) * ty.count : 0, align};
      break;
    }
    case ir::TypeKind::Struct: {
      const std::vector<std::uint32_t> offsets = member_offsets(t, f);
      std::uint32_t end = 0, align = std140 ? 16 : 1;
      for (std::uint32_t i = 0; i < ty.members.size(); ++i) {
        const SizeAlign mm = size_align(ty.members[i].type, member_flavour(t, f, i));
        end = std::max(end, offsets[i] + mm.size);
        align = std::max(align, mm.align);
      }
      r = {round_up(end, align), align};
      break;
    }
    default: r = {4, 4}; break;  // opaque types do not live in blocks
  }
  size_cache_.set(key, r.size);
  align_cache_.set(key, r.align);
  return r;
}

std::uint32_t Layouts::array_stride(ir::TypeId array, Flavour f) {
  const ir::Type& ty = m_.type(array);
  const SizeAlign e = size_align(ty.element, f);
  const std::uint32_t align = layout_of(f) == layout_of(kStd140) ? round_up(e.align, 16) : e.align;
  return round_up(e.size, align);
}

std::uint32_t Layouts::matrix_stride(ir::TypeId matrix, Flavour f) {
  const ir::Type& ty = m_.type(matrix);
  // Column-major: columns are vectors of `rows` components; row-major:
  // rows are vectors of `columns` components.
  const std::uint32_t n = is_row_major(f) ? ty.count : m_.type(ty.element).count;
  const SizeAlign v = vector_size_align(n, m_.type(m_.type(ty.element).element).width / 8);
  return layout_of(f) == layout_of(kStd140) ? round_up(v.align, 16) : v.align;
}

std::vector<std::uint32_t> Layouts::member_offsets(ir::TypeId st, Flavour f, std::uint32_t* misplaced) {
  const ir::Type& ty = m_.type(st);
  std::vector<std::uint32_t> offsets(ty.members.size());
  std::uint32_t next = 0;
  if (misplaced) *misplaced = UINT32_MAX;
  std::vector<std::uint32_t> ends(ty.members.size());
  for (std::uint32_t i = 0; i < ty.members.size(); ++i) {
    const SizeAlign mm = size_align(ty.members[i].type, member_flavour(st, f, i));
    const std::uint32_t offset = ty.members[i].offset ? *ty.members[i].offset : round_up(next, mm.align);
    if (misplaced && *misplaced == UINT32_MAX && offset % std::max(mm.align, 1u) != 0) *misplaced = i;
    offsets[i] = offset;
    ends[i] = offset + mm.size;
    next = offset + mm.size;
    // std140: whatever follows a struct or array starts at a multiple of 16.
    const ir::TypeKind k = m_.type(ty.members[i].type).kind;
    if (layout_of(f) == layout_of(kStd140) && (k == ir::TypeKind::Struct || k == ir::TypeKind::Array))
      next = round_up(next, 16);
  }
  // Explicit offsets may come in any order (Vulkan's offset rules ask only
  // that members do not overlap); in offset order, each member must start
  // at or after the end of the one before.
  if (misplaced && *misplaced == UINT32_MAX) {
    std::vector<std::uint32_t> order(ty.members.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return offsets[a] < offsets[b]; });
    for (std::size_t k = 1; k < order.size(); ++k)
      if (offsets[order[k]] < ends[order[k - 1]]) {
        *misplaced = order[k];
        break;
      }
  }
  return offsets;
}

}  // namespace sluice::spirv::detail
