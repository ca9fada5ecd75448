// AmberScript parser, data layout and executor tests, including xcheck's
// core promise: a deliberately wrong SPIR-V (a flipped comparison) is caught.
#include <catch2/catch.hpp>

#include <cstring>

#include "exec/amber_data.h"
#include "exec/amber_executor.h"
#include "corpus.h"
#include "exec_test_support.h"

using namespace sluice::exec;
using namespace sluice::exec::amber;

namespace {

// Red where the uniform's x < y, green elsewhere; the data makes it red.
const char* const kRedIfLess = R"(#!amber
SHADER vertex vs PASSTHROUGH
SHADER fragment fs GLSL
#version 310 es
precision highp float;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform buf0 { vec2 injectionSwitch; };
void main() {
  if (injectionSwitch.x < injectionSwitch.y)
    color = vec4(1.0, 0.0, 0.0, 1.0);
  else
    color = vec4(0.0, 1.0, 0.0, 1.0);
}
END
BUFFER sw DATA_TYPE vec2<float> DATA
 0.0 1.0
END
BUFFER fb FORMAT B8G8R8A8_UNORM
PIPELINE graphics pipe
  ATTACH vs
  ATTACH fs
  FRAMEBUFFER_SIZE 32 32
  BIND BUFFER fb AS color LOCATION 0
  BIND BUFFER sw AS uniform DESCRIPTOR_SET 0 BINDING 0
END
CLEAR_COLOR pipe 0 0 0 255
CLEAR pipe
RUN pipe DRAW_RECT POS 0 0 SIZE 32 32
EXPECT fb IDX 0 0 SIZE 32 32 EQ_RGBA 255 0 0 255
)";

ExecuteOptions glsl_options() {
  ExecuteOptions options;
  options.compile_glsl = [](const std::string& source, ShaderStage stage) { return compile_glsl(source, stage); };
  return options;
}

float float_at(const std::vector<uint8_t>& bytes, size_t offset) {
  float f;
  std::memcpy(&f, bytes.data() + offset, 4);
  return f;
}

}  // namespace

TEST_CASE("the parser reads the GraphicsFuzz subset") {
  auto script = parse_script(kRedIfLess);
  REQUIRE(script.ok());
  REQUIRE(script->shaders.size() == 2);
  CHECK(script->shaders[0].format == ShaderDecl::Format::Passthrough);
  CHECK(script->shaders[1].format == ShaderDecl::Format::Glsl);
  CHECK_THAT(script->shaders[1].source, Catch::StartsWith("#version 310 es\n"));
  REQUIRE(script->pipelines.size() == 1);
  const PipelineDecl& p = script->pipelines[0];
  CHECK(p.framebuffer_width == 32);
  REQUIRE(p.bindings.size() == 2);
  CHECK(p.bindings[1].kind == BufferBinding::Kind::Uniform);
  REQUIRE(script->commands.size() == 4);
  CHECK(script->commands[2].kind == Command::Kind::DrawRect);
  CHECK(script->commands[3].width == 32);
  const BufferDecl* sw = script->find_buffer("sw");
  REQUIRE(sw);
  REQUIRE(sw->bytes.size() == 8);
  CHECK(float_at(sw->bytes, 0) == 0.0f);
  CHECK(float_at(sw->bytes, 4) == 1.0f);
}

TEST_CASE("unsupported AmberScript is refused with its line number") {
  // Compute pipelines are in the subset since issue 14 (sluice flesh's scripts).
  auto raytracing = parse_script("#!amber\nPIPELINE raytracing p\nEND\n");
  REQUIRE_FALSE(raytracing.ok());
  CHECK_THAT(raytracing.error(), Catch::StartsWith("line 2:") && Catch::Contains("raytracing pipelines are not supported"));
  auto repeat = parse_script("#!amber\n\n# comment\nREPEAT 3\nEND\n");
  REQUIRE_FALSE(repeat.ok());
  CHECK_THAT(repeat.error(), Catch::StartsWith("line 4:") && Catch::Contains("'REPEAT'"));
  auto no_end = parse_script("SHADER fragment f SPIRV-ASM\nOpCapability Shader\n");
  REQUIRE_FALSE(no_end.ok());
  CHECK_THAT(no_end.error(), Catch::Contains("has no END"));
}

TEST_CASE("buffer data is laid out as Amber lays it out") {
  auto float_array = parse_data_type("float[]");
  REQUIRE(float_array.ok());
  // STD140 arrays round every element up to 16 bytes; STD430 packs them.
  auto std140 = pack_values(*float_array, true, {"1.5", "2.5"});
  auto std430 = pack_values(*float_array, false, {"1.5", "2.5"});
  REQUIRE(std140.ok());
  REQUIRE(std430.ok());
  CHECK(std140->size() == 32);
  CHECK(float_at(*std140, 16) == 2.5f);
  CHECK(std430->size() == 8);
  CHECK(float_at(*std430, 4) == 2.5f);

  auto vec3 = parse_data_type("vec3<float>");
  REQUIRE(vec3.ok());
  CHECK(element_stride(*vec3, false) == 16);

  auto mat2 = parse_data_type("mat2x2<float>");
  REQUIRE(mat2.ok());
  CHECK(element_stride(*mat2, true) == 32);
  CHECK(element_stride(*mat2, false) == 16);

  auto ints = parse_data_type("int32");
  REQUIRE(ints.ok());
  auto packed = pack_values(*ints, false, {"-3", "0x10"});
  REQUIRE(packed.ok());
  int32_t second;
  std::memcpy(&second, packed->data() + 4, 4);
  CHECK(second == 16);
  CHECK_FALSE(pack_values(*ints, false, {"1.5"}).ok());
  CHECK_FALSE(parse_data_type("vec5<float>").ok());

  auto series = pack_series(*ints, false, 3, 10, 5);
  REQUIRE(series.ok());
  std::memcpy(&second, series->data() + 8, 4);
  CHECK(second == 20);
}

