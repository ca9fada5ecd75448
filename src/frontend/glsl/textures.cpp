// Texture and image built-ins: GLSL's texture* family becomes one Texture
// instruction whose flags (ir/texture.h) say which operands follow.
//
// The IR's operand conventions, which differ from GLSL's argument lists:
// - the coordinate holds exactly the components the image needs (u[, v[,
//   w]], then the array layer), and for Proj the q component last: GLSL's
//   textureProj(sampler2D, vec4 P) gives (P.x, P.y, P.w);
// - for shadow samplers the depth reference is its own operand, taken from
//   the component GLSL packs it in (P.z for sampler2DShadow, P.w for
//   samplerCubeShadow and sampler2DArrayShadow; always P.z for
//   sampler1DShadow) or from the separate compare argument
//   (samplerCubeArrayShadow, textureGather);
// - the Fetch operand is the level of detail, the sample number for
//   multisampled images, and the constant 0 for buffer and rectangle
//   images, which have neither;
// - textureGather without a component argument gathers component 0.
#include <fmt/format.h>

#include "frontend/glsl/translator.h"
#include "ir/texture.h"
#include "ir/typing.h"

namespace sluice::glsl_in::detail {
namespace {

std::uint32_t coordinate_dimensions(const glslang::TSampler& s) {
  std::uint32_t n = 2;
  switch (s.dim) {
    case glslang::Esd1D:
    case glslang::EsdBuffer: n = 1; break;
    case glslang::Esd3D:
    case glslang::EsdCube: n = 3; break;
    default: n = 2; break;
  }
  return n + (s.isArrayed() ? 1 : 0);
}

}  // namespace

Value Translator::texture(const TIntermOperator* node, std::span<TIntermTyped* const> args) {
  using ir::Opcode;
  const glslang::TOperator op = node->getOp();
  if (args.empty() || args[0]->getBasicType() != glslang::EbtSampler) {
    unsupported(node->getLoc(), fmt::format("the texture function '{}'", operator_word(node)));
    return {};
  }
  const glslang::TSampler& sampler = args[0]->getType().getSampler();
  const ir::Operand image = rvalue(args[0]);
  if (failed_) return {};
  auto rest = [&](std::size_t from) {
    std::vector<ir::Operand> ops{image};
    for (std::size_t i = from; i < args.size(); ++i) ops.push_back(rvalue(args[i]));
    return ops;
  };
  switch (op) {
    case glslang::EOpTextureQuerySize: {
      auto ops = rest(1);
      locate(node);
      return Value::rvalue(emit(Opcode::TextureSize, ops, node));
    }
    case glslang::EOpTextureQueryLod: {
      auto ops = rest(1);
      locate(node);
      return Value::rvalue(emit(Opcode::TextureQueryLod, ops, node));
    }
    case glslang::EOpTextureQueryLevels: locate(node); return Value::rvalue(emit(Opcode::TextureQueryLevels, {image}, node));
    case glslang::EOpTextureQuerySamples: locate(node); return Value::rvalue(emit(Opcode::TextureSamples, {image}, node));
    default: break;
  }
  glslang::TCrackedTextureOp cracked;
  node->crackTexture(sampler, cracked);
  if (cracked.offsets || cracked.lodClamp || cracked.fragMask || cracked.subpass || node->isSparseTexture() ||
      node->isImageFootprint() || (cracked.gather && cracked.lod) || args.size() < 2) {
    unsupported(node->getLoc(), fmt::format("the texture function '{}'", operator_word(node)));
    return {};
  }
  const ir::Operand p = rvalue(args[1]);
  if (failed_) return {};
  const std::uint32_t n = std::max<std::uint32_t>(1, ir::component_count(module_, type_of(p)));
  const std::uint32_t dims = coordinate_dimensions(sampler);
  std::size_t k = 2;
  auto next = [&]() -> ir::Operand {
    if (k >= args.size()) {
      unsupported(node->getLoc(), fmt::format("this form of '{}'", operator_word(node)));
      return kNoValue;
    }
    return rvalue(args[k++]);
  };
  auto component = [&](std::uint32_t i) {
    return emit(Opcode::ExtractVectorComponent, {p, ir::Operand::literal(i)}, node);
  };

  std::uint16_t flags = 0;
  std::optional<ir::Operand> dref;
  if (sampler.isShadow()) {
    flags |= ir::kTextureCompare;
    if (cracked.gather || n <= dims + (cracked.proj ? 1u : 0u)) {
      dref = next();
    } else {
      const bool one_d = sampler.dim == glslang::Esd1D && !sampler.isArrayed();
      dref = component(one_d ? 2 : dims);
    }
  }
  // The coordinate: components 0..dims-1, then q for projective lookups.
  std::vector<std::uint32_t> picks;
  for (std::uint32_t i = 0; i < dims && i < n; ++i) picks.push_back(i);
  if (cracked.proj) picks.push_back(n - 1);
  ir::Operand coordinate = p;
  bool identity = picks.size() == n;
  for (std::uint32_t i = 0; i < picks.size() && identity; ++i) identity = picks[i] == i;
  if (!identity) {
    if (picks.size() == 1) {
      coordinate = component(picks[0]);
    } else {
      std::vector<ir::Operand> ops{p};
      for (std::uint32_t i : picks) ops.push_back(ir::Operand::literal(i));
      coordinate = emit(Opcode::ExtractVectorComponentMulti, ops, node);
    }
  }

  std::vector<ir::Operand> operands{image, coordinate};
  if (dref) operands.push_back(*dref);
  if (cracked.proj) flags |= ir::kTextureProj;
  if (cracked.fetch) {
    flags |= ir::kTextureFetch;
    operands.push_back(cracked.lod || sampler.isMultiSample() ? next() : ir::Operand(ir::predefined::kIntZero));
  } else if (cracked.lod) {
    flags |= ir::kTextureLod;
    operands.push_back(next());
  }
  std::optional<ir::Operand> offset, bias;
  std::vector<ir::Operand> gradients;
  if (cracked.grad) {
    flags |= ir::kTextureGrad;
    gradients.push_back(next());
    gradients.push_back(next());
  }
  if (cracked.offset) {
    flags |= ir::kTextureOffset;
    offset = next();
  }
  std::optional<ir::Operand> gather_component;
  if (cracked.gather) {
    flags |= ir::kTextureGather;
    if (!sampler.isShadow()) gather_component = k < args.size() ? next() : ir::Operand(ir::predefined::kIntZero);
  } else if (k < args.size() && !cracked.fetch && !cracked.lod && !cracked.grad) {
    flags |= ir::kTextureBias;
    bias = next();
  }
  if (k != args.size()) {
    unsupported(node->getLoc(), fmt::format("this form of '{}'", operator_word(node)));
    return {};
  }
  if (bias) operands.push_back(*bias);
  operands.insert(operands.end(), gradients.begin(), gradients.end());
  if (offset) operands.push_back(*offset);
  if (gather_component) operands.push_back(*gather_component);
  if (failed_) return {};
  locate(node);
  return Value::rvalue(emit(Opcode::Texture, operands, node, flags));
}

Value Translator::image(const TIntermOperator* node, std::span<TIntermTyped* const> args) {
  using ir::Opcode;
  std::optional<Opcode> opcode;
  switch (node->getOp()) {
    case glslang::EOpImageQuerySize: opcode = Opcode::TextureSize; break;
    case glslang::EOpImageQuerySamples: opcode = Opcode::TextureSamples; break;
    case glslang::EOpImageLoad: opcode = Opcode::ImageLoad; break;
    case glslang::EOpImageStore: opcode = Opcode::ImageStore; break;
    case glslang::EOpImageAtomicAdd: opcode = Opcode::ImageAtomicAdd; break;
    case glslang::EOpImageAtomicMin: opcode = Opcode::ImageAtomicMin; break;
    case glslang::EOpImageAtomicMax: opcode = Opcode::ImageAtomicMax; break;
    case glslang::EOpImageAtomicAnd: opcode = Opcode::ImageAtomicAnd; break;
    case glslang::EOpImageAtomicOr: opcode = Opcode::ImageAtomicOr; break;
    case glslang::EOpImageAtomicXor: opcode = Opcode::ImageAtomicXor; break;
    case glslang::EOpImageAtomicExchange: opcode = Opcode::ImageAtomicExchange; break;
    case glslang::EOpImageAtomicCompSwap: opcode = Opcode::ImageAtomicCompSwap; break;
    default: break;
  }
  if (!opcode || args.empty()) {
    unsupported(node->getLoc(), fmt::format("the image function '{}'", operator_word(node)));
    return {};
  }
  std::vector<ir::Operand> ops;
  for (TIntermTyped* a : args) ops.push_back(rvalue(a));
  if (failed_) return {};
  locate(node);
  return Value::rvalue(emit(*opcode, ops, node));
}

}  // namespace sluice::glsl_in::detail
