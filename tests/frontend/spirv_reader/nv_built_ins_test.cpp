// NVIDIA's built-ins and decorations (ir/built_in.h, docs/ir.md) through the
// SPIR-V reader: glslang's SPIR-V of a vertex shader that writes every
// built-in of GL_NV_viewport_array2, GL_NV_stereo_view_rendering and
// GL_NVX_multiview_per_view_attributes and a viewport-relative gl_Layer
// reads into the IR with them, and Sluice's SPIR-V and GLSL from that IR
// pass spirv-val and glslang. (The geometry-only passthrough decoration is
// covered by spv.GeometryShaderPassthrough.geom in stages_corpus_test.cpp.)
#include <catch2/catch.hpp>

#include <algorithm>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

const char* kShader = R"(#version 450
#extension GL_NV_viewport_array2 : require
#extension GL_NV_stereo_view_rendering : require
#extension GL_NVX_multiview_per_view_attributes : require
layout(viewport_relative, secondary_view_offset = 2) out int gl_Layer;
void main() {
  gl_Position = vec4(1.0);
  gl_ViewportMask[0] = 1;
  gl_SecondaryPositionNV = vec4(2.0);
  gl_SecondaryViewportMaskNV[0] = 2;
  gl_PositionPerViewNV[0] = vec4(3.0);
  gl_ViewportMaskPerViewNV[0] = 4;
  gl_Layer = 1;
}
)";

std::string_view bytes_of(const std::vector<std::uint32_t>& words) {
  return {reinterpret_cast<const char*>(words.data()), words.size() * 4};
}

}  // namespace

TEST_CASE("NVIDIA's built-ins and Layer decorations read from glslang's SPIR-V", "[stages]") {
  const auto spirv = exec::compile_glsl(kShader, exec::ShaderStage::Vertex);
  REQUIRE(spirv);
  const auto m = spirv_in::read_bytes(bytes_of(*spirv), {"nv.vert"});
  INFO((m ? std::string() : m.error()));
  REQUIRE(m);
  const auto problems = validator::validate(*m);
  INFO((problems.empty() ? std::string() : validator::describe(*m, problems)));
  REQUIRE(problems.empty());
  std::vector<std::string> built_ins;
  const ir::Variable* layer = nullptr;
  for (ir::VariableId g : m->globals()) {
    const ir::Variable& v = m->variable(g);
    if (!v.decorations.built_in.empty()) built_ins.push_back(v.decorations.built_in);
    if (v.decorations.built_in == "Layer") layer = &v;
  }
  for (const char* b : {"ViewportMaskNV", "SecondaryPositionNV", "SecondaryViewportMaskNV", "PositionPerViewNV",
                        "ViewportMaskPerViewNV"})
    CHECK(std::count(built_ins.begin(), built_ins.end(), b) == 1);
  REQUIRE(layer);
  CHECK(layer->decorations.viewport_relative);
  CHECK(layer->decorations.secondary_view_offset == 2);

  const auto out = spirv::emit(*m);
  REQUIRE(out);
  const std::vector<std::string> val = spirv::validate(*out, spirv::TargetEnv::Vulkan1_0);
  INFO((val.empty() ? std::string() : val.front()));
  CHECK(val.empty());
  const auto text = spirv::disassemble(*out, spirv::TargetEnv::Vulkan1_0);
  REQUIRE(text);
  for (const char* s : {"OpCapability ShaderViewportMaskNV", "OpCapability ShaderStereoViewNV",
                        "OpCapability PerViewAttributesNV", "OpDecorate %gl_Layer ViewportRelativeNV",
                        "OpDecorate %gl_Layer SecondaryViewportRelativeNV 2",
                        "OpExtension \"SPV_NVX_multiview_per_view_attributes\""})
    CHECK(text->find(s) != std::string::npos);

  const auto glsl = glsl_out::emit(*m, {});
  INFO((glsl ? *glsl : glsl.error()));
  REQUIRE(glsl);
  CHECK(glsl->find("layout(viewport_relative, secondary_view_offset = 2) out int gl_Layer;") != std::string::npos);
  CHECK(exec::compile_glsl(*glsl, exec::ShaderStage::Vertex));
}
