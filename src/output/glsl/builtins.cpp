// The built-in variable table. Vulkan GLSL spells the vertex and instance
// indices gl_VertexIndex / gl_InstanceIndex; the OpenGL flavour uses
// gl_VertexID / gl_InstanceID (gl_InstanceID does not include the base
// instance; docs/ir.md, "GLSL output", notes the difference).
#include "output/glsl/builtins.h"

#include <fmt/format.h>

namespace sluice::glsl_out {
namespace {

struct BuiltIn {
  std::string_view spirv;
  std::string_view glsl;
  bool in_es310;              // available in GLSL ES 3.10 without extensions
  std::string_view es_extension;  // else: the extension that provides it in ES ("" = none)
};

constexpr BuiltIn kBuiltIns[] = {
    {"Position", "gl_Position", true, ""},
    {"PointSize", "gl_PointSize", true, ""},
    {"ClipDistance", "gl_ClipDistance", false, ""},
    {"CullDistance", "gl_CullDistance", false, ""},
    {"VertexId", "gl_VertexID", true, ""},
    {"InstanceId", "gl_InstanceID", true, ""},
    {"FragCoord", "gl_FragCoord", true, ""},
    {"PointCoord", "gl_PointCoord", true, ""},
    {"FrontFacing", "gl_FrontFacing", true, ""},
    {"FragDepth", "gl_FragDepth", true, ""},
    {"SampleId", "gl_SampleID", false, "GL_OES_sample_variables"},
    {"SamplePosition", "gl_SamplePosition", false, "GL_OES_sample_variables"},
    {"HelperInvocation", "gl_HelperInvocation", true, ""},
    {"PrimitiveId", "gl_PrimitiveID", false, "GL_EXT_geometry_shader"},
    {"Layer", "gl_Layer", false, "GL_EXT_geometry_shader"},
    {"ViewportIndex", "gl_ViewportIndex", false, ""},
    {"NumWorkgroups", "gl_NumWorkGroups", true, ""},
    {"WorkgroupSize", "gl_WorkGroupSize", true, ""},
    {"WorkgroupId", "gl_WorkGroupID", true, ""},
    {"LocalInvocationId", "gl_LocalInvocationID", true, ""},
    {"GlobalInvocationId", "gl_GlobalInvocationID", true, ""},
    {"LocalInvocationIndex", "gl_LocalInvocationIndex", true, ""},
    // Geometry and tessellation: GLSL ES has them with the stage's
    // extension, which the header names for the whole shader.
    {"InvocationId", "gl_InvocationID", true, ""},
    {"PatchVertices", "gl_PatchVerticesIn", true, ""},
    {"TessLevelOuter", "gl_TessLevelOuter", true, ""},
    {"TessLevelInner", "gl_TessLevelInner", true, ""},
    {"TessCoord", "gl_TessCoord", true, ""},
};

}  // namespace

std::string builtin_variable_name(EmitContext& ctx, std::string_view built_in, ir::StorageClass storage) {
  if (built_in == "VertexIndex") return ctx.vulkan ? "gl_VertexIndex" : "gl_VertexID";
  if (built_in == "InstanceIndex") return ctx.vulkan ? "gl_InstanceIndex" : "gl_InstanceID";
  if (built_in == "SampleMask") {
    if (ctx.es) ctx.extensions.insert("GL_OES_sample_variables");
    return storage == ir::StorageClass::Input ? "gl_SampleMaskIn" : "gl_SampleMask";
  }
  // A geometry shader reads the primitive's id as gl_PrimitiveIDIn.
  if (built_in == "PrimitiveId" && storage == ir::StorageClass::Input && ctx.m.shader().stage == ir::ShaderStage::Geometry) {
    if (ctx.es) ctx.extensions.insert("GL_EXT_geometry_shader");
    return "gl_PrimitiveIDIn";
  }
  // Written before the rasterizer by a vertex or evaluation shader.
  const ir::ShaderStage stage = ctx.m.shader().stage;
  if ((built_in == "Layer" || built_in == "ViewportIndex") && storage == ir::StorageClass::Output &&
      (stage == ir::ShaderStage::Vertex || stage == ir::ShaderStage::TessEvaluation)) {
    if (ctx.es) {
      ctx.fail(fmt::format("built-in {} cannot be written by this stage in GLSL ES", built_in));
      return "";
    }
    ctx.extensions.insert("GL_ARB_shader_viewport_layer_array");
    return built_in == "Layer" ? "gl_Layer" : "gl_ViewportIndex";
  }
  if (built_in == "SubgroupSize" || built_in == "SubgroupLocalInvocationId") {
    ctx.extensions.insert("GL_KHR_shader_subgroup_basic");
    return built_in == "SubgroupSize" ? "gl_SubgroupSize" : "gl_SubgroupInvocationID";
  }
  if (built_in == "BaseVertex" || built_in == "BaseInstance" || built_in == "DrawIndex") {
    if (ctx.es) {
      ctx.fail(fmt::format("built-in {} does not exist in GLSL ES", built_in));
      return "";
    }
    ctx.extensions.insert("GL_ARB_shader_draw_parameters");
    return built_in == "BaseVertex" ? "gl_BaseVertexARB" : built_in == "BaseInstance" ? "gl_BaseInstanceARB"
                                                                                       : "gl_DrawIDARB";
  }
  for (const BuiltIn& b : kBuiltIns) {
    if (b.spirv != built_in) continue;
    if (ctx.es && !b.in_es310) {
      if (b.es_extension.empty()) {
        ctx.fail(fmt::format("built-in {} ({}) does not exist in GLSL ES 3.10", built_in, b.glsl));
        return "";
      }
      ctx.extensions.insert(std::string(b.es_extension));
    }
    return std::string(b.glsl);
  }
  ctx.fail(fmt::format("unknown built-in '{}'", built_in));
  return "";
}

}  // namespace sluice::glsl_out
