// Type declarations. Each (IR type, flavour) pair becomes one SPIR-V type,
// declared the first time it is asked for, its constituents first; laid-out
// flavours carry their Offset/ArrayStride/MatrixStride decorations, blocks
// their Block or BufferBlock decoration. The recursion follows type nesting,
// which ModuleContext bounds to kMaxTypeDepth.
#include "output/spirv/context.h"

#include <fmt/format.h>

#include "ir/image_format.h"
#include "ir/typing.h"

namespace sluice::spirv::detail {
namespace {

spv::Dim dim_of(ir::ImageDim d) {
  switch (d) {
    case ir::ImageDim::Dim1D: return spv::Dim::Dim1D;
    case ir::ImageDim::Dim2D: return spv::Dim::Dim2D;
    case ir::ImageDim::Dim3D: return spv::Dim::Dim3D;
    case ir::ImageDim::Cube: return spv::Dim::Cube;
    case ir::ImageDim::Rect: return spv::Dim::Rect;
    case ir::ImageDim::Buffer: return spv::Dim::Buffer;
    case ir::ImageDim::SubpassData: return spv::Dim::SubpassData;
  }
  return spv::Dim::Dim2D;
}

// ir/image_format.h spells SPIR-V's Image Format values as numbers (the IR
// does not include the SPIR-V headers); these keep the two in step.
static_assert(static_cast<std::uint32_t>(spv::ImageFormat::Rgba32f) == 1);
static_assert(static_cast<std::uint32_t>(spv::ImageFormat::R8Snorm) == 20);
static_assert(static_cast<std::uint32_t>(spv::ImageFormat::R8ui) == 39);

std::uint32_t u32(spv::StorageClass s) { return static_cast<std::uint32_t>(s); }

}  // namespace

spv::StorageClass ModuleContext::storage_class(ir::StorageClass s) const {
  switch (s) {
    case ir::StorageClass::Function: return spv::StorageClass::Function;
    case ir::StorageClass::Private: return spv::StorageClass::Private;
    case ir::StorageClass::Input: return spv::StorageClass::Input;
    case ir::StorageClass::Output: return spv::StorageClass::Output;
    case ir::StorageClass::Uniform: return spv::StorageClass::Uniform;
    case ir::StorageClass::StorageBuffer:
      // Before SPIR-V 1.3, storage buffers are Uniform blocks decorated BufferBlock.
      return features.storage_buffer_class() ? spv::StorageClass::StorageBuffer : spv::StorageClass::Uniform;
    case ir::StorageClass::PushConstant: return spv::StorageClass::PushConstant;
    case ir::StorageClass::UniformConstant: return spv::StorageClass::UniformConstant;
    case ir::StorageClass::Workgroup: return spv::StorageClass::Workgroup;
  }
  return spv::StorageClass::Function;
}

ir::TypeId ModuleContext::vector_of(ir::ScalarKind kind, std::uint32_t n) const {
  const std::uint32_t scalar = 1 + static_cast<std::uint32_t>(kind);  // kFloat, kInt, kUint, kBool
  if (n <= 1) return ir::TypeId(scalar);
  // Predefined vectors: t5..t16, three sizes per scalar kind in the same order.
  return ir::TypeId(5 + 3 * static_cast<std::uint32_t>(kind) + (n - 2));
}

std::uint32_t ModuleContext::type(ir::TypeId t, Flavour f) {
  if (!t.valid() || t.index() >= m.type_count()) {
    fail(fmt::format("type t{} does not exist", t.index()));
    return 0;
  }
  f = layouts.normalize(t, f);
  if (f == kPlain) {
    if (plain_types_[t.index()] == 0) plain_types_[t.index()] = emit_type(t, kPlain);
    return plain_types_[t.index()];
  }
  const std::uint64_t key = pack_key(t.index(), f);
  if (std::uint32_t id = flavoured_types_.get(key)) return id;
  const std::uint32_t id = emit_type(t, f);
  flavoured_types_.set(key, id);
  return id;
}

std::uint32_t ModuleContext::pointer_type(ir::TypeId pointee, ir::StorageClass storage, Flavour f) {
  f = layouts.normalize(pointee, f);
  const std::uint64_t key = (static_cast<std::uint64_t>(pointee.index()) << 16) | (std::uint64_t{f} << 8) |
                            static_cast<std::uint64_t>(storage);
  if (std::uint32_t id = pointer_types_.get(key)) return id;
  const std::uint32_t element = type(pointee, f);
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpTypePointer, {id, u32(storage_class(storage)), element});
  pointer_types_.set(key, id);
  return id;
}

std::uint32_t ModuleContext::function_type(std::uint32_t return_type, std::span<const std::uint32_t> params) {
  std::vector<std::uint32_t> key{return_type};
  key.insert(key.end(), params.begin(), params.end());
  auto [it, inserted] = function_types_.emplace(std::move(key), 0);
  if (!inserted) return it->second;
  it->second = new_id();
  globals.op(spv::Op::OpTypeFunction, {it->second, return_type}, params);
  return it->second;
}

