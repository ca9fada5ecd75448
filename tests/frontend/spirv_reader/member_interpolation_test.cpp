// Interpolation on a block's members (reader_interface.cpp): a fragment
// input block whose members agree gives the variable their interpolation;
// one whose members differ is refused; elsewhere (a geometry input) member
// interpolation does not count and the block reads.
#include <catch2/catch.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

Result<ir::Module> read_glsl(const char* source, exec::ShaderStage stage) {
  const auto spirv = exec::compile_glsl(source, stage);
  INFO((spirv ? std::string() : spirv.error()));
  REQUIRE(spirv);
  const std::string_view bytes(reinterpret_cast<const char*>(spirv->data()), spirv->size() * 4);
  return spirv_in::read_bytes(bytes, {"t", SPV_ENV_VULKAN_1_0});
}

}  // namespace

TEST_CASE("SPIR-V reader: a fragment input block's member interpolation", "[interface]") {
  SECTION("members that agree: the variable's") {
    const auto m = read_glsl(R"(#version 450
layout(location = 0) in Varyings { flat vec4 a; flat vec2 b; } v;
layout(location = 0) out vec4 colour;
void main() { colour = v.a + v.b.xyxy; }
)",
                             exec::ShaderStage::Fragment);
    INFO((m ? std::string() : m.error()));
    REQUIRE(m);
    CHECK(validator::validate(*m).empty());
    bool flat_block = false;
    for (ir::VariableId g : m->globals())
      if (m->variable(g).name.text == "v") flat_block = m->variable(g).decorations.interpolation == ir::Interpolation::Flat;
    CHECK(flat_block);
    const auto words = spirv::emit(*m);
    REQUIRE(words);
    const auto text = spirv::disassemble(*words, spirv::TargetEnv::Vulkan1_0);
    REQUIRE(text);
    CHECK(text->find("OpDecorate %v Flat") != std::string::npos);
  }
  SECTION("members that differ: refused by name") {
    const auto m = read_glsl(R"(#version 450
layout(location = 0) in Varyings { vec4 a; flat ivec2 b; centroid vec2 c; } v;
layout(location = 0) out vec4 colour;
void main() { colour = v.a + vec4(v.b, v.c); }
)",
                             exec::ShaderStage::Fragment);
    REQUIRE_FALSE(m);
    CHECK(m.error().find("a fragment input block whose members differ in interpolation (member 0 and member 1)") !=
          std::string::npos);
  }
  SECTION("a geometry input block: not interpolated, read as it is") {
    const auto m = read_glsl(R"(#version 450
layout(points) in;
layout(points, max_vertices = 1) out;
layout(location = 0) in Varyings { vec4 a; flat ivec2 b; } v[];
layout(location = 0) out vec4 colour;
void main() { colour = v[0].a + vec4(v[0].b, 0, 0); EmitVertex(); }
)",
                             exec::ShaderStage::Geometry);
    INFO((m ? std::string() : m.error()));
    CHECK(m);
  }
}