TEST_CASE("a script runs and its EXPECT passes, a wrong expectation fails with both values") {
  Runner& runner = test::shared_runner();
  auto script = parse_script(kRedIfLess);
  REQUIRE(script.ok());
  auto outcome = execute_script(runner, *script, glsl_options());
  REQUIRE(outcome.ok());
  CHECK(outcome->passed());
  CHECK(outcome->summary() == "1/1 EXPECTs passed");

  std::string wrong = kRedIfLess;
  wrong.replace(wrong.find("EQ_RGBA 255 0 0 255"), 19, "EQ_RGBA 0 0 255 255");
  auto wrong_script = parse_script(wrong);
  REQUIRE(wrong_script.ok());
  auto failed = execute_script(runner, *wrong_script, glsl_options());
  REQUIRE(failed.ok());
  CHECK_FALSE(failed->passed());
  CHECK_THAT(failed->summary(), Catch::Contains("pixel (0, 0): expected RGBA 0 0 255 255, got 255 0 0 255") &&
                                    Catch::Contains("1024 of 1024 pixels differ"));
}

TEST_CASE("a flipped comparison in substituted SPIR-V is caught") {
  Runner& runner = test::shared_runner();
  auto script = parse_script(kRedIfLess);
  REQUIRE(script.ok());
  auto reference = execute_script(runner, *script, glsl_options());
  REQUIRE(reference.ok());
  REQUIRE(reference->passed());

  ExecuteOptions flipped = glsl_options();
  size_t flips = 0;
  std::string seen_shader;
  flipped.replace_shader = [&](const ShaderDecl& shader, const std::vector<uint32_t>& original) {
    seen_shader = shader.name;
    std::vector<uint32_t> words = original;
    flips += test::flip_less_than(words);
    return sluice::Result<std::vector<uint32_t>>(words);
  };
  auto wrong = execute_script(runner, *script, flipped);
  REQUIRE(wrong.ok());
  CHECK(seen_shader == "fs");
  REQUIRE(flips >= 1);
  CHECK_FALSE(wrong->passed());

  auto mismatch = compare_outcomes(*reference, *wrong);
  REQUIRE(mismatch.has_value());
  CHECK_THAT(mismatch->where, Catch::Contains("EXPECT on line"));

  // The images themselves differ at the first pixel, red against green.
  const Image& good = reference->color_buffers.at("fb");
  const Image& bad = wrong->color_buffers.at("fb");
  auto pixel = compare_images(good, bad);
  REQUIRE(pixel.has_value());
  CHECK(pixel->where == "location 0, pixel (0, 0), channel R");
  CHECK_THAT(pixel->expected, Catch::StartsWith("1 "));
  CHECK_THAT(pixel->actual, Catch::StartsWith("0 "));

  // Substituting the same SPIR-V gives no mismatch at all.
  ExecuteOptions same = glsl_options();
  same.replace_shader = [](const ShaderDecl&, const std::vector<uint32_t>& original) {
    return sluice::Result<std::vector<uint32_t>>(original);
  };
  auto again = execute_script(runner, *script, same);
  REQUIRE(again.ok());
  CHECK_FALSE(compare_outcomes(*reference, *again).has_value());
}

TEST_CASE("a corpus file runs with its own SPIR-V and catches a flipped comparison") {
  Runner& runner = test::shared_runner();
  // Its shader picks numbers[(0.0 < zero) ? 1 : 2] and draws red only when
  // that is 2: with the comparison flipped it reads numbers[1] and is black.
  const std::string path = sluice::testing::corpus_file("exec/cov-access-array-dot.amber");
  auto reference = run_amber_file(runner, path);
  REQUIRE(reference.ok());
  REQUIRE(reference->passed());
  ExecuteOptions flipped;
  size_t flips = 0;
  flipped.replace_shader = [&](const ShaderDecl&, const std::vector<uint32_t>& original) {
    std::vector<uint32_t> words = original;
    flips += test::flip_less_than(words);
    return sluice::Result<std::vector<uint32_t>>(words);
  };
  auto wrong = run_amber_file(runner, path, flipped);
  REQUIRE(wrong.ok());
  REQUIRE(flips >= 1);
  auto mismatch = compare_outcomes(*reference, *wrong);
  REQUIRE(mismatch.has_value());
  INFO(mismatch->describe());
  CHECK_FALSE(wrong->passed());
}

TEST_CASE("scripts needing what the runner lacks are refused clearly") {
  Runner& runner = test::shared_runner();
  auto ext = parse_script("DEVICE_EXTENSION VK_NV_imaginary_extension\n");
  REQUIRE(ext.ok());
  auto outcome = execute_script(runner, *ext);
  REQUIRE_FALSE(outcome.ok());
  CHECK_THAT(outcome.error(), Catch::Contains("VK_NV_imaginary_extension"));

  auto glsl = parse_script(kRedIfLess);
  REQUIRE(glsl.ok());
  auto no_compiler = execute_script(runner, *glsl);
  REQUIRE_FALSE(no_compiler.ok());
  CHECK_THAT(no_compiler.error(), Catch::Contains("GLSL shaders need a GLSL compiler"));
}