std::uint32_t ModuleContext::anonymous_struct(std::span<const std::uint32_t> members) {
  auto [it, inserted] = anonymous_structs_.emplace(std::vector<std::uint32_t>(members.begin(), members.end()), 0);
  if (!inserted) return it->second;
  it->second = new_id();
  globals.op(spv::Op::OpTypeStruct, {it->second}, members);
  return it->second;
}

std::uint32_t ModuleContext::image_texel_pointer_type(std::uint32_t scalar) {
  if (std::uint32_t id = texel_pointer_types_.get(scalar)) return id;
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpTypePointer, {id, u32(spv::StorageClass::Image), scalar});
  texel_pointer_types_.set(scalar, id);
  return id;
}

std::uint32_t ModuleContext::emit_type(ir::TypeId t, Flavour f) {
  const ir::Type& ty = m.type(t);
  switch (ty.kind) {
    case ir::TypeKind::Void: {
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeVoid, {id});
      return id;
    }
    case ir::TypeKind::Scalar: {
      if (ty.scalar == ir::ScalarKind::Bool && is_laid_out(f)) return type(ir::predefined::kUint);
      const std::uint32_t id = new_id();
      switch (ty.scalar) {
        case ir::ScalarKind::Float:
          globals.op(spv::Op::OpTypeFloat, {id, ty.width});
          if (ty.width == 64) require(spv::Capability::Float64);
          break;
        case ir::ScalarKind::Int: globals.op(spv::Op::OpTypeInt, {id, 32, 1}); break;
        case ir::ScalarKind::Uint: globals.op(spv::Op::OpTypeInt, {id, 32, 0}); break;
        case ir::ScalarKind::Bool: globals.op(spv::Op::OpTypeBool, {id}); break;
      }
      return id;
    }
    case ir::TypeKind::Vector: {
      if (is_laid_out(f)) return type(vector_of(ir::ScalarKind::Uint, ty.count));  // bool vector in a block
      const std::uint32_t element = type(ty.element);
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeVector, {id, element, ty.count});
      return id;
    }
    case ir::TypeKind::Matrix: {
      const std::uint32_t column = type(ty.element);
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeMatrix, {id, column, ty.count});
      return id;
    }
    case ir::TypeKind::Array:
    case ir::TypeKind::UnsizedArray: {
      const std::uint32_t element = type(ty.element, f);
      const std::uint32_t id = new_id();
      if (ty.kind == ir::TypeKind::Array) {
        if (ty.count == 0) fail(fmt::format("array type t{} has no elements", t.index()));
        const std::uint32_t length = ty.length.valid() ? constant(ty.length) : uint_constant(ty.count);
        globals.op(spv::Op::OpTypeArray, {id, element, length});
      } else {
        globals.op(spv::Op::OpTypeRuntimeArray, {id, element});
      }
      // Arrays of blocks are arrays of descriptors: they have no stride.
      const ir::Type& e = m.type(ty.element);
      if (is_laid_out(f) && !(e.kind == ir::TypeKind::Struct && e.is_block))
        decorate(id, spv::Decoration::ArrayStride, {layouts.array_stride(t, f)});
      return id;
    }
    case ir::TypeKind::Struct: {
      // Vulkan forbids opaque types inside structs (VUID-StandaloneSpirv-None-04667),
      // which GLSL for OpenGL allows (`uniform struct { sampler2D s; }`).
      for (std::uint32_t i = 0; i < ty.members.size() && features.vulkan; ++i) {
        ir::TypeId inner = ty.members[i].type;
        while (m.type(inner).kind == ir::TypeKind::Array || m.type(inner).kind == ir::TypeKind::UnsizedArray)
          inner = m.type(inner).element;
        if (ir::is_opaque(m.type(inner)))
          fail(fmt::format("struct '{}' holds the image or sampler '{}'; Vulkan does not allow opaque types in a "
                           "struct (VUID-StandaloneSpirv-None-04667)",
                           ty.name, ty.members[i].name));
      }
      std::vector<std::uint32_t> members;
      members.reserve(ty.members.size());
      for (std::uint32_t i = 0; i < ty.members.size(); ++i)
        members.push_back(type(ty.members[i].type, layouts.member_flavour(t, f, i)));
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeStruct, {id}, members);
      name(id, ty.name);
      for (std::uint32_t i = 0; i < ty.members.size(); ++i) member_name(id, i, ty.members[i].name);
      for (std::uint32_t i = 0; i < ty.members.size(); ++i) relax_member(id, t, i);
      if (is_laid_out(f)) decorate_struct_layout(t, f, id);
      for (std::uint32_t i = 0; i < ty.members.size() && !is_laid_out(f); ++i)
        if (ty.members[i].xfb_offset) member_decorate(id, i, spv::Decoration::Offset, {*ty.members[i].xfb_offset});
      for (std::uint32_t i = 0; i < ty.members.size(); ++i)
        if (ty.members[i].location) member_decorate(id, i, spv::Decoration::Location, {*ty.members[i].location});
      if (ty.is_block) {
        const bool buffer_block = (f & kBufferBit) != 0;
        decorate(id, buffer_block ? spv::Decoration::BufferBlock : spv::Decoration::Block);
        for (std::uint32_t i = 0; i < ty.members.size(); ++i) {
          if (ty.members[i].built_in.empty()) continue;
          if (auto b = built_in_from_name(ty.members[i].built_in)) {
            member_decorate(id, i, spv::Decoration::BuiltIn, {static_cast<std::uint32_t>(*b)});
            require_built_in(*b);
          } else
            fail(fmt::format("unknown built-in '{}' on member {} of '{}'", ty.members[i].built_in, i, ty.name));
        }
      }
      return id;
    }
    case ir::TypeKind::Image: return emit_image_type(ty.image);
    case ir::TypeKind::Sampler: {
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeSampler, {id});
      return id;
    }
    case ir::TypeKind::SampledImage: {
      const std::uint32_t image = type(ty.element);
      const std::uint32_t id = new_id();
      globals.op(spv::Op::OpTypeSampledImage, {id, image});
      return id;
    }
    case ir::TypeKind::Pointer: return pointer_type(ty.element, ty.storage, f);
  }
  return 0;
}

