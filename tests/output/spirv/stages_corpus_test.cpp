// The geometry and tessellation shaders of ../shared/corpus/glsl-stages/
// (INDEX.md section (d)) through the GLSL front end, the IR validator, the
// IR text form (dump, parse, dump again: the same text) and the SPIR-V
// output, whose module spirv-val must accept for the target environment
// glslang's own SPIR-V of the shader needs. Each shader gets the glslang
// options INDEX.md gives it (stages_corpus.h). The counts are printed;
// docs/testing.md reports them.

#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "ir/dump.h"
#include "ir/parse.h"
#include "output/spirv/spirv_output.h"
#include "stages_corpus.h"
#include "validator/validator.h"

using namespace sluice;

TEST_CASE("corpus: every geometry and tessellation shader gives spirv-val-clean SPIR-V", "[corpus][stages]") {
  const auto shaders = testing::stage_shaders();
  REQUIRE(shaders.size() == 38);
  std::size_t translated = 0, round_tripped = 0, valid = 0;
  for (const testing::StageShader& s : shaders) {
    INFO(s.file << " (" << s.target_env << (s.automap ? ", --aml --amb" : "") << ")");
    const std::string source = testing::read_file(s.path);
    const auto env = spirv::target_env_from_string(s.target_env);
    REQUIRE(env);
    glsl_in::Options options;
    options.auto_map_locations = options.auto_map_bindings = s.automap;
    options.spirv_version = spirv::spirv_version(*env);
    const glsl_in::Result r = glsl_in::compile(source, s.path, options);
    INFO(render(r.diagnostics, source));
    if (testing::refused_stage_shaders().contains(s.file)) {
      // Refused with a position and the feature's name, never by a crash.
      CHECK_FALSE(r.module.has_value());
      REQUIRE_FALSE(r.diagnostics.empty());
      CHECK(r.diagnostics.front().message.find("is not supported") != std::string::npos);
      CHECK(r.diagnostics.front().line > 0);
      continue;
    }
    CHECK(r.module.has_value());
    if (!r.module) continue;
    const auto problems = validator::validate(*r.module);
    for (const auto& p : problems) UNSCOPED_INFO(validator::describe(*r.module, p));
    CHECK(problems.empty());
    if (!problems.empty()) continue;
    ++translated;
    const std::string text = ir::dump(*r.module);
    const ir::ParseResult parsed = ir::parse_module(text, s.file);
    CHECK(parsed.module.has_value());
    if (parsed.module && ir::dump(*parsed.module) == text) ++round_tripped;
    CHECK((parsed.module && ir::dump(*parsed.module) == text));
    spirv::Options out;
    out.target = *env;
    const auto words = spirv::emit(*r.module, out);
    INFO((words.ok() ? std::string() : words.error()));
    CHECK(words.ok());
    if (!words.ok()) continue;
    const std::vector<std::string> messages = spirv::validate(*words, *env);
    for (const std::string& m : messages) UNSCOPED_INFO(m);
    if (messages.empty()) ++valid;
    if (!messages.empty()) {
      const auto asm_text = spirv::disassemble(*words, *env);
      UNSCOPED_INFO((asm_text.ok() ? *asm_text : asm_text.error()));
    }
    CHECK(messages.empty());
  }
  WARN("glsl-stages/: " << shaders.size() << " shaders, " << translated << " build valid IR, " << round_tripped
                        << " read back from their IR text unchanged, " << valid << " give spirv-val-clean SPIR-V");
  // The ratchet: all but the refused ones (stages_corpus.h says why).
  CHECK(valid == shaders.size() - testing::refused_stage_shaders().size());
  CHECK(valid == 38);
}

