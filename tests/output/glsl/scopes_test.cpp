// The GLSL output reads the scope model (docs/ir.md, "Scopes: where a jump
// goes") on the trees where the copies it replaced disagreed, and relies on
// the validator for invalid IR.
#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "ir/scope_shapes.h"

namespace sluice {
namespace {

namespace shapes = testing::scope_shapes;

TEST_CASE("GLSL: a loop nested in an If, and a Break out of a loop nested in a continue chain", "[glsl][scopes]") {
  const std::string in_if = testing::emit_and_compile(shapes::parse(shapes::kLoopInIf));
  CHECK(in_if.find("break;") != std::string::npos);
  const std::string in_continue = testing::emit_and_compile(shapes::parse(shapes::kLoopInContinue));
  CHECK(in_continue.find("break;") != std::string::npos);
}

TEST_CASE("GLSL: what it cannot express and invalid IR are errors that say why", "[glsl][scopes]") {
  const auto do_loop = glsl_out::emit(shapes::parse(shapes::kDoLoopConditionBreak), {});
  REQUIRE_FALSE(do_loop.ok());
  CHECK(do_loop.error() == "GLSL output: Break inside a do-loop's condition chain cannot be expressed in GLSL");

  ir::Module m = shapes::parse(shapes::kLoopInIf);
  for (ir::Block& b : m.function(ir::FunctionId(0)).blocks)
    if (b.terminator_opcode() == ir::Opcode::Break) b.instructions.back().opcode = ir::Opcode::Merge;
  const auto invalid = glsl_out::emit(m, {});
  REQUIRE_FALSE(invalid.ok());
  CHECK(invalid.error().starts_with("invalid IR: f0 'main', Loop Body block b"));
  CHECK(invalid.error().ends_with(": Merge outside an If's sub-block chain"));
}

}  // namespace
}  // namespace sluice
