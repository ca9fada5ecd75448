// Image instructions into the IR's Texture, TextureSize/Query*, ImageLoad
// and ImageStore. The inverse of output/spirv/images.cpp: a sampling
// instruction's name says projective, depth comparison and explicit LOD,
// its image-operand mask (SPIR-V spec §3.14) says bias, LOD, gradients,
// offset and sample; these become the Texture flags, whose operand order is
// fixed by ir/texture.h. OpImage (the image of a sampled image) is the
// sampled image itself: every IR instruction that takes an image also takes
// a sampled one.
#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"
#include "ir/texture.h"
#include "ir/typing.h"

namespace sluice::spirv_in::detail {
namespace {

using O = ir::Opcode;
using spv::Op;

}  // namespace

ir::Operand Reader::exact_coordinate(const Instruction& inst, ir::Operand image, ir::Operand coordinate, ir::Opcode op,
                                     std::uint16_t flags) {
  if (failed() || !m_.type_of(image).valid() || !m_.type_of(coordinate).valid()) return coordinate;
  const ir::Type* it = &m_.type(m_.type_of(image));
  if (it->kind == ir::TypeKind::SampledImage) it = &m_.type(it->element);
  if (it->kind != ir::TypeKind::Image) return coordinate;
  const std::uint32_t need = ir::coordinate_components(*it, op, flags);
  const ir::TypeId ct = m_.type_of(coordinate);
  if (!ir::is_vector(m_, ct) || ir::component_count(m_, ct) <= need) return coordinate;  // fewer: the IR's error
  std::vector<ir::Operand> ops{coordinate};
  for (std::uint32_t k = 0; k < need; ++k) ops.push_back(ir::Operand::literal(k));
  return emit(inst, need == 1 ? O::ExtractVectorComponent : O::ExtractVectorComponentMulti, std::move(ops));
}

bool Reader::image_instruction(const Instruction& inst) {
  const auto v = [&](std::size_t k) { return value(in(inst, k)); };
  const ir::TypeId rt = inst.type_id ? type(inst.type_id) : ir::TypeId();
  const auto finish = [&](ir::RegisterId r) { set(inst, fit(inst, r, rt)); };
  switch (inst.opcode) {
    case Op::OpSampledImage: set(inst, emit_typed(inst, O::ConstructSampledImage, rt, {v(0), v(1)})); return true;
    case Op::OpImage: set(inst, v(0)); return true;
    case Op::OpImageQuerySizeLod: finish(emit(inst, O::TextureSize, {v(0), convert_kind(inst, v(1), ir::ScalarKind::Int)})); return true;
    case Op::OpImageQuerySize: finish(emit(inst, O::TextureSize, {v(0)})); return true;
    case Op::OpImageQueryLevels: finish(emit(inst, O::TextureQueryLevels, {v(0)})); return true;
    case Op::OpImageQuerySamples: finish(emit(inst, O::TextureSamples, {v(0)})); return true;
    case Op::OpImageQueryLod:
      finish(emit(inst, O::TextureQueryLod, {v(0), exact_coordinate(inst, v(0), v(1), O::TextureQueryLod)}));
      return true;
    case Op::OpImageRead: {
      std::vector<ir::Operand> ops{v(0), exact_coordinate(inst, v(0), convert_kind(inst, v(1), ir::ScalarKind::Int), O::ImageLoad)};
      if (in_count(inst) > 3 && (in(inst, 2) & static_cast<std::uint32_t>(spv::ImageOperandsMask::Sample)))
        ops.push_back(v(3));
      finish(emit(inst, O::ImageLoad, ops));
      return true;
    }
    case Op::OpImageWrite: {
      std::vector<ir::Operand> ops{v(0), exact_coordinate(inst, v(0), convert_kind(inst, v(1), ir::ScalarKind::Int), O::ImageStore)};
      if (in_count(inst) > 4 && (in(inst, 3) & static_cast<std::uint32_t>(spv::ImageOperandsMask::Sample)))
        ops.push_back(v(4));
      ir::Operand texel = v(2);
      if (failed() || !m_.type_of(ops[0]).valid()) return true;
      const ir::Type& it = m_.type(m_.type_of(ops[0]));
      if (it.kind == ir::TypeKind::Image) {
        const ir::TypeId want = m_.vector_type(it.image.sampled_type, 4);
        texel = fit(inst, texel, want);
      }
      ops.push_back(texel);
      emit(inst, O::ImageStore, ops);
      return true;
    }
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleExplicitLod:
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleDrefExplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjExplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
    case Op::OpImageSampleProjDrefExplicitLod:
    case Op::OpImageFetch:
    case Op::OpImageGather:
    case Op::OpImageDrefGather: break;
    default: return false;
  }
  const Op op = inst.opcode;
  const bool dref = op == Op::OpImageSampleDrefImplicitLod || op == Op::OpImageSampleDrefExplicitLod ||
                    op == Op::OpImageSampleProjDrefImplicitLod || op == Op::OpImageSampleProjDrefExplicitLod ||
                    op == Op::OpImageDrefGather;
  const bool proj = op == Op::OpImageSampleProjImplicitLod || op == Op::OpImageSampleProjExplicitLod ||
                    op == Op::OpImageSampleProjDrefImplicitLod || op == Op::OpImageSampleProjDrefExplicitLod;
  const bool gather = op == Op::OpImageGather || op == Op::OpImageDrefGather;
  const bool fetch = op == Op::OpImageFetch;
  std::uint16_t flags = 0;
  if (dref) flags |= ir::kTextureCompare;
  if (proj) flags |= ir::kTextureProj;
  if (gather) flags |= ir::kTextureGather;
  if (fetch) flags |= ir::kTextureFetch;
  const ir::Operand image = v(0);
  ir::Operand coord = v(1);
  if (fetch) coord = convert_kind(inst, coord, ir::ScalarKind::Int);
  std::size_t next = 2;
  ir::Operand dref_v, component;
  if (dref) dref_v = v(next++);
  else if (gather) component = convert_kind(inst, v(next++), ir::ScalarKind::Int);
  ir::Operand lod, bias, dx, dy, offset;
  bool has_lod = false;
  if (next < in_count(inst)) {
    const std::uint32_t mask = in(inst, next++);
    using M = spv::ImageOperandsMask;
    const auto has = [&](M bit) { return (mask & static_cast<std::uint32_t>(bit)) != 0; };
    if (has(M::Bias)) bias = v(next++), flags |= ir::kTextureBias;
    if (has(M::Lod)) {
      lod = v(next++);
      has_lod = true;
      if (!fetch) flags |= ir::kTextureLod;
    }
    if (has(M::Grad)) dx = v(next++), dy = v(next++), flags |= ir::kTextureGrad;
    if (has(M::ConstOffset) || has(M::Offset)) offset = v(next++), flags |= ir::kTextureOffset;
    if (has(M::ConstOffsets)) {
      fail(inst, "textureGatherOffsets (ConstOffsets) is not supported");
      return true;
    }
    if (has(M::Sample)) lod = v(next++), has_lod = true;
    if (has(M::MinLod)) {
      fail(inst, "MinLod image operands are not supported");
      return true;
    }
  }
  if (fetch && !has_lod) lod = m_.int_constant(0);
  if (fetch) lod = convert_kind(inst, lod, ir::ScalarKind::Int);
  if (flags & ir::kTextureOffset) offset = convert_kind(inst, offset, ir::ScalarKind::Int);
  std::vector<ir::Operand> ops{image, coord};
  if (dref) ops.push_back(dref_v);
  if (flags & (ir::kTextureLod | ir::kTextureFetch)) ops.push_back(lod);
  if (flags & ir::kTextureBias) ops.push_back(bias);
  if (flags & ir::kTextureGrad) ops.push_back(dx), ops.push_back(dy);
  if (flags & ir::kTextureOffset) ops.push_back(offset);
  if (gather && !dref) ops.push_back(component);
  if (failed()) return true;
  ops[1] = exact_coordinate(inst, image, coord, O::Texture, flags);
  finish(emit(inst, O::Texture, ops, flags));
  return true;
}

}  // namespace sluice::spirv_in::detail
