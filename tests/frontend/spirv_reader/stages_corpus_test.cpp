// The SPIR-V reader on glslang's SPIR-V of every geometry and tessellation
// shader of ../shared/corpus/glsl-stages/ (INDEX.md section (d), each with
// the glslang options given there: stages_corpus.h): read into the IR
// (spirv-val checks the input first, for the shader's environment), the IR
// validator passes, Sluice's SPIR-V from that IR is spirv-val clean for
// the environment, and Sluice's GLSL from it is accepted by glslang, whose
// SPIR-V of it spirv-val accepts too. docs/spirv-input.md gives the counts.
#include <catch2/catch.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "stages_corpus.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

std::string_view bytes_of(const std::vector<std::uint32_t>& words) {
  return {reinterpret_cast<const char*>(words.data()), words.size() * 4};
}

exec::ShaderStage stage_of(ir::ShaderStage s) {
  switch (s) {
    case ir::ShaderStage::Geometry: return exec::ShaderStage::Geometry;
    case ir::ShaderStage::TessControl: return exec::ShaderStage::TessControl;
    case ir::ShaderStage::TessEvaluation: return exec::ShaderStage::TessEvaluation;
    case ir::ShaderStage::Vertex: return exec::ShaderStage::Vertex;
    case ir::ShaderStage::Compute: return exec::ShaderStage::Compute;
    default: return exec::ShaderStage::Fragment;
  }
}

std::uint32_t vulkan_version(spirv::TargetEnv env) {
  switch (env) {
    case spirv::TargetEnv::Vulkan1_1: return 110;
    case spirv::TargetEnv::Vulkan1_2: return 120;
    case spirv::TargetEnv::Vulkan1_3: return 130;
    default: return 100;
  }
}

}  // namespace

TEST_CASE("glslang's SPIR-V of every geometry and tessellation shader reads and round-trips", "[corpus][stages]") {
  const auto shaders = testing::stage_shaders();
  REQUIRE(shaders.size() == 38);
  std::size_t read = 0, valid = 0, glsl_ok = 0;
  for (const testing::StageShader& s : shaders) {
    INFO(s.file << " (" << s.target_env << (s.automap ? ", --aml --amb" : "") << ")");
    const auto env = spirv::target_env_from_string(s.target_env);
    REQUIRE(env);
    const auto stage = exec::shader_stage_from_path(s.path);
    REQUIRE(stage);
    exec::GlslCompileOptions glslang_options;
    glslang_options.auto_map_locations = glslang_options.auto_map_bindings = s.automap;
    glslang_options.vulkan_version = vulkan_version(*env);
    const auto input = exec::compile_glsl(testing::read_file(s.path), *stage, glslang_options);
    INFO((input ? std::string() : input.error()));
    REQUIRE(input);
    const auto m = spirv_in::read_bytes(bytes_of(*input), {s.file, spirv::spvtools_env(*env)});
    INFO((m ? std::string() : m.error()));
    CHECK(m);
    if (!m) continue;
    CHECK(stage_of(m->shader().stage) == *stage);
    const auto problems = validator::validate(*m);
    INFO((problems.empty() ? std::string() : validator::describe(*m, problems)));
    CHECK(problems.empty());
    if (!problems.empty()) continue;
    ++read;
    spirv::Options out;
    out.target = *env;
    const auto words = spirv::emit(*m, out);
    INFO((words ? std::string() : words.error()));
    CHECK(words);
    if (words) {
      const std::vector<std::string> messages = spirv::validate(*words, *env);
      for (const std::string& message : messages) UNSCOPED_INFO(message);
      CHECK(messages.empty());
      if (messages.empty()) ++valid;
    }
    const auto glsl = glsl_out::emit(*m, {});
    INFO((glsl ? std::string() : glsl.error()));
    CHECK(glsl);
    if (!glsl) continue;
    exec::GlslCompileOptions back = glslang_options;
    back.auto_map_locations = back.auto_map_bindings = false;  // Sluice's GLSL states them
    const auto compiled = exec::compile_glsl(*glsl, *stage, back);
    INFO(*glsl << "\n" << (compiled ? std::string() : compiled.error()));
    CHECK(compiled);
    if (!compiled) continue;
    const std::vector<std::string> messages = spirv::validate(*compiled, *env);
    for (const std::string& message : messages) UNSCOPED_INFO(message);
    CHECK(messages.empty());
    if (messages.empty()) ++glsl_ok;
  }
  WARN("glsl-stages/ through glslang's SPIR-V: " << shaders.size() << " shaders, " << read
                                                   << " read into valid IR, " << valid
                                                   << " give spirv-val-clean SPIR-V, " << glsl_ok
                                                   << " give GLSL glslang accepts");
  // The ratchet (docs/spirv-input.md).
  CHECK(read == 38);
  CHECK(valid == 38);
  CHECK(glsl_ok == 38);
}
