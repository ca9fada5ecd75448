// The rules of the shader stages: which execution modes a stage has, which
// variables may be per patch or belong to a vertex stream, and where the
// stage-only instructions may stand. They follow GLSL 4.60 (§4.3.9 patch,
// §4.4.1.2-4 tessellation and geometry layout qualifiers, §8.13 vertex
// emission, §8.16 barrier) and the SPIR-V execution model rules (SPIR-V
// spec 2.16.2: validation rules for shader capabilities), so that any IR the
// validator accepts emits SPIR-V that spirv-val accepts.
//
// Algorithm: one look at the shader's metadata and at every global, then
// one pass over each function's reachable blocks using the block contexts
// of ir/structure.h (a barrier's enclosing construct is its context's).
#include <fmt/format.h>

#include "ir/built_in.h"
#include "ir/stage_interface.h"
#include "ir/structure.h"
#include "validator/context.h"

namespace sluice::validator::detail {
namespace {

using ir::Opcode;
using ir::Primitive;
using ir::ShaderStage;

bool is_geometry_input(Primitive p) {
  return p == Primitive::Points || p == Primitive::Lines || p == Primitive::LinesAdjacency ||
         p == Primitive::Triangles || p == Primitive::TrianglesAdjacency;
}

bool is_geometry_output(Primitive p) {
  return p == Primitive::Points || p == Primitive::LineStrip || p == Primitive::TriangleStrip;
}

bool is_tessellation_domain(Primitive p) {
  return p == Primitive::Triangles || p == Primitive::Quads || p == Primitive::Isolines;
}

void check_modes(Context& ctx) {
  const ir::ShaderInfo& s = ctx.m.shader();
  const char* stage = ir::to_string(s.stage);
  switch (s.stage) {
    case ShaderStage::Geometry:
      if (!is_geometry_input(s.input_primitive))
        ctx.report(fmt::format("a Geometry shader's input primitive is {}; it must be points, lines, "
                               "lines_adjacency, triangles or triangles_adjacency",
                               ir::to_string(s.input_primitive)));
      if (!is_geometry_output(s.output_primitive))
        ctx.report(fmt::format("a Geometry shader's output primitive is {}; it must be points, line_strip or "
                               "triangle_strip",
                               ir::to_string(s.output_primitive)));
      if (!s.output_vertices) ctx.report("a Geometry shader without [Output vertices N] (max_vertices)");
      if (s.invocations && *s.invocations == 0) ctx.report("a Geometry shader with 0 invocations");
      break;
    case ShaderStage::TessControl:
      if (!s.output_vertices || *s.output_vertices == 0)
        ctx.report("a TessControl shader needs [Output vertices N] with N > 0 (layout(vertices = N) out)");
      if (s.input_primitive != Primitive::None || s.output_primitive != Primitive::None)
        ctx.report("a TessControl shader has no input or output primitive");
      break;
    case ShaderStage::TessEvaluation:
      if (!is_tessellation_domain(s.input_primitive))
        ctx.report(fmt::format("a TessEvaluation shader's domain is {}; it must be triangles, quads or isolines",
                               ir::to_string(s.input_primitive)));
      if (s.output_primitive != Primitive::None || s.output_vertices)
        ctx.report("a TessEvaluation shader has no output primitive or output vertices");
      break;
    default:
      if (s.input_primitive != Primitive::None || s.output_primitive != Primitive::None || s.output_vertices)
        ctx.report(fmt::format("a {} shader has no primitives or output vertices", stage));
      break;
  }
  // GLSL 4.60 §4.4.1.4: each local size "must be greater than 0" (glslang:
  // "must be at least 1"); SPIR-V's LocalSize carries the same rule.
  if (s.stage == ShaderStage::Compute)
    for (int k = 0; k < 3; ++k)
      if (s.local_size[k] == 0) ctx.report(fmt::format("a Compute shader's local size {} is 0; it must be at least 1", "xyz"[k]));
  if (s.invocations && s.stage != ShaderStage::Geometry)
    ctx.report(fmt::format("[Invocations] in a {} shader; only geometry shaders have it", stage));
  if ((s.spacing != ir::TessSpacing::None || s.order != ir::VertexOrder::None || s.point_mode) &&
      s.stage != ShaderStage::TessEvaluation)
    ctx.report(fmt::format("tessellation spacing, vertex order or point mode in a {} shader; only "
                           "tessellation evaluation shaders have them",
                           stage));
}

constexpr std::uint64_t kMaxLocations = 65536;

void check_stage_variables(Context& ctx) {
  const ShaderStage stage = ctx.m.shader().stage;
  for (ir::VariableId v : ctx.m.globals()) {
    if (!v.valid() || v.index() >= ctx.m.variable_count() || !ctx.variable_ok[v.index()]) continue;
    const ir::Variable& var = ctx.m.variable(v);
    const ir::StorageClass storage = ctx.m.type(var.type).storage;
    if (var.decorations.patch && !(stage == ShaderStage::TessControl && storage == ir::StorageClass::Output) &&
        !(stage == ShaderStage::TessEvaluation && storage == ir::StorageClass::Input))
      ctx.report(fmt::format("v{} '{}' is patch; only tessellation control outputs and tessellation evaluation "
                             "inputs are",
                             v.index(), var.name.text));
    if (!var.decorations.built_in.empty())
      if (const auto want = ir::built_in_type_problem(ctx.m, var.decorations.built_in, ir::location_type(ctx.m, var)))
        ctx.report(fmt::format("v{} '{}' is the built-in {}, which must be {}", v.index(), var.name.text,
                               var.decorations.built_in, *want));
    // docs/limits.md: an interface variable's locations end below 65536
    // (real devices have a few dozen), so that counting them is bounded.
    if ((storage == ir::StorageClass::Input || storage == ir::StorageClass::Output) && var.decorations.built_in.empty()) {
      const std::uint64_t end =
          std::uint64_t{var.decorations.location.value_or(0)} + ir::location_slots(ctx.m, ir::location_type(ctx.m, var));
      if (end > kMaxLocations)
        ctx.report(fmt::format("v{} '{}' occupies locations up to {}; they must end below {}", v.index(),
                               var.name.text, end - 1, kMaxLocations));
    }
    if (var.decorations.stream && !(stage == ShaderStage::Geometry && storage == ir::StorageClass::Output))
      ctx.report(fmt::format("v{} '{}' has a stream; only geometry shader outputs have one", v.index(),
                             var.name.text));
    const ir::Decorations& d = var.decorations;
    if (!d.built_in.empty() && !ir::find_built_in(d.built_in))
      ctx.report(fmt::format("v{} '{}' is built-in '{}', which the IR does not know (ir/built_in.h)", v.index(),
                             var.name.text, d.built_in));
    // GL_NV_geometry_shader_passthrough: geometry inputs only;
    // GL_NV_viewport_array2 and GL_NV_stereo_view_rendering: the Layer output
    // (SPIR-V's ViewportRelativeNV and SecondaryViewportRelativeNV decorate
    // a Layer built-in).
    if (d.passthrough && !(stage == ShaderStage::Geometry && storage == ir::StorageClass::Input))
      ctx.report(fmt::format("v{} '{}' is passthrough; only geometry shader inputs are", v.index(), var.name.text));
    if ((d.viewport_relative || d.secondary_view_offset) &&
        !(d.built_in == "Layer" && storage == ir::StorageClass::Output))
      ctx.report(fmt::format("v{} '{}' is viewport_relative or has a secondary_view_offset; only a Layer output is",
                             v.index(), var.name.text));
  }
}

bool is_emission(Opcode op) {
  return op == Opcode::EmitVertex || op == Opcode::EndPrimitive || op == Opcode::EmitStreamVertex ||
         op == Opcode::EndStreamPrimitive;
}

void check_instructions(Context& ctx, ir::FunctionId fid) {
  const ir::Function& f = ctx.m.function(fid);
  const ShaderStage stage = ctx.m.shader().stage;
  const bool is_entry = fid == ctx.entry;
  const std::vector<ir::BlockContext> contexts = ir::compute_block_contexts(f);
  for (std::uint32_t b = 0; b < f.blocks.size(); ++b) {
    if (!contexts[b].reachable) continue;
    const auto& instructions = f.blocks[b].instructions;
    for (std::size_t i = 0; i < instructions.size(); ++i) {
      const ir::Instruction& inst = instructions[i];
      const Where w{fid, ir::BlockId(b), static_cast<std::int32_t>(i)};
      if (is_emission(inst.opcode)) {
        if (stage != ShaderStage::Geometry)
          ctx.report(fmt::format("{} in a {} shader; only geometry shaders emit vertices", ir::name(inst.opcode),
                                 ir::to_string(stage)),
                     w);
        const bool streamed = inst.opcode == Opcode::EmitStreamVertex || inst.opcode == Opcode::EndStreamPrimitive;
        if (streamed && inst.operands.size() == 1) {
          const ir::Operand o = inst.operands[0];
          const bool constant_int = o.is_constant() && o.value() < ctx.m.constant_count() &&
                                    ctx.m.constant(o.as_constant()).type == ir::predefined::kInt &&
                                    !ctx.m.constant(o.as_constant()).spec_id;
          if (!constant_int) ctx.report(fmt::format("{}'s stream must be an int constant", ir::name(inst.opcode)), w);
        }
      }
      if (inst.opcode == Opcode::ControlBarrier) {
        if (stage != ShaderStage::Compute && stage != ShaderStage::TessControl)
          ctx.report(fmt::format("ControlBarrier in a {} shader; only compute and tessellation control shaders "
                                 "have barrier()",
                                 ir::to_string(stage)),
                     w);
        // GLSL 4.60 §8.16: in a tessellation control shader, only in main
        // and outside all control flow.
        if (stage == ShaderStage::TessControl && (!is_entry || contexts[b].construct.valid()))
          ctx.report("ControlBarrier in a tessellation control shader outside main's top level (inside control "
                     "flow or another function)",
                     w);
      }
      if (inst.opcode == Opcode::Demote && stage != ShaderStage::Fragment)
        ctx.report(fmt::format("Demote in a {} shader; only fragment shaders demote", ir::to_string(stage)), w);
    }
  }
}

}  // namespace

void check_stage(Context& ctx) {
  check_modes(ctx);
  check_stage_variables(ctx);
  // The instruction rules walk the block tree, which only a function the
  // earlier checks passed is safe to walk.
  if (!ctx.problems.empty()) return;
  // SPIR-V spec 2.16.2: no two inputs (or outputs) share a Location and
  // Component (ir/stage_interface.h computes what each occupies).
  if (const auto overlap = ir::find_location_overlap(ctx.m)) {
    const ir::Variable& a = ctx.m.variable(overlap->first);
    const ir::Variable& b = ctx.m.variable(overlap->second);
    ctx.report(fmt::format("v{} '{}' and v{} '{}' both occupy location {} (a component of it)", overlap->first.index(),
                           a.name.text, overlap->second.index(), b.name.text, overlap->location));
  }
  for (std::uint32_t i = 0; i < ctx.m.function_count(); ++i) check_instructions(ctx, ir::FunctionId(i));
}

}  // namespace sluice::validator::detail
