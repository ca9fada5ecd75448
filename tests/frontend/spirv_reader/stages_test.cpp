// The geometry and tessellation stages through the SPIR-V reader
// (reader_stages.cpp): execution modes into ShaderInfo, the stream
// instructions and Stream decorations, Patch variables, and the refusals
// (an execution model the IR has no stage for, a tessellation mode on the
// stage GLSL cannot declare it in). The corpus test
// (stages_corpus_test.cpp) covers the rest.
#include <catch2/catch.hpp>

#include <algorithm>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

std::string_view bytes_of(const std::vector<std::uint32_t>& words) {
  return {reinterpret_cast<const char*>(words.data()), words.size() * 4};
}

ir::Module read_glsl(const char* source, exec::ShaderStage stage) {
  const auto spirv = exec::compile_glsl(source, stage);
  INFO((spirv ? std::string() : spirv.error()));
  REQUIRE(spirv);
  auto m = spirv_in::read_bytes(bytes_of(*spirv), {"t", SPV_ENV_VULKAN_1_0});
  INFO((m ? std::string() : m.error()));
  REQUIRE(m);
  const auto problems = validator::validate(*m);
  INFO((problems.empty() ? std::string() : validator::describe(*m, problems)));
  REQUIRE(problems.empty());
  return std::move(*m);
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Sluice's SPIR-V from `m` passes spirv-val; returns its disassembly.
std::string emitted(const ir::Module& m) {
  const auto words = spirv::emit(m);
  INFO((words ? std::string() : words.error()));
  REQUIRE(words);
  const auto messages = spirv::validate(*words, spirv::TargetEnv::Vulkan1_0);
  INFO((messages.empty() ? std::string() : messages.front()));
  CHECK(messages.empty());
  const auto text = spirv::disassemble(*words, spirv::TargetEnv::Vulkan1_0);
  REQUIRE(text);
  return *text;
}

}  // namespace

TEST_CASE("SPIR-V reader: a geometry shader with streams", "[stages]") {
  const ir::Module m = read_glsl(R"(#version 450
layout(lines_adjacency, invocations = 3) in;
layout(points, max_vertices = 5) out;
layout(location = 0, stream = 1) out vec4 side;
void main() {
  gl_Position = gl_in[1].gl_Position;
  side = vec4(gl_InvocationID);
  EmitStreamVertex(1);
  EndStreamPrimitive(1);
  EmitVertex();
  EndPrimitive();
}
)",
                                 exec::ShaderStage::Geometry);
  const ir::ShaderInfo& s = m.shader();
  CHECK(s.stage == ir::ShaderStage::Geometry);
  CHECK(s.input_primitive == ir::Primitive::LinesAdjacency);
  CHECK(s.output_primitive == ir::Primitive::Points);
  CHECK(s.output_vertices == 5u);
  CHECK(s.invocations == 3u);
  bool stream_one = false;
  for (ir::VariableId g : m.globals())
    if (m.variable(g).decorations.stream == 1u) stream_one = true;
  CHECK(stream_one);
  const std::string ir_text = ir::dump(m);
  for (const char* op : {"EmitStreamVertex", "EndStreamPrimitive", "EmitVertex", "EndPrimitive"}) {
    INFO(op << "\n" << ir_text);
    CHECK(ir_text.find(op) != std::string::npos);
  }
  const std::string text = emitted(m);
  for (const char* s2 : {"OpExecutionMode %main InputLinesAdjacency", "OpExecutionMode %main Invocations 3",
                         "OpExecutionMode %main OutputPoints", "OpExecutionMode %main OutputVertices 5",
                         "Stream 1", "OpEmitStreamVertex", "OpEndStreamPrimitive", "OpEmitVertex", "OpEndPrimitive"}) {
    INFO(s2 << "\n" << text);
    CHECK(text.find(s2) != std::string::npos);
  }
}

