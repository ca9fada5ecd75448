// ModuleContext set-up, names and decorations, and the table of built-in
// names. The type facts computed here bound every later recursion on type
// structure (kMaxTypeDepth).
#include "output/spirv/context.h"

#include <fmt/format.h>

namespace sluice::spirv::detail {
namespace {

struct BuiltInName {
  std::string_view name;
  spv::BuiltIn value;
};

#define SLUICE_BUILTIN(x) BuiltInName{#x, spv::BuiltIn::x}
constexpr BuiltInName kBuiltIns[] = {
    SLUICE_BUILTIN(Position),           SLUICE_BUILTIN(PointSize),
    SLUICE_BUILTIN(ClipDistance),       SLUICE_BUILTIN(CullDistance),
    SLUICE_BUILTIN(VertexId),           SLUICE_BUILTIN(InstanceId),
    SLUICE_BUILTIN(PrimitiveId),        SLUICE_BUILTIN(InvocationId),
    SLUICE_BUILTIN(Layer),              SLUICE_BUILTIN(ViewportIndex),
    SLUICE_BUILTIN(FragCoord),          SLUICE_BUILTIN(PointCoord),
    SLUICE_BUILTIN(FrontFacing),        SLUICE_BUILTIN(SampleId),
    SLUICE_BUILTIN(SamplePosition),     SLUICE_BUILTIN(SampleMask),
    SLUICE_BUILTIN(FragDepth),          SLUICE_BUILTIN(HelperInvocation),
    SLUICE_BUILTIN(NumWorkgroups),      SLUICE_BUILTIN(WorkgroupSize),
    SLUICE_BUILTIN(WorkgroupId),        SLUICE_BUILTIN(LocalInvocationId),
    SLUICE_BUILTIN(GlobalInvocationId), SLUICE_BUILTIN(LocalInvocationIndex),
    SLUICE_BUILTIN(VertexIndex),        SLUICE_BUILTIN(InstanceIndex),
    SLUICE_BUILTIN(BaseVertex),         SLUICE_BUILTIN(BaseInstance),
    SLUICE_BUILTIN(DrawIndex),          SLUICE_BUILTIN(ViewIndex),
    SLUICE_BUILTIN(SubgroupSize),       SLUICE_BUILTIN(SubgroupLocalInvocationId),
    SLUICE_BUILTIN(NumSubgroups),       SLUICE_BUILTIN(SubgroupId),
    SLUICE_BUILTIN(PatchVertices),      SLUICE_BUILTIN(TessLevelOuter),
    SLUICE_BUILTIN(TessLevelInner),     SLUICE_BUILTIN(TessCoord),
};
#undef SLUICE_BUILTIN

Features features_of(TargetEnv target) {
  Features f;
  f.version = spirv_version(target);
  f.vulkan = is_vulkan(target);
  return f;
}

}  // namespace

std::optional<spv::BuiltIn> built_in_from_name(std::string_view name) {
  // GLSL spellings front ends may pass through unchanged.
  if (name == "gl_Position") name = "Position";
  if (name == "gl_FragCoord") name = "FragCoord";
  if (name == "gl_FragDepth") name = "FragDepth";
  for (const BuiltInName& b : kBuiltIns)
    if (b.name == name) return b.value;
  return std::nullopt;
}

ModuleContext::ModuleContext(const ir::Module& module, const Options& opts)
    : m(module), options(opts), features(features_of(opts.target)), entry(module.entry_point()), layouts(module) {
  ir::TypeId bad;
  if (!layouts.compute_facts(&bad)) {
    fail(fmt::format("type t{} refers to a type that does not precede it", bad.index()));
  } else {
    for (std::uint32_t i = 0; i < m.type_count(); ++i) {
      if (layouts.facts(ir::TypeId(i)).depth > kMaxTypeDepth) {
        fail(fmt::format("type t{} is nested more than {} levels deep", i, kMaxTypeDepth));
        break;
      }
    }
  }
  plain_types_.assign(m.type_count(), 0);
  ir_constants_.assign(m.constant_count(), 0);
  reg_ids.assign(m.register_count(), 0);
  reg_flavours.assign(m.register_count(), kPlain);
  global_ids.assign(m.variable_count(), 0);
  global_flavours.assign(m.variable_count(), kPlain);
  function_ids_.assign(m.function_count(), 0);
  require(spv::Capability::Shader);
}

std::uint32_t ModuleContext::glsl_std_450() {
  if (glsl_import_ == 0) glsl_import_ = new_id();
  return glsl_import_;
}

std::uint32_t ModuleContext::function_id(ir::FunctionId f) {
  if (!f.valid() || f.index() >= function_ids_.size()) {
    fail(fmt::format("function f{} does not exist", f.index()));
    return 0;
  }
  if (function_ids_[f.index()] == 0) function_ids_[f.index()] = new_id();
  return function_ids_[f.index()];
}

void ModuleContext::name(std::uint32_t id, std::string_view text) {
  if (!options.debug_names || text.empty()) return;
  names.op_with_string(spv::Op::OpName, {id}, text);
}

void ModuleContext::member_name(std::uint32_t id, std::uint32_t member, std::string_view text) {
  if (!options.debug_names || text.empty()) return;
  names.op_with_string(spv::Op::OpMemberName, {id, member}, text);
}

void ModuleContext::decorate(std::uint32_t id, spv::Decoration d, std::initializer_list<std::uint32_t> extra) {
  const std::size_t at = annotations.begin(spv::Op::OpDecorate);
  annotations.push(id);
  annotations.push(static_cast<std::uint32_t>(d));
  for (std::uint32_t w : extra) annotations.push(w);
  annotations.finish(at, spv::Op::OpDecorate);
}

void ModuleContext::member_decorate(std::uint32_t id, std::uint32_t member, spv::Decoration d,
                                    std::initializer_list<std::uint32_t> extra) {
  const std::size_t at = annotations.begin(spv::Op::OpMemberDecorate);
  annotations.push(id);
  annotations.push(member);
  annotations.push(static_cast<std::uint32_t>(d));
  for (std::uint32_t w : extra) annotations.push(w);
  annotations.finish(at, spv::Op::OpMemberDecorate);
}

void ModuleContext::require_built_in(spv::BuiltIn b) {
  const ir::ShaderStage stage = m.shader().stage;
  switch (b) {
    case spv::BuiltIn::ClipDistance: require(spv::Capability::ClipDistance); break;
    case spv::BuiltIn::CullDistance: require(spv::Capability::CullDistance); break;
    case spv::BuiltIn::SampleId:
    case spv::BuiltIn::SamplePosition: require(spv::Capability::SampleRateShading); break;
    case spv::BuiltIn::Layer:
    case spv::BuiltIn::ViewportIndex:
      // Geometry shaders write both with their own capabilities; vertex and
      // tessellation evaluation shaders need SPV_EXT_shader_viewport_index_layer
      // (core in SPIR-V 1.5 as ShaderLayer / ShaderViewportIndex).
      if (stage == ir::ShaderStage::Vertex || stage == ir::ShaderStage::TessEvaluation) {
        if (features.version >= 0x00010500) {
          require(b == spv::BuiltIn::Layer ? spv::Capability::ShaderLayer : spv::Capability::ShaderViewportIndex);
        } else {
          require(spv::Capability::ShaderViewportIndexLayerEXT);
          require_extension("SPV_EXT_shader_viewport_index_layer");
        }
        if (b == spv::BuiltIn::ViewportIndex) require(spv::Capability::MultiViewport);
        break;
      }
      if (b == spv::BuiltIn::ViewportIndex) require(spv::Capability::MultiViewport);
      else if (stage == ir::ShaderStage::Fragment) require(spv::Capability::Geometry);
      break;
    case spv::BuiltIn::PrimitiveId:
      if (stage == ir::ShaderStage::Fragment) require(spv::Capability::Geometry);
      break;
    case spv::BuiltIn::BaseVertex:
    case spv::BuiltIn::BaseInstance:
    case spv::BuiltIn::DrawIndex:
      require(spv::Capability::DrawParameters);
      if (features.version < 0x00010300) require_extension("SPV_KHR_shader_draw_parameters");
      break;
    case spv::BuiltIn::ViewIndex:
      require(spv::Capability::MultiView);
      if (features.version < 0x00010300) require_extension("SPV_KHR_multiview");
      break;
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::SubgroupId: require(spv::Capability::GroupNonUniform); break;
    default: break;
  }
}

}  // namespace sluice::spirv::detail
