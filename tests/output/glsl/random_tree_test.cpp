// Property test on random IR trees (the SPIR-V output tests' generator,
// tests/output/spirv/random_ir.h: every control-flow form, escapes from
// nested constructs, λV-style loops, switches with fall-through): each
// tree's GLSL compiles with glslang and passes spirv-val, and running
// glslang's SPIR-V (the SPIR-V tests' interpreter) computes what the IR
// computes — the output hash of the path taken and whether it discarded.
// This checks the text's control flow (continue blocks before `continue`,
// do-loop flags, break values, ternaries) and the inlining order together.
// 300 trees by default; SLUICE_GLSL_RANDOM_TREES overrides.

#include <cstdlib>

#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "ir_interpreter.h"
#include "random_ir.h"
#include "spirv_interpreter.h"

using namespace sluice;

namespace {

std::uint32_t tree_count() {
  if (const char* n = std::getenv("SLUICE_GLSL_RANDOM_TREES")) return static_cast<std::uint32_t>(std::strtoul(n, nullptr, 10));
  return 300;
}

// The first failure for `seed`, or "".
std::string check_seed(std::uint64_t seed, std::uint32_t& compared) {
  const ir::Module m = testing::random_ir(seed);
  if (const auto problems = validator::validate(m); !problems.empty())
    return "the generator made invalid IR: " + validator::describe(m, problems);
  const glsl_out::Options options = seed % 3 == 2 ? testing::vulkan_es() : testing::vulkan_450();
  auto text = glsl_out::emit(m, options);
  if (!text.ok()) return "emit failed: " + text.error() + "\n" + ir::dump(m);
  const testing::GlslCheck check = testing::compile_glsl_text(*text, m.shader().stage, options);
  if (!check.ok) return "glslang: " + check.log + "\n" + *text + "\n" + ir::dump(m);
  for (std::uint32_t run = 0; run < 2; ++run) {
    const std::map<std::string, testing::Words> inputs = {
        {"x", {static_cast<std::uint32_t>((seed + run) * 7 % 23) - 5u}},
        {"y", {static_cast<std::uint32_t>((seed + 3 * run) % 11)}}};
    const testing::IrRun expected = testing::run_ir(m, inputs);
    if (!expected.ok) return "the IR interpreter failed: " + expected.error;
    const testing::SpirvRun actual = testing::run_spirv(check.spirv, inputs);
    if (!actual.ok) return "the SPIR-V interpreter failed on glslang's SPIR-V: " + actual.error + "\n" + *text;
    ++compared;
    if (expected.killed != actual.killed) return "discard differs\n" + *text + "\n" + ir::dump(m);
    if (!expected.killed && expected.outputs.at("o") != actual.outputs.at("o"))
      return "o differs: IR " + std::to_string(expected.outputs.at("o")[0]) + ", GLSL " +
             std::to_string(actual.outputs.at("o")[0]) + "\n" + *text + "\n" + ir::dump(m);
  }
  return "";
}

}  // namespace

TEST_CASE("random IR trees: GLSL that compiles and computes what the IR computes") {
  const std::uint32_t count = tree_count();
  std::uint32_t compared = 0, failures = 0;
  for (std::uint64_t seed = 1; seed <= count && failures < 3; ++seed) {
    const std::string failure = check_seed(seed, compared);
    INFO("seed " << seed << ": " << failure);
    CHECK(failure.empty());
    failures += !failure.empty();
  }
  WARN(compared << " runs of " << count << " trees compared");
  CHECK(compared >= count);
}

