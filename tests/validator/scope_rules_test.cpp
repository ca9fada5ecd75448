// The validator's jump rules read the scope model (docs/ir.md, "Scopes:
// where a jump goes"); these are the trees where its old copy and the
// others disagreed, each valid and then with the one jump that breaks it.
#include <catch2/catch.hpp>

#include "ir/scope_shapes.h"
#include "validator_test_util.h"

namespace sluice {
namespace {

namespace shapes = testing::scope_shapes;

using ir::Opcode;
using testing::require_only_problem;
using testing::require_valid;

// The one block of main ending with `op`.
ir::Block& only_block_ending(ir::Module& m, Opcode op) {
  ir::Function& f = m.function(ir::FunctionId(0));
  ir::Block* found = nullptr;
  for (ir::Block& b : f.blocks)
    if (b.terminator_opcode() == op) {
      REQUIRE(found == nullptr);
      found = &b;
    }
  REQUIRE(found != nullptr);
  return *found;
}

TEST_CASE("Merge inside a loop nested in an If is invalid: in the loop's merge block it is valid",
          "[validator][scopes]") {
  ir::Module m = shapes::parse(shapes::kLoopInIf);
  require_valid(m);
  only_block_ending(m, Opcode::Break).instructions.back().opcode = Opcode::Merge;
  // Two Merges now: the loop body's is the one reported.
  require_only_problem(m, "Merge outside an If's sub-block chain");
}

TEST_CASE("Break out of a loop nested in a continue chain is valid: Return there is not", "[validator][scopes]") {
  ir::Module m = shapes::parse(shapes::kLoopInContinue);
  require_valid(m);
  ir::Block& inner_body = only_block_ending(m, Opcode::Break);
  inner_body.instructions.back().opcode = Opcode::Return;
  require_only_problem(m, "Return inside a loop's continue chain");
  inner_body.instructions.back().opcode = Opcode::Break;
  require_valid(m);
  // The inner loop's merge block is in the outer continue chain: no Break out of the outer loop.
  ir::Function& f = m.function(ir::FunctionId(0));
  const ir::BlockId inner_loop = f.block(f.entry).loop_continue();
  REQUIRE(f.block(inner_loop).terminator_opcode() == Opcode::Loop);
  f.block(f.block(inner_loop).merge).instructions.back().opcode = Opcode::Break;
  require_only_problem(m, "Break inside a loop's continue chain");
}

TEST_CASE("Break in a DoLoop's condition chain is valid IR", "[validator][scopes]") {
  const ir::Module m = shapes::parse(shapes::kDoLoopConditionBreak);
  require_valid(m);
}

}  // namespace
}  // namespace sluice
