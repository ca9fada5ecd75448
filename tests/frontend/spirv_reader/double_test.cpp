// The SPIR-V reader takes 64-bit floats (OpTypeFloat 64, two-word
// constants) as the IR's double: glslang's SPIR-V of a shader with double
// arithmetic reads into valid IR whose constants are exact, and Sluice's
// SPIR-V and GLSL from it are accepted (spirv-val, glslang).
#include <catch2/catch.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

using namespace sluice;

TEST_CASE("SPIR-V reader: doubles read as the IR's double", "[spirv_reader][double]") {
  const char* source = R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { double a; dvec2 v; float f; };
void main() {
  double x = a * 0.1lf + double(f);
  v = dvec2(x, 1e300lf) * v;
  f = float(x);
})";
  auto words = exec::compile_glsl(source, exec::ShaderStage::Compute);
  INFO((words ? std::string() : words.error()));
  REQUIRE(words);
  const std::string_view bytes(reinterpret_cast<const char*>(words->data()), words->size() * 4);
  auto m = spirv_in::read_bytes(bytes, {"doubles.comp.spv"});
  INFO((m ? std::string() : m.error()));
  REQUIRE(m);
  const auto problems = validator::validate(*m);
  INFO(ir::dump(*m) << validator::describe(*m, problems));
  REQUIRE(problems.empty());
  bool tenth = false, big = false;
  for (std::uint32_t i = 0; i < m->constant_count(); ++i) {
    const ir::Constant& c = m->constant(ir::ConstantId(i));
    if (m->type(c.type).width != 64 || c.is_composite()) continue;
    tenth |= c.as_double() == 0.1;
    big |= c.as_double() == 1e300;
  }
  CHECK(tenth);
  CHECK(big);
  auto out = spirv::emit(*m);
  REQUIRE(out);
  CHECK(spirv::validate(*out, spirv::TargetEnv::Vulkan1_0).empty());
  auto glsl = glsl_out::emit(*m, {});
  INFO((glsl ? std::string() : glsl.error()));
  REQUIRE(glsl);
  INFO(*glsl);
  CHECK(glsl->find("0.1lf") != std::string::npos);
  CHECK(exec::compile_glsl(*glsl, exec::ShaderStage::Compute));
}
