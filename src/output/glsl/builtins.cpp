// Built-in variables by their GLSL names (ir/built_in.h), with the
// spellings that depend on the target, stage or storage. Vulkan GLSL spells
// the vertex and instance indices gl_VertexIndex / gl_InstanceIndex; the
// OpenGL flavour uses
// gl_VertexID / gl_InstanceID (gl_InstanceID does not include the base
// instance; docs/ir.md, "GLSL output", notes the difference).
#include "output/glsl/builtins.h"

#include <fmt/format.h>

#include "ir/built_in.h"

namespace sluice::glsl_out {

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
  // Written before the rasterizer by a vertex, control or evaluation
  // shader: a control shader writes them only with GL_NV_viewport_array2
  // (its "Interactions with tessellation shaders").
  const ir::ShaderStage stage = ctx.m.shader().stage;
  if ((built_in == "Layer" || built_in == "ViewportIndex") && storage == ir::StorageClass::Output &&
      (stage == ir::ShaderStage::Vertex || stage == ir::ShaderStage::TessControl ||
       stage == ir::ShaderStage::TessEvaluation)) {
    if (ctx.es) {
      ctx.fail(fmt::format("built-in {} cannot be written by this stage in GLSL ES", built_in));
      return "";
    }
    ctx.extensions.insert(stage == ir::ShaderStage::TessControl ? "GL_NV_viewport_array2"
                                                                : "GL_ARB_shader_viewport_layer_array");
    return built_in == "Layer" ? "gl_Layer" : "gl_ViewportIndex";
  }
  if (const ir::BuiltInInfo* b = ir::find_built_in(built_in)) {
    if (ctx.es && !b->in_es310) {
      if (b->es_extension.empty()) {
        ctx.fail(fmt::format("built-in {} ({}) does not exist in GLSL ES 3.10", built_in, b->glsl));
        return "";
      }
      ctx.extensions.insert(std::string(b->es_extension));
    }
    if (!b->extension.empty()) ctx.extensions.insert(std::string(b->extension));
    return std::string(b->glsl);
  }
  ctx.fail(fmt::format("unknown built-in '{}'", built_in));
  return "";
}

}  // namespace sluice::glsl_out
