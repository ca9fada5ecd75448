// Instruction selection for textures, storage images and atomics.
//
// Texture's flags pick the instruction: Fetch → OpImageFetch, Gather →
// OpImage(Dref)Gather, else OpImageSample{Proj}{Dref}{Implicit,Explicit}Lod;
// its optional operands become SPIR-V image operands, which must appear in
// the order of their mask bits (Bias, Lod, Grad, ConstOffset/Offset,
// Sample). Implicit-LOD sampling exists only in fragment shaders, so other
// stages sample at an explicit LOD of 0, as GLSL specifies.
#include <fmt/format.h>

#include "ir/texture.h"
#include "ir/typing.h"
#include "output/spirv/function_emitter.h"

namespace sluice::spirv::detail {
namespace {

struct ImageOperands {
  std::uint32_t mask = 0;
  std::vector<std::uint32_t> ids;
  void add(spv::ImageOperandsMask bit, std::initializer_list<std::uint32_t> operands) {
    mask |= static_cast<std::uint32_t>(bit);
    ids.insert(ids.end(), operands.begin(), operands.end());
  }
};

}  // namespace

std::uint32_t FunctionEmitter::image_of(ir::Operand operand) {
  if (operand.is_register()) {
    // A sampled image made here: use the image it was made from.
    if (const std::uint32_t* s = sampled_image_of_.find(operand.value()))
      return value(sampled_images_[*s - 1].image);
  }
  const ir::TypeId t = type_of(operand);
  const std::uint32_t v = value(operand);
  if (t.valid() && m_.type(t).kind == ir::TypeKind::SampledImage)
    return op(spv::Op::OpImage, type_id(m_.type(t).element), {v});
  return v;
}

void FunctionEmitter::emit_texture(const ir::Instruction& inst) {
  if (!inst.result.valid()) return;
  const ir::TypeId rt = m_.reg(inst.result).type;
  const std::uint32_t t = type_id(rt);
  const ir::TypeId st = type_of(inst.operands[0]);
  const ir::Type& sty = type_at(st);
  const ir::ImageDescriptor& image =
      sty.kind == ir::TypeKind::SampledImage ? m_.type(sty.element).image : sty.image;
  if (inst.opcode != ir::Opcode::Texture) {
    mc_.require(spv::Capability::ImageQuery);
    switch (inst.opcode) {
      case ir::Opcode::TextureSize: {
        const std::uint32_t img = image_of(inst.operands[0]);
        const bool lod_allowed = !image.multisampled && image.dim != ir::ImageDim::Buffer &&
                                 image.dim != ir::ImageDim::Rect && !image.storage;
        if (lod_allowed) {
          const std::uint32_t lod = inst.operands.size() > 1 ? value(inst.operands[1]) : mc_.int_constant(0);
          return set_result(inst, op(spv::Op::OpImageQuerySizeLod, t, {img, lod}));
        }
        return set_result(inst, op(spv::Op::OpImageQuerySize, t, {img}));
      }
      case ir::Opcode::TextureQueryLod:
        return set_result(inst, op(spv::Op::OpImageQueryLod, t, {value(inst.operands[0]), value(inst.operands[1])}));
      case ir::Opcode::TextureQueryLevels:
        return set_result(inst, op(spv::Op::OpImageQueryLevels, t, {image_of(inst.operands[0])}));
      case ir::Opcode::TextureSamples:
        return set_result(inst, op(spv::Op::OpImageQuerySamples, t, {image_of(inst.operands[0])}));
      default: return mc_.fail(fmt::format("no SPIR-V for {}", ir::name(inst.opcode)));
    }
  }
  const std::uint16_t flags = inst.aux;
  if (inst.operands.size() != ir::texture_operand_count(flags))
    return mc_.fail(fmt::format("{} has {} operands", ir::texture_opcode_name(flags), inst.operands.size()));
  std::size_t next = 2;
  auto take = [&](bool present) { return present ? inst.operands[next++] : ir::Operand(); };
  const bool compare = flags & ir::kTextureCompare, fetch = flags & ir::kTextureFetch;
  const bool gather = flags & ir::kTextureGather, proj = flags & ir::kTextureProj;
  const bool has_lod = flags & (ir::kTextureLod | ir::kTextureFetch), grad = flags & ir::kTextureGrad;
  const ir::Operand dref = take(compare), lod = take(has_lod), bias = take(flags & ir::kTextureBias);
  const ir::Operand dx = take(grad), dy = take(grad), offset = take(flags & ir::kTextureOffset);
  const ir::Operand component = take(gather && !compare);
  if ((fetch || gather) && proj) return mc_.fail("projective texel fetch or gather");

  const bool fragment = m_.shader().stage == ir::ShaderStage::Fragment;
  const bool explicit_lod = (flags & ir::kTextureLod) || grad || !fragment;
  ImageOperands operands;
  if ((flags & ir::kTextureBias) && !explicit_lod) operands.add(spv::ImageOperandsMask::Bias, {value(bias)});
  if (fetch) {
    if (image.multisampled) {
      // texelFetch(sampler2DMS, coord, sample): the sample is a Sample operand, after the offset.
    } else if (image.dim != ir::ImageDim::Buffer && image.dim != ir::ImageDim::Rect) {
      operands.add(spv::ImageOperandsMask::Lod, {value(lod)});
    }
  } else if (!gather && explicit_lod && !grad) {
    operands.add(spv::ImageOperandsMask::Lod, {(flags & ir::kTextureLod) ? value(lod) : mc_.float_constant(0.0f)});
  }
  if (grad) operands.add(spv::ImageOperandsMask::Grad, {value(dx), value(dy)});
  if (flags & ir::kTextureOffset) {
    const bool constant = offset.is_constant() && offset.value() < m_.constant_count() &&
                          !m_.constant(offset.as_constant()).spec_id;
    if (constant) {
      operands.add(spv::ImageOperandsMask::ConstOffset, {value(offset)});
    } else {
      mc_.require(spv::Capability::ImageGatherExtended);
      operands.add(spv::ImageOperandsMask::Offset, {value(offset)});
    }
  }
  if (fetch && image.multisampled) operands.add(spv::ImageOperandsMask::Sample, {value(lod)});

  std::vector<std::uint32_t> args;
  spv::Op o;
  if (fetch) {
    o = spv::Op::OpImageFetch;
    args = {image_of(inst.operands[0]), value(inst.operands[1])};
  } else {
    args = {value(inst.operands[0]), value(inst.operands[1])};
    if (gather) {
      o = compare ? spv::Op::OpImageDrefGather : spv::Op::OpImageGather;
      args.push_back(compare ? value(dref) : value(component));
    } else {
      if (compare) args.push_back(value(dref));
      using O = spv::Op;
      static constexpr O kSample[2][2][2] = {  // [proj][dref][explicit]
          {{O::OpImageSampleImplicitLod, O::OpImageSampleExplicitLod},
           {O::OpImageSampleDrefImplicitLod, O::OpImageSampleDrefExplicitLod}},
          {{O::OpImageSampleProjImplicitLod, O::OpImageSampleProjExplicitLod},
           {O::OpImageSampleProjDrefImplicitLod, O::OpImageSampleProjDrefExplicitLod}}};
      o = kSample[proj][compare][explicit_lod];
    }
  }
  if (operands.mask != 0) {
    args.push_back(operands.mask);
    args.insert(args.end(), operands.ids.begin(), operands.ids.end());
  }
  set_result(inst, op(o, t, args));
}

void FunctionEmitter::emit_image(const ir::Instruction& inst) {
  if (inst.opcode != ir::Opcode::ImageLoad && inst.opcode != ir::Opcode::ImageStore) return emit_image_atomic(inst);
  const ir::Type& it = type_at(type_of(inst.operands[0]));
  if (it.kind != ir::TypeKind::Image) return mc_.fail("ImageLoad/ImageStore need an image");
  const bool unknown_format = it.image.format.empty() || it.image.format == "unknown";
  const bool subpass = it.image.dim == ir::ImageDim::SubpassData;
  const std::uint32_t img = value(inst.operands[0]);
  const std::uint32_t coord = value(inst.operands[1]);
  if (inst.opcode == ir::Opcode::ImageLoad) {
    if (!inst.result.valid()) return;
    if (unknown_format && !subpass) mc_.require(spv::Capability::StorageImageReadWithoutFormat);
    std::vector<std::uint32_t> args{img, coord};
    if (inst.operands.size() > 2) {
      args.push_back(static_cast<std::uint32_t>(spv::ImageOperandsMask::Sample));
      args.push_back(value(inst.operands[2]));
    }
    return set_result(inst, op(spv::Op::OpImageRead, type_id(m_.reg(inst.result).type), args));
  }
  if (unknown_format) mc_.require(spv::Capability::StorageImageWriteWithoutFormat);
  const bool with_sample = inst.operands.size() > 3;
  const std::uint32_t texel = value(inst.operands[with_sample ? 3 : 2]);
  const std::uint32_t sample = with_sample ? value(inst.operands[2]) : 0;
  const std::size_t at = body_.begin(spv::Op::OpImageWrite);
  for (std::uint32_t w : {img, coord, texel}) body_.push(w);
  if (with_sample) {
    body_.push(static_cast<std::uint32_t>(spv::ImageOperandsMask::Sample));
    body_.push(sample);
  }
  body_.finish(at, spv::Op::OpImageWrite);
}

void FunctionEmitter::emit_image_atomic(const ir::Instruction& inst) {
  // imageAtomic*(image, coord, [sample], value...): an atomic on the texel
  // pointer OpImageTexelPointer makes from the image variable.
  const ir::Operand image = inst.operands[0];
  const std::uint32_t* image_pointer = image.is_register() ? image_pointer_of_.find(image.value()) : nullptr;
  if (!image_pointer || !inst.result.valid())
    return mc_.fail(fmt::format("'{}': {} needs an image loaded from its variable", f_.name.text, ir::name(inst.opcode)));
  const ir::Type& it = m_.type(type_of(image));
  const ir::TypeId rt = m_.reg(inst.result).type;
  const std::size_t values = inst.opcode == ir::Opcode::ImageAtomicCompSwap ? 2 : 1;
  const std::size_t first_value = inst.operands.size() - values;
  const std::uint32_t sample = it.image.multisampled ? value(inst.operands[2]) : mc_.uint_constant(0);
  // OpTypePointer Image has no IR counterpart; the context keeps one per scalar.
  const std::uint32_t texel = op(spv::Op::OpImageTexelPointer, mc_.image_texel_pointer_type(type_id(rt)),
                                 {*image_pointer, value(inst.operands[1]), sample});
  const bool is_signed = ir::component_kind(m_, rt) == ir::ScalarKind::Int;
  const std::uint32_t scope = mc_.uint_constant(1), semantics = mc_.uint_constant(0);
  spv::Op o = spv::Op::OpNop;
  switch (inst.opcode) {
    case ir::Opcode::ImageAtomicAdd: o = spv::Op::OpAtomicIAdd; break;
    case ir::Opcode::ImageAtomicMin: o = is_signed ? spv::Op::OpAtomicSMin : spv::Op::OpAtomicUMin; break;
    case ir::Opcode::ImageAtomicMax: o = is_signed ? spv::Op::OpAtomicSMax : spv::Op::OpAtomicUMax; break;
    case ir::Opcode::ImageAtomicAnd: o = spv::Op::OpAtomicAnd; break;
    case ir::Opcode::ImageAtomicOr: o = spv::Op::OpAtomicOr; break;
    case ir::Opcode::ImageAtomicXor: o = spv::Op::OpAtomicXor; break;
    case ir::Opcode::ImageAtomicExchange: o = spv::Op::OpAtomicExchange; break;
    case ir::Opcode::ImageAtomicCompSwap: {
      const std::uint32_t comparator = value(inst.operands[first_value]), v = value(inst.operands[first_value + 1]);
      return set_result(inst, op(spv::Op::OpAtomicCompareExchange, type_id(rt),
                                 {texel, scope, semantics, semantics, v, comparator}));
    }
    default: return mc_.fail(fmt::format("no SPIR-V for {}", ir::name(inst.opcode)));
  }
  set_result(inst, op(o, type_id(rt), {texel, scope, semantics, value(inst.operands[first_value])}));
}

void FunctionEmitter::emit_atomic(const ir::Instruction& inst) {
  const std::uint32_t pointer = memory_pointer(inst.operands[0]);
  if (!inst.result.valid() || pointer == 0) return;
  const ir::TypeId rt = m_.reg(inst.result).type;
  const bool is_signed = ir::component_kind(m_, rt) == ir::ScalarKind::Int;
  const std::uint32_t t = type_id(rt);
  const std::uint32_t scope = mc_.uint_constant(1);      // Device
  const std::uint32_t semantics = mc_.uint_constant(0);  // Relaxed, as GLSL's atomic*()
  std::vector<std::uint32_t> v;
  for (std::size_t i = 1; i < inst.operands.size(); ++i) v.push_back(value(inst.operands[i]));
  spv::Op o = spv::Op::OpNop;
  switch (inst.opcode) {
    case ir::Opcode::AtomicAdd: o = spv::Op::OpAtomicIAdd; break;
    case ir::Opcode::AtomicMin: o = is_signed ? spv::Op::OpAtomicSMin : spv::Op::OpAtomicUMin; break;
    case ir::Opcode::AtomicMax: o = is_signed ? spv::Op::OpAtomicSMax : spv::Op::OpAtomicUMax; break;
    case ir::Opcode::AtomicAnd: o = spv::Op::OpAtomicAnd; break;
    case ir::Opcode::AtomicOr: o = spv::Op::OpAtomicOr; break;
    case ir::Opcode::AtomicXor: o = spv::Op::OpAtomicXor; break;
    case ir::Opcode::AtomicExchange: o = spv::Op::OpAtomicExchange; break;
    case ir::Opcode::AtomicCompSwap:
      // IR: (pointer, comparator, value); SPIR-V: value before comparator.
      return set_result(inst, op(spv::Op::OpAtomicCompareExchange, t, {pointer, scope, semantics, semantics, v[1], v[0]}));
    default: return mc_.fail(fmt::format("no SPIR-V for {}", ir::name(inst.opcode)));
  }
  set_result(inst, op(o, t, {pointer, scope, semantics, v[0]}));
}

}  // namespace sluice::spirv::detail
