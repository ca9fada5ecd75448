// Opaque types (images, samplers, sampled images) inside blocks: GLSL 4.60
// §4.3.9 forbids a block member that is or contains one, and Vulkan keeps
// them in UniformConstant handles (VUID-StandaloneSpirv-UniformConstant-04655).
// The sixth fuzz campaign's ir finding (docs/testing.md): a push-constant
// block holding a sampler validated, and the GLSL output was refused by
// glslang. Each test parses a small compute shader in the IR text form.
#include <string>

#include "ir/parse.h"
#include "ir/typing.h"
#include "validator/validator_test_util.h"

using namespace sluice;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;

namespace {

// t26: a depth-array image, t27 its sampled image, then `extra_types` (one
// line at most), `struct_type` and a pointer to it in `storage`, the type
// of v0.
std::string shader(const std::string& extra_types, const std::string& struct_type, const std::string& storage,
                   const std::string& decorations) {
  return std::string("Compute Shader\n[Local size 1, 1, 1]\n\nTypes:\n") + sluice::testing::kStandardTypesText +
         "  t26: Image float 2D [depth, arrayed]\n  t27: Sampled image of t26\n" +
         extra_types + "  " + struct_type + "\n  t" + std::to_string(29 + (extra_types.empty() ? 0 : 1)) +
         ": Pointer to t" + std::to_string(28 + (extra_types.empty() ? 0 : 1)) + " in " + storage +
         "\n" + sluice::testing::kStandardConstantsText +
         "\nVariables:\n  v0 (t" + std::to_string(29 + (extra_types.empty() ? 0 : 1)) + "): 'v' [" + decorations +
         "]\n\nGlobals: v0\n\nFunctions:\n\n  f0: 'main'() -> t0\n\n    __________________\n"
         "    Entry To Function:\n            Return\n";
}

ir::Module parse(const std::string& text) {
  ir::ParseResult r = ir::parse_module(text, "opaque.ir");
  INFO(text << "\n" << render(r.diagnostics, text));
  REQUIRE(r.module.has_value());
  return std::move(*r.module);
}

}  // namespace

TEST_CASE("a block member that is an opaque type is refused", "[validator]") {
  const ir::Module m = parse(shader("", "t28: Struct 'Push' [block, std430] {t27 'light' [offset=0]}", "PushConstant",
                                    "push_constant"));
  require_only_problem(m, "t28: member 'light' of a block is or holds an image or sampler (t27); opaque types are "
                          "not allowed in blocks");
}

TEST_CASE("a block member holding an opaque type in an array of structs is refused too", "[validator]") {
  const ir::Module m =
      parse(shader("  t28: Struct 'Light' {t27 'shadow'}\n", "t29: Struct 'Params' [block, std140] {t1 'w' [offset=0], "
                                                               "t28 'light' [offset=16]}",
                    "Uniform", "uniform, set=0, binding=0"));
  CHECK(ir::contains_opaque(m, ir::TypeId(28)));
  CHECK(ir::contains_opaque(m, ir::TypeId(29)));
  require_only_problem(m, "t29: member 'light' of a block is or holds an image or sampler (t28); opaque types are "
                          "not allowed in blocks");
}

TEST_CASE("a block of plain members is valid, and contains_opaque says so", "[validator]") {
  const ir::Module m =
      parse(shader("", "t28: Struct 'Push' [block, std430] {t7 'color' [offset=0]}", "PushConstant", "push_constant"));
  require_valid(m);
  CHECK_FALSE(ir::contains_opaque(m, ir::TypeId(28)));
  CHECK(ir::contains_opaque(m, ir::TypeId(27)));
  CHECK_FALSE(ir::contains_opaque(m, ir::TypeId(1000)));  // outside the module's types
}
