// The SPIR-V CFG builder reads the scope model (docs/ir.md, "Scopes: where a
// jump goes") on the trees where its old copy and the others disagreed:
// each emitted module passes spirv-val, and the one jump SPIR-V cannot
// express (a Break out of a do-while from its condition, which is in the
// loop's continue construct, §2.11) is reported.
#include <catch2/catch.hpp>

#include "ir/scope_shapes.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

namespace sluice {
namespace {

namespace shapes = testing::scope_shapes;

ir::Module parse_valid(const char* body) {
  ir::Module m = shapes::parse(body);
  REQUIRE(validator::validate(m).empty());
  return m;
}

TEST_CASE("SPIR-V: a loop nested in an If, and a Break out of a loop nested in a continue chain",
          "[spirv][scopes]") {
  const testing::Emitted in_if = testing::emit_checked(parse_valid(shapes::kLoopInIf));
  CHECK(in_if.text.find("OpLoopMerge") != std::string::npos);
  const testing::Emitted in_continue = testing::emit_checked(parse_valid(shapes::kLoopInContinue));
  // Two loops: the inner one lies in the outer one's continue construct.
  std::size_t merges = 0;
  for (std::size_t at = in_continue.text.find("OpLoopMerge"); at != std::string::npos;
       at = in_continue.text.find("OpLoopMerge", at + 1))
    ++merges;
  CHECK(merges == 2);
}

TEST_CASE("SPIR-V: Break from a do-while's condition is reported, not emitted", "[spirv][scopes]") {
  const auto words = spirv::emit(parse_valid(shapes::kDoLoopConditionBreak));
  REQUIRE_FALSE(words.ok());
  CHECK(words.error() == "'main': Break out of a loop from its continue block or do-while condition");
}

TEST_CASE("SPIR-V: invalid IR gets the validator's problem", "[spirv][scopes]") {
  ir::Module m = shapes::parse(shapes::kLoopInIf);
  for (ir::Block& b : m.function(ir::FunctionId(0)).blocks)
    if (b.terminator_opcode() == ir::Opcode::Break) b.instructions.back().opcode = ir::Opcode::Merge;
  const auto words = spirv::emit(m);
  REQUIRE_FALSE(words.ok());
  CHECK(words.error().starts_with("invalid IR: f0 'main', Loop Body block b"));
  CHECK(words.error().ends_with(": Merge outside an If's sub-block chain"));
}

}  // namespace
}  // namespace sluice
