// Texture sampling, queries and storage images. The IR keeps the depth
// reference of a comparison as its own operand (as SPIR-V does); GLSL folds
// it into the coordinate for all shadow samplers but cube arrays, and its
// argument order is sampler, coordinate, lod or gradients, offset, bias,
// gather component.
#include <fmt/format.h>

#include "ir/texture.h"
#include "ir/typing.h"
#include "output/glsl/expressions.h"
#include "output/glsl/types.h"

namespace sluice::glsl_out {

using ir::Opcode;
using ir::TypeId;

namespace {

// The image a texture operand refers to, and whether the operand is a
// sampled image (sampler2D) or a bare image (texture2D / image2D).
struct ImageOperand {
  const ir::ImageDescriptor* image = nullptr;
  bool sampled = false;
};

ImageOperand image_operand(const EmitContext& ctx, TypeId t) {
  if (!t.valid() || t.index() >= ctx.m.type_count()) return {};
  const ir::Type& ty = ctx.m.type(t);
  if (ty.kind == ir::TypeKind::Image) return {&ty.image, false};
  if (ty.kind == ir::TypeKind::SampledImage && ty.element.valid() && ty.element.index() < ctx.m.type_count() &&
      ctx.m.type(ty.element).kind == ir::TypeKind::Image)
    return {&ctx.m.type(ty.element).image, true};
  return {};
}

// The coordinate with the depth reference folded in, as GLSL's shadow
// sampling functions take it.
Expr shadow_coordinate(EmitContext& ctx, const ir::ImageDescriptor& image, bool proj, TypeId coord_type,
                       const Expr& coord, const Expr& dref) {
  const std::uint32_t n = ir::component_count(ctx.m, coord_type);
  if (proj) {
    // textureProj(sampler2DShadow, vec4(s, t, dref, q)): the IR's (s, t, q) gets dref before q.
    if (n != 3 || coord.access.has_effects()) {
      ctx.fail("projective depth comparison needs a vec3 coordinate without side effects");
      return coord;
    }
    const std::string c = operand_text(coord, Prec::Postfix);
    return Expr{fmt::format("vec4({}.xy, {}, {}.z)", c, operand_text(dref, Prec::Assignment), c), Prec::Postfix};
  }
  if (image.dim == ir::ImageDim::Dim1D && !image.arrayed) {
    // sampler1DShadow takes vec3(s, unused, dref).
    const Expr zero{"0.0"};
    const Expr parts[] = {coord, zero, dref};
    return call("vec3", parts);
  }
  if (n < 1 || n > 3) {
    ctx.fail(fmt::format("a depth comparison with a {}-component coordinate has no GLSL form", n));
    return coord;
  }
  const Expr parts[] = {coord, dref};
  return call(fmt::format("vec{}", n + 1), parts);
}

std::string samplerless(EmitContext& ctx, const ImageOperand& img) {
  // texelFetch / textureSize on a texture2D need GL_EXT_samplerless_texture_functions.
  if (!img.sampled && !img.image->storage) ctx.extensions.insert("GL_EXT_samplerless_texture_functions");
  return {};
}

Expr sample(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> ops, const ImageOperand& img) {
  const std::uint16_t f = inst.aux;
  using namespace ir;
  std::size_t next = 2;
  auto take = [&]() -> Expr& { return ops[next++]; };
  const Expr* dref = (f & kTextureCompare) ? &take() : nullptr;
  const Expr* lod = (f & (kTextureLod | kTextureFetch)) ? &take() : nullptr;
  const Expr* bias = (f & kTextureBias) ? &take() : nullptr;
  const Expr* dx = (f & kTextureGrad) ? &take() : nullptr;
  const Expr* dy = (f & kTextureGrad) ? &take() : nullptr;
  const Expr* offset = (f & kTextureOffset) ? &take() : nullptr;
  const Expr* component = ((f & kTextureGather) && !(f & kTextureCompare)) ? &take() : nullptr;

  std::string name;
  if (f & kTextureGather) {
    name = "textureGather";
  } else if (f & kTextureFetch) {
    name = "texelFetch";
    samplerless(ctx, img);
  } else {
    name = "texture";
    if (f & kTextureProj) name += "Proj";
    if (f & kTextureLod) name += "Lod";
    if (f & kTextureGrad) name += "Grad";
  }
  if (f & kTextureOffset) name += "Offset";

  // GLSL 4.60 §8.9.2 has textureLod for the depth comparisons of 1D and 2D
  // samplers and of sampler1DArrayShadow only (GL_EXT_texture_shadow_lod,
  // which adds the rest, is not in glslang 11).
  if ((f & kTextureCompare) && (f & kTextureLod) && !(f & kTextureGather) &&
      (img.image->dim == ImageDim::Cube || (img.image->dim == ImageDim::Dim2D && img.image->arrayed)))
    ctx.fail(fmt::format("{} of a {} depth comparison has no GLSL form", name,
                         img.image->dim == ImageDim::Cube ? "cube-map" : "2D-array"));
  std::vector<Expr> args{ops[0]};
  const bool cube_array_shadow = img.image->dim == ImageDim::Cube && img.image->arrayed;
  if (dref && dref->text.empty()) {
    args.push_back(ops[1]);  // the coordinate holds the depth reference (a split vector, source_forms.h)
  } else if (dref && !(f & kTextureGather) && !cube_array_shadow) {
    args.push_back(shadow_coordinate(ctx, *img.image, f & kTextureProj, ctx.m.type_of(inst.operands[1]), ops[1], *dref));
  } else {
    args.push_back(ops[1]);
    if (dref) args.push_back(*dref);
  }
  if (lod && !((f & kTextureFetch) && img.image->dim == ImageDim::Buffer)) args.push_back(*lod);
  if (dx) {
    args.push_back(*dx);
    args.push_back(*dy);
  }
  if (offset) args.push_back(*offset);
  if (bias) args.push_back(*bias);
  if (component) args.push_back(*component);
  return call(name, args);
}

}  // namespace

Expr compose_texture(EmitContext& ctx, const ir::Instruction& inst, std::span<Expr> ops) {
  const ImageOperand img = image_operand(ctx, ctx.m.type_of(inst.operands[0]));  // an image: the IR is valid
  const bool storage = img.image->storage;
  switch (inst.opcode) {
    case Opcode::Texture: return sample(ctx, inst, ops, img);
    case Opcode::TextureSize: {
      if (storage) return call("imageSize", ops.subspan(0, 1));
      samplerless(ctx, img);
      // Buffer, multisampled and rectangle textures have one size; the others take a lod.
      const bool has_lod = !img.image->multisampled && img.image->dim != ir::ImageDim::Buffer &&
                           img.image->dim != ir::ImageDim::Rect;
      std::vector<Expr> args{ops[0]};
      if (has_lod) args.push_back(ops.size() > 1 ? ops[1] : Expr{"0"});
      return call("textureSize", args);
    }
    case Opcode::TextureQueryLod:
      if (ctx.es) ctx.fail("textureQueryLod does not exist in GLSL ES");
      return call("textureQueryLod", ops);
    case Opcode::TextureQueryLevels:
      if (ctx.es) ctx.fail("textureQueryLevels does not exist in GLSL ES 3.10");
      samplerless(ctx, img);
      return call("textureQueryLevels", ops);
    case Opcode::TextureSamples:
      if (ctx.es) ctx.fail("textureSamples does not exist in GLSL ES");
      if (storage) return call("imageSamples", ops);
      samplerless(ctx, img);
      return call("textureSamples", ops);
    case Opcode::ImageLoad: return call("imageLoad", ops);
    case Opcode::ImageStore: return call("imageStore", ops);
    default:
      // ImageAtomicAdd ... ImageAtomicCompSwap: imageAtomicAdd(image, P, [sample,] data), same operand order.
      if (std::string f = builtin_by_name(inst.opcode); !f.empty() && f.starts_with("imageAtomic")) return call(f, ops);
      ctx.fail(fmt::format("{} is not a texture opcode", ir::name(inst.opcode)));
      return Expr{"0"};
  }
}

}  // namespace sluice::glsl_out
