// The loop-latch driver workaround (spirv::Options::loop_latch,
// docs/workarounds.md; lavapipe, run time): a Loop whose body is one block
// does not make that block its continue target (spirv-opt's shape, which
// Mesa runs as a continue construct behind a flag); an empty latch block
// after it is, the POPL'23 paper's Fig. 9 idiom. Nothing else changes, and
// the module computes the same.
#include <bit>
#include <string>

#include <catch2/catch.hpp>

#include "glsl_fragment.h"
#include "spirv_interpreter.h"

using namespace sluice;

namespace {

// The continue target named by the (only) OpLoopMerge, and whether the
// block with that label holds nothing but its branch back.
std::pair<std::string, bool> continue_target(const std::string& text) {
  const auto merges = testing::lines_with(text, "OpLoopMerge");
  REQUIRE(merges.size() == 1);
  // "OpLoopMerge %merge %continue None"
  const std::string& line = merges[0];
  const std::size_t first = line.find('%', line.find("OpLoopMerge"));
  const std::size_t second = line.find('%', line.find(' ', first));
  const std::string target = line.substr(second, line.find(' ', second) - second);
  const std::size_t label = text.find(target + " = OpLabel");
  REQUIRE(label != std::string::npos);
  const std::size_t next = text.find('\n', label) + 1;
  const std::string after = text.substr(next, text.find('\n', next) - next);
  return {target, after.find("OpBranch ") != std::string::npos};
}

}  // namespace

TEST_CASE("loop-latch gives a one-block loop body an empty latch as its continue target") {
  const ir::Module m = testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;
void main() {
  float w = 0.25;
  int k = 0;
  while (k < n) { w = 3.7 * w * (1.0 - w); k++; }
  o = vec4(w);
})");
  spirv::Options worked;
  worked.loop_latch = true;
  const testing::Emitted plain = testing::emit_checked(m);
  const testing::Emitted latched = testing::emit_checked(m, worked);
  INFO(plain.text);
  INFO(latched.text);
  CHECK_FALSE(continue_target(plain.text).second);  // the body itself
  CHECK(continue_target(latched.text).second);      // an empty block branching back
  CHECK(testing::count_of(latched.text, "OpLabel") == testing::count_of(plain.text, "OpLabel") + 1);
  float w = 0.25f;
  for (int k = 0; k < 5; ++k) w = 3.7f * w * (1.0f - w);
  for (const testing::Emitted* e : {&plain, &latched}) {
    const auto run = testing::run_spirv(e->words, {{"n", {5}}});
    INFO(run.error);
    REQUIRE(run.ok);
    CHECK(run.outputs.at("o") == testing::Words(4, std::bit_cast<std::uint32_t>(w)));
  }
}

TEST_CASE("loop-latch leaves loops with a body of several blocks or a continue block alone") {
  const ir::Module m = testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;
void main() {
  float w = 0.0;
  for (int k = 0; k < n; ++k) w += 0.5;
  int j = 0;
  while (j < n) { if (j > 2) w += 1.0; else w -= 0.5; j++; }
  o = vec4(w);
})");
  spirv::Options worked;
  worked.loop_latch = true;
  CHECK(testing::emit_checked(m, worked).words == testing::emit_checked(m).words);
}

TEST_CASE("loop-latch leaves a one-block body that stores a whole vector variable alone") {
  // nbody.comp's inner loop: `acc` (a vec3) is carried, and lavapipe runs a
  // carried vector slower behind a latch (docs/workarounds.md).
  const ir::Module m = testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;
void main() {
  vec3 acc = vec3(0.0);
  int k = 0;
  while (k < n) { acc = acc * 0.5 + vec3(1.0, 2.0, 3.0); k++; }
  o = vec4(acc, 1.0);
})");
  spirv::Options worked;
  worked.loop_latch = true;
  CHECK(testing::emit_checked(m, worked).words == testing::emit_checked(m).words);
}
