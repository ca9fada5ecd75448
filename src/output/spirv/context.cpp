// ModuleContext set-up, names and decorations, and built-ins by name
// (ir/built_in.h) with the capabilities they need. The type facts computed
// here bound every later recursion on type structure (kMaxTypeDepth).
#include "output/spirv/context.h"

#include <fmt/format.h>

#include "ir/built_in.h"

namespace sluice::spirv::detail {
namespace {

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
  if (const ir::BuiltInInfo* b = ir::find_built_in(name)) return static_cast<spv::BuiltIn>(b->spirv);
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

std::uint32_t ModuleContext::source_file(std::uint32_t file) {
  auto [it, fresh] = source_files_.emplace(file, 0);
  if (fresh) {
    it->second = new_id();
    const auto& files = m.source_files();
    sources.op_with_string(spv::Op::OpString, {it->second}, file < files.size() ? files[file] : std::string());
  }
  return it->second;
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
      // A tessellation control shader writes them only with
      // SPV_NV_viewport_array2, whose ShaderViewportMaskNV implies
      // ShaderViewportIndexLayerNV (= ShaderViewportIndexLayerEXT).
      if (stage == ir::ShaderStage::TessControl) {
        require_viewport_mask();
        if (b == spv::BuiltIn::ViewportIndex) require(spv::Capability::MultiViewport);
        break;
      }
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
    case spv::BuiltIn::ViewportMaskNV: require_viewport_mask(); break;
    case spv::BuiltIn::SecondaryPositionNV:
    case spv::BuiltIn::SecondaryViewportMaskNV: require_stereo_view(); break;
    case spv::BuiltIn::PositionPerViewNV:
    case spv::BuiltIn::ViewportMaskPerViewNV:
      require(spv::Capability::PerViewAttributesNV);
      require_extension("SPV_NVX_multiview_per_view_attributes");
      break;
    default: break;
  }
}

void ModuleContext::require_viewport_mask() {
  require(spv::Capability::ShaderViewportMaskNV);
  require_extension("SPV_NV_viewport_array2");
}

void ModuleContext::require_stereo_view() {
  // ShaderStereoViewNV implies ShaderViewportMaskNV; glslang declares the
  // extension of both.
  require(spv::Capability::ShaderStereoViewNV);
  require_extension("SPV_NV_stereo_view_rendering");
  require_extension("SPV_NV_viewport_array2");
}

}  // namespace sluice::spirv::detail