TEST_CASE("SPIR-V reader: tessellation modes, patch variables and the control barrier", "[stages]") {
  const ir::Module control = read_glsl(R"(#version 450
layout(vertices = 2) out;
layout(location = 0) patch out vec4 shared_value;
layout(location = 1) out vec4 per_vertex[];
void main() {
  per_vertex[gl_InvocationID] = gl_in[gl_InvocationID].gl_Position;
  barrier();
  if (gl_InvocationID == 0) shared_value = per_vertex[1];
  gl_TessLevelOuter[0] = 2.0;
}
)",
                                       exec::ShaderStage::TessControl);
  CHECK(control.shader().stage == ir::ShaderStage::TessControl);
  CHECK(control.shader().output_vertices == 2u);
  std::size_t patches = 0;
  for (ir::VariableId g : control.globals())
    if (control.variable(g).decorations.patch) ++patches;
  CHECK(patches >= 2);  // shared_value and gl_TessLevelOuter
  const std::string text = emitted(control);
  // The control shader's barrier as glslang writes it: Workgroup execution,
  // Invocation memory scope, no semantics.
  CHECK(count(text, "OpControlBarrier") == 1);
  CHECK(text.find("OpExecutionMode %main OutputVertices 2") != std::string::npos);

  const ir::Module evaluation = read_glsl(R"(#version 450
layout(quads, fractional_odd_spacing, cw, point_mode) in;
layout(location = 0) patch in vec4 shared_value;
void main() { gl_Position = shared_value * gl_TessCoord.x + gl_in[3].gl_Position; }
)",
                                          exec::ShaderStage::TessEvaluation);
  const ir::ShaderInfo& s = evaluation.shader();
  CHECK(s.input_primitive == ir::Primitive::Quads);
  CHECK(s.spacing == ir::TessSpacing::FractionalOdd);
  CHECK(s.order == ir::VertexOrder::Cw);
  CHECK(s.point_mode);
  const std::string tese = emitted(evaluation);
  for (const char* mode : {"Quads", "SpacingFractionalOdd", "VertexOrderCw", "PointMode"})
    CHECK(tese.find(std::string("OpExecutionMode %main ") + mode) != std::string::npos);
  const auto glsl = glsl_out::emit(evaluation, {});
  REQUIRE(glsl);
  CHECK(glsl->find("point_mode") != std::string::npos);
}

namespace {

// A minimal module of execution model `model` with the modes `modes`.
std::string module_text(const std::string& capabilities, const std::string& model, const std::string& modes) {
  return capabilities + R"(
OpMemoryModel Logical GLSL450
OpEntryPoint )" + model + R"( %main "main"
)" + modes + R"(
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
)";
}

}  // namespace

TEST_CASE("SPIR-V reader: stages and modes it refuses, by name", "[stages]") {
  SECTION("a mesh shader") {
    const auto m = spirv_in::read_bytes(
        module_text("OpCapability MeshShadingNV\nOpExtension \"SPV_NV_mesh_shader\"", "MeshNV",
                    "OpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main OutputVertices 3\n"
                    "OpExecutionMode %main OutputPrimitivesNV 1\nOpExecutionMode %main OutputTrianglesNV"),
        {"mesh.spvasm"});
    REQUIRE_FALSE(m);
    INFO(m.error());
    CHECK(m.error().find("MeshNV (mesh shader) execution model is not read") != std::string::npos);
  }
  SECTION("a ray generation shader") {
    const auto m = spirv_in::read_bytes(
        module_text("OpCapability RayTracingKHR\nOpExtension \"SPV_KHR_ray_tracing\"", "RayGenerationKHR", ""),
        {"rgen.spvasm"});
    REQUIRE_FALSE(m);
    CHECK(m.error().find("RayGenerationKHR (ray generation shader)") != std::string::npos);
  }
  SECTION("the domain on a tessellation control entry point") {
    const auto m = spirv_in::read_bytes(
        module_text("OpCapability Tessellation", "TessellationControl",
                    "OpExecutionMode %main OutputVertices 3\nOpExecutionMode %main Triangles"),
        {"domain.spvasm"});
    REQUIRE_FALSE(m);
    INFO(m.error());
    CHECK(m.error().find("on a tessellation control entry point: GLSL declares it in the tessellation evaluation "
                         "shader") != std::string::npos);
  }
  SECTION("the output patch size on a tessellation evaluation entry point") {
    const auto m = spirv_in::read_bytes(
        module_text("OpCapability Tessellation", "TessellationEvaluation",
                    "OpExecutionMode %main Triangles\nOpExecutionMode %main OutputVertices 3"),
        {"size.spvasm"});
    REQUIRE_FALSE(m);
    INFO(m.error());
    CHECK(m.error().find("GLSL declares it in the tessellation control shader") != std::string::npos);
  }
}
