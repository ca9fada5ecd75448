// The SPIR-V reader keeps a block's member locations (OpMemberDecorate
// Location, the form glslang gives a block like spv.450.tesc's `bn`,
// whose variable has none: VUID-StandaloneSpirv-Location-04919), and
// Sluice's SPIR-V and GLSL from that IR give the members the same
// locations. (The reader takes vertex, fragment and compute shaders: the
// block is a vertex output here.)
#include <catch2/catch.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

TEST_CASE("SPIR-V reader: block member locations", "[spirv_reader][stages]") {
  const char* source = R"(#version 450
layout(location = 20) out bn {
                        vec4 v1;
  layout(location = 24) vec4 v2;
                        vec4 v3;
};
void main() { v2 = vec4(1.0); gl_Position = vec4(0.0); }
)";
  auto words = exec::compile_glsl(source, exec::ShaderStage::Vertex);
  INFO((words ? std::string() : words.error()));
  REQUIRE(words);
  const std::string_view bytes(reinterpret_cast<const char*>(words->data()), words->size() * 4);
  auto m = spirv_in::read_bytes(bytes, {"bn.vert.spv"});
  INFO((m ? std::string() : m.error()));
  REQUIRE(m);
  const auto problems = validator::validate(*m);
  INFO(ir::dump(*m) << validator::describe(*m, problems));
  REQUIRE(problems.empty());
  const ir::Type* bn = nullptr;
  for (std::uint32_t i = 0; i < m->type_count(); ++i)
    if (m->type(ir::TypeId(i)).name == "bn") bn = &m->type(ir::TypeId(i));
  REQUIRE(bn);
  REQUIRE(bn->members.size() == 3);
  CHECK(bn->members[0].location == 20u);
  CHECK(bn->members[1].location == 24u);
  CHECK(bn->members[2].location == 25u);
  auto out = spirv::emit(*m);
  REQUIRE(out);
  CHECK(spirv::validate(*out, spirv::TargetEnv::Vulkan1_0).empty());
  const auto text = spirv::disassemble(*out, spirv::TargetEnv::Vulkan1_0);
  REQUIRE(text);
  CHECK(text->find("OpMemberDecorate %bn 1 Location 24") != std::string::npos);
  auto glsl = glsl_out::emit(*m, {});
  INFO((glsl ? std::string() : glsl.error()));
  REQUIRE(glsl);
  INFO(*glsl);
  CHECK(glsl->find("layout(location = 24) vec4 v2;") != std::string::npos);
  CHECK(exec::compile_glsl(*glsl, exec::ShaderStage::Vertex));
}