void ModuleContext::decorate_struct_layout(ir::TypeId t, Flavour f, std::uint32_t id) {
  const ir::Type& ty = m.type(t);
  std::uint32_t misplaced = 0;
  const std::vector<std::uint32_t> offsets = layouts.member_offsets(t, f, &misplaced);
  // Explicit offsets (layout(offset = N), or a SPIR-V input's Offset) that
  // break the layout's rules would make a module spirv-val rejects.
  if (misplaced != UINT32_MAX)
    return fail(fmt::format("member '{}' of '{}' is at offset {}, which {} does not allow (misaligned, or "
                            "overlapping another member)",
                            ty.members[misplaced].name, ty.name, offsets[misplaced],
                            layout_of(f) == layout_of(kStd140) ? "std140" : "std430"));
  for (std::uint32_t i = 0; i < ty.members.size(); ++i) {
    member_decorate(id, i, spv::Decoration::Offset, {offsets[i]});
    // Matrices, also inside arrays, take their order and stride on the member.
    ir::TypeId inner = ty.members[i].type;
    while (m.type(inner).kind == ir::TypeKind::Array || m.type(inner).kind == ir::TypeKind::UnsizedArray)
      inner = m.type(inner).element;
    if (m.type(inner).kind != ir::TypeKind::Matrix) continue;
    const Flavour mf = layouts.member_flavour(t, f, i);
    member_decorate(id, i, is_row_major(mf) ? spv::Decoration::RowMajor : spv::Decoration::ColMajor);
    member_decorate(id, i, spv::Decoration::MatrixStride, {layouts.matrix_stride(inner, mf)});
  }
}

std::uint32_t ModuleContext::emit_image_type(const ir::ImageDescriptor& d) {
  const std::uint32_t sampled_type = type(vector_of(d.sampled_type, 1));
  spv::ImageFormat format = spv::ImageFormat::Unknown;
  if (!d.format.empty() && d.format != "unknown") {
    if (const ir::ImageFormat* known = ir::find_image_format(d.format)) {
      format = static_cast<spv::ImageFormat>(known->spirv);
      if (known->extended) require(spv::Capability::StorageImageExtendedFormats);
    } else {
      fail(fmt::format("unknown image format '{}'", d.format));
    }
  }
  const bool subpass = d.dim == ir::ImageDim::SubpassData;
  const std::uint32_t sampled = (d.storage || subpass) ? 2 : 1;
  switch (d.dim) {
    case ir::ImageDim::Dim1D: require(d.storage ? spv::Capability::Image1D : spv::Capability::Sampled1D); break;
    case ir::ImageDim::Rect:
      // Vulkan enables neither SampledRect nor ImageRect (Vulkan spec, appendix
      // "SPIR-V Environment", the capabilities table).
      if (features.vulkan) fail("a Rect image (sampler2DRect, image2DRect) needs a capability Vulkan does not allow");
      require(d.storage ? spv::Capability::ImageRect : spv::Capability::SampledRect);
      break;
    case ir::ImageDim::Buffer:
      require(d.storage ? spv::Capability::ImageBuffer : spv::Capability::SampledBuffer);
      break;
    case ir::ImageDim::Cube:
      if (d.arrayed) require(d.storage ? spv::Capability::ImageCubeArray : spv::Capability::SampledCubeArray);
      break;
    case ir::ImageDim::SubpassData: require(spv::Capability::InputAttachment); break;
    default: break;
  }
  if (d.storage && d.multisampled) {
    require(spv::Capability::StorageImageMultisample);
    if (d.arrayed) require(spv::Capability::ImageMSArray);
  }
  const std::uint32_t id = new_id();
  globals.op(spv::Op::OpTypeImage, {id, sampled_type, static_cast<std::uint32_t>(dim_of(d.dim)), d.depth ? 1u : 0u,
                                    d.arrayed ? 1u : 0u, d.multisampled ? 1u : 0u, sampled,
                                    static_cast<std::uint32_t>(format)});
  return id;
}

}  // namespace sluice::spirv::detail
