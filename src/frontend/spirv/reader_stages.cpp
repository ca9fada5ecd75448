// The geometry and tessellation stages in SPIR-V: their execution models,
// execution modes (SPIR-V spec §3.6) into ir::ShaderInfo, and the geometry
// instructions (OpEmitVertex, OpEndPrimitive and the stream forms, §3.49.21).
//
// Where the modes go follows GLSL, the IR's other front end: SPIR-V lets a
// tessellation control or evaluation entry point carry either stage's
// modes (spec §3.6: "only valid with the TessellationControl or
// TessellationEvaluation Execution Models"), while GLSL declares the output
// patch size in the control shader (`layout(vertices = N) out`) and the
// domain, spacing, winding and point mode in the evaluation shader
// (GLSL 4.60 §4.4.1.2, §4.4.2.1). A mode on the other stage has no GLSL
// spelling, so it is refused, naming the stage GLSL declares it in;
// glslang never writes one there.
#include <fmt/format.h>

#include "frontend/spirv/reader_internal.h"

namespace sluice::spirv_in::detail {

namespace {

using Mode = spv::ExecutionMode;

// The execution models the IR has no stage for, by name (SPIR-V spec §3.3).
std::string model_name(std::uint32_t model) {
  switch (static_cast<spv::ExecutionModel>(model)) {
    case spv::ExecutionModel::Kernel: return "Kernel";
    case spv::ExecutionModel::TaskNV: return "TaskNV (task shader)";
    case spv::ExecutionModel::MeshNV: return "MeshNV (mesh shader)";
    case spv::ExecutionModel::TaskEXT: return "TaskEXT (task shader)";
    case spv::ExecutionModel::MeshEXT: return "MeshEXT (mesh shader)";
    case spv::ExecutionModel::RayGenerationKHR: return "RayGenerationKHR (ray generation shader)";
    case spv::ExecutionModel::IntersectionKHR: return "IntersectionKHR (intersection shader)";
    case spv::ExecutionModel::AnyHitKHR: return "AnyHitKHR (any-hit shader)";
    case spv::ExecutionModel::ClosestHitKHR: return "ClosestHitKHR (closest-hit shader)";
    case spv::ExecutionModel::MissKHR: return "MissKHR (miss shader)";
    case spv::ExecutionModel::CallableKHR: return "CallableKHR (callable shader)";
    default: return fmt::format("{}", model);
  }
}

}  // namespace

bool Reader::entry_stage(const Instruction& inst, std::uint32_t model) {
  ir::ShaderInfo& s = m_.shader();
  switch (static_cast<spv::ExecutionModel>(model)) {
    case spv::ExecutionModel::Vertex: s.stage = ir::ShaderStage::Vertex; return true;
    case spv::ExecutionModel::Fragment: s.stage = ir::ShaderStage::Fragment; return true;
    case spv::ExecutionModel::GLCompute: s.stage = ir::ShaderStage::Compute; return true;
    case spv::ExecutionModel::Geometry: s.stage = ir::ShaderStage::Geometry; return true;
    case spv::ExecutionModel::TessellationControl: s.stage = ir::ShaderStage::TessControl; return true;
    case spv::ExecutionModel::TessellationEvaluation: s.stage = ir::ShaderStage::TessEvaluation; return true;
    default: break;
  }
  // Mesh, task, ray-tracing and kernel models: the IR has no such stage.
  fail(inst, fmt::format("the {} execution model is not read (vertex, fragment, compute, geometry and "
                         "tessellation entry points are)",
                         model_name(model)));
  return false;
}

bool Reader::stage_execution_mode(const Instruction& inst, std::uint32_t mode, std::uint32_t operand) {
  ir::ShaderInfo& s = m_.shader();
  const ir::ShaderStage stage = s.stage;
  const bool geometry = stage == ir::ShaderStage::Geometry;
  const bool control = stage == ir::ShaderStage::TessControl;
  const bool evaluation = stage == ir::ShaderStage::TessEvaluation;
  // A mode of the other tessellation stage (see the comment at the top).
  auto tess_mode = [&](bool belongs_to_evaluation) {
    if (belongs_to_evaluation ? evaluation : control) return true;
    if (!control && !evaluation) return false;
    fail(inst, fmt::format("execution mode {} on a tessellation {} entry point: GLSL declares it in the "
                           "tessellation {} shader, so Sluice reads it there only",
                           mode, control ? "control" : "evaluation", control ? "evaluation" : "control"));
    return true;
  };
  auto input = [&](ir::Primitive p) {
    if (geometry) s.input_primitive = p;
    else if (tess_mode(true)) s.input_primitive = p;
    else return false;
    return true;
  };
  switch (static_cast<Mode>(mode)) {
    case Mode::InputPoints: return geometry && input(ir::Primitive::Points);
    case Mode::InputLines: return geometry && input(ir::Primitive::Lines);
    case Mode::InputLinesAdjacency: return geometry && input(ir::Primitive::LinesAdjacency);
    case Mode::InputTrianglesAdjacency: return geometry && input(ir::Primitive::TrianglesAdjacency);
    case Mode::Triangles: return input(ir::Primitive::Triangles);
    case Mode::Quads: return !geometry && input(ir::Primitive::Quads);
    case Mode::Isolines: return !geometry && input(ir::Primitive::Isolines);
    case Mode::OutputPoints:
      if (!geometry) return false;
      s.output_primitive = ir::Primitive::Points;
      return true;
    case Mode::OutputLineStrip:
      if (!geometry) return false;
      s.output_primitive = ir::Primitive::LineStrip;
      return true;
    case Mode::OutputTriangleStrip:
      if (!geometry) return false;
      s.output_primitive = ir::Primitive::TriangleStrip;
      return true;
    case Mode::Invocations:
      if (!geometry) return false;
      s.invocations = operand;
      return true;
    case Mode::OutputVertices:
      if (geometry || tess_mode(false)) {
        if (!failed()) s.output_vertices = operand;
        return true;
      }
      return false;
    case Mode::SpacingEqual:
    case Mode::SpacingFractionalEven:
    case Mode::SpacingFractionalOdd:
      if (!tess_mode(true)) return false;
      s.spacing = static_cast<Mode>(mode) == Mode::SpacingEqual           ? ir::TessSpacing::Equal
                  : static_cast<Mode>(mode) == Mode::SpacingFractionalEven ? ir::TessSpacing::FractionalEven
                                                                          : ir::TessSpacing::FractionalOdd;
      return true;
    case Mode::VertexOrderCw:
    case Mode::VertexOrderCcw:
      if (!tess_mode(true)) return false;
      s.order = static_cast<Mode>(mode) == Mode::VertexOrderCw ? ir::VertexOrder::Cw : ir::VertexOrder::Ccw;
      return true;
    case Mode::PointMode:
      if (!tess_mode(true)) return false;
      s.point_mode = true;
      return true;
    default: return false;
  }
}

bool Reader::stage_instruction(const Instruction& inst) {
  using O = ir::Opcode;
  switch (inst.opcode) {
    case spv::Op::OpEmitVertex: emit(inst, O::EmitVertex, {}); return true;
    case spv::Op::OpEndPrimitive: emit(inst, O::EndPrimitive, {}); return true;
    case spv::Op::OpEmitStreamVertex:
    case spv::Op::OpEndStreamPrimitive:
      // The stream is a constant instruction (spirv-val: "Stream must be
      // the <id> of a constant instruction"), as GLSL's argument must be.
      emit(inst, inst.opcode == spv::Op::OpEmitStreamVertex ? O::EmitStreamVertex : O::EndStreamPrimitive,
           {value(in(inst, 0))});
      return true;
    default: return false;
  }
}

}  // namespace sluice::spirv_in::detail
