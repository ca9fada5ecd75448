// Interpolation on a block's members (reader_interface.cpp): a fragment
// input block whose members agree gives the variable their interpolation;
// one whose members differ is split into one variable per member; elsewhere (a geometry input) member
// interpolation does not count and the block reads.
#include <catch2/catch.hpp>

#include <map>

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
  SECTION("members that differ: one variable per member, each with its interpolation and location") {
    const auto m = read_glsl(R"(#version 450
layout(location = 2) in Varyings { vec4 a; flat ivec2 b; centroid mat2 c; noperspective float d; } v;
layout(location = 0) out vec4 colour;
void main() { colour = v.a + vec4(v.b, v.c[1]) * v.d; }
)",
                             exec::ShaderStage::Fragment);
    INFO((m ? std::string() : m.error()));
    REQUIRE(m);
    CHECK(validator::validate(*m).empty());
    struct Seen {
      std::uint32_t location;
      ir::Interpolation interpolation;
      bool centroid;
    };
    std::map<std::string, Seen> seen;
    for (ir::VariableId g : m->globals()) {
      const auto& v = m->variable(g);
      if (m->type(v.type).storage != ir::StorageClass::Input) continue;
      seen[v.name.text] = {v.decorations.location.value_or(99), v.decorations.interpolation, v.decorations.centroid};
    }
    REQUIRE(seen.size() == 4);
    // The block's location, then each member's after the previous one's
    // (a mat2 takes two).
    CHECK(seen.at("v_a").location == 2);
    CHECK(seen.at("v_a").interpolation == ir::Interpolation::Smooth);
    CHECK(seen.at("v_b").location == 3);
    CHECK(seen.at("v_b").interpolation == ir::Interpolation::Flat);
    CHECK(seen.at("v_c").location == 4);
    CHECK(seen.at("v_c").centroid);
    CHECK(seen.at("v_d").location == 6);
    CHECK(seen.at("v_d").interpolation == ir::Interpolation::NoPerspective);
    const auto words = spirv::emit(*m);
    REQUIRE(words);
    CHECK(spirv::validate(*words, spirv::TargetEnv::Vulkan1_0).empty());
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
