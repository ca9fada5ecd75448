// Block-tree rules: the tree is a tree, sub-blocks and merge blocks are what
// each terminator requires, and each block ends with exactly one terminator.
// Every test builds a valid module, checks it validates, then breaks one rule.
#include <fmt/format.h>

#include "validator/validator_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using sluice::testing::last;
using sluice::testing::must;
using sluice::testing::require_only_problem;
using sluice::testing::require_problem;
using sluice::testing::require_valid;
using sluice::testing::ShaderFixture;

namespace {

// main: if (scale < 1) {} else {}; return.
IfBlocks build_if_else(ShaderFixture& s) {
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), true));
  s.b.set_block(i.true_block);
  s.end(Opcode::Merge);
  s.b.set_block(i.false_block);
  s.end(Opcode::Merge);
  s.b.set_block(i.merge);
  s.end(Opcode::Return);
  return i;
}

// main: for (; scale < 1; ) { break; } return.
LoopBlocks build_loop(ShaderFixture& s, bool do_loop = false) {
  LoopBlocks l = must(s.b.branch_loop(do_loop, true));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, s.compare(s.load_scale()));
  s.b.set_block(l.body);
  s.end(Opcode::Break);
  s.b.set_block(l.continue_block);
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.end(Opcode::Return);
  return l;
}

// main: switch (int(scale)) { case 0: fallthrough; case 1: break; default: break; } return.
SwitchBlocks build_switch(ShaderFixture& s) {
  RegisterId selector = must(s.b.construct(Opcode::ConstructScalarFromScalar, kInt, {s.load_scale()}));
  const SwitchCase cases[] = {{0u}, {1u}, {std::nullopt}};
  SwitchBlocks sw = must(s.b.branch_switch(selector, cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  s.end(Opcode::Break);
  s.b.set_block(sw.cases[2]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  s.end(Opcode::Return);
  return sw;
}

}  // namespace

TEST_CASE("a module using every construct validates", "[validator][structure]") {
  ShaderFixture s;
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), true));
  s.b.set_block(i.true_block);
  LoopBlocks l = must(s.b.branch_loop(true, true));
  s.b.set_block(l.condition);
  s.end(Opcode::LoopIf, s.compare(s.load_scale()));
  s.b.set_block(l.body);
  RegisterId selector = must(s.b.construct(Opcode::ConstructScalarFromScalar, kUint, {s.load_scale()}));
  const SwitchCase cases[] = {{std::nullopt}, {7u}};
  SwitchBlocks sw = must(s.b.branch_switch(selector, cases));
  s.b.set_block(sw.cases[0]);
  s.end(Opcode::Passthrough);
  s.b.set_block(sw.cases[1]);
  s.end(Opcode::Break);
  s.b.set_block(sw.merge);
  s.end(Opcode::Continue);
  s.b.set_block(l.continue_block);
  s.end(Opcode::Continue);
  s.b.set_block(l.merge);
  s.end(Opcode::Merge);
  s.b.set_block(i.false_block);
  s.end(Opcode::Discard);
  s.b.set_block(i.merge);
  BlockId next = must(s.b.next_block());
  s.b.set_block(next);
  s.end(Opcode::Return);
  require_valid(s.m);
}

TEST_CASE("tree: a block reached twice is reported", "[validator][structure]") {
  ShaderFixture s;
  IfBlocks i = build_if_else(s);
  require_valid(s.m);
  s.entry().sub_blocks_storage[1] = i.true_block;  // the false edge shares the true block
  auto p = require_only_problem(
      s.m, fmt::format("b{} is reached more than once: the block tree must be a tree (no shared blocks, no cycles)",
                       i.true_block.index()));
  CHECK(p.block == s.fn().entry);
  CHECK(p.instruction == last(s.entry()));
}

TEST_CASE("tree: a cycle back to the entry block is reported", "[validator][structure]") {
  ShaderFixture s;
  IfBlocks i = must(s.b.branch_if(s.compare(s.load_scale()), false));
  s.b.set_block(i.true_block);
  BlockId next = must(s.b.next_block());
  s.b.set_block(next);
  s.end(Opcode::Merge);
  s.b.set_block(i.merge);
  s.end(Opcode::Return);
  require_valid(s.m);
  s.block(i.true_block).merge = s.fn().entry;  // NextBlock goes back to where it came from
  auto p = require_only_problem(
      s.m, fmt::format("b{} is reached more than once: the block tree must be a tree (no shared blocks, no cycles)",
                       s.fn().entry.index()));
  CHECK(p.block == i.true_block);
}

TEST_CASE("tree: the entry block must exist", "[validator][structure]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  require_valid(s.m);
  s.fn().entry = BlockId(42);
  require_only_problem(s.m, "entry block b42 does not exist");
}

TEST_CASE("sub-blocks: If needs a true block", "[validator][structure]") {
  ShaderFixture s;
  build_if_else(s);
  require_valid(s.m);
  s.entry().sub_blocks_storage[0] = BlockId{};
  require_only_problem(s.m, "If has no true block");
}

TEST_CASE("sub-blocks: a sub-block id must exist", "[validator][structure]") {
  ShaderFixture s;
  build_if_else(s);
  require_valid(s.m);
  s.entry().sub_blocks_storage[1] = BlockId(99);
  require_only_problem(s.m, "false block b99 does not exist");
}

TEST_CASE("sub-blocks: Loop and DoLoop need a condition and a body", "[validator][structure]") {
  const bool do_loop = GENERATE(false, true);
  ShaderFixture s;
  LoopBlocks l = build_loop(s, do_loop);
  require_valid(s.m);
  SECTION("no condition") {
    s.entry().sub_blocks_storage[0] = BlockId{};
    require_only_problem(s.m, fmt::format("{} has no condition block", do_loop ? "DoLoop" : "Loop"));
  }
  SECTION("no body") {
    s.entry().sub_blocks_storage[1] = BlockId{};
    require_only_problem(s.m, fmt::format("{} has no body block", do_loop ? "DoLoop" : "Loop"));
  }
  SECTION("no continue block is fine") {
    s.entry().sub_blocks_storage[2] = BlockId{};
    require_valid(s.m);
  }
  (void)l;
}

TEST_CASE("sub-blocks: Switch has one block per case", "[validator][structure]") {
  ShaderFixture s;
  build_switch(s);
  require_valid(s.m);
  s.entry().cases.pop_back();
  require_only_problem(s.m, "Switch has 3 case blocks for 2 cases");
}

TEST_CASE("sub-blocks: Switch has at most one default", "[validator][structure]") {
  ShaderFixture s;
  build_switch(s);
  require_valid(s.m);
  s.entry().cases[1].value = std::nullopt;
  require_only_problem(s.m, "Switch has more than one default case");
}

TEST_CASE("sub-blocks: Switch case values are distinct", "[validator][structure]") {
  ShaderFixture s;
  build_switch(s);
  require_valid(s.m);
  s.entry().cases[1].value = 0u;
  require_only_problem(s.m, "Switch has duplicate case value 0");
}

TEST_CASE("sub-blocks: divergent terminators have a merge block", "[validator][structure]") {
  ShaderFixture s;
  IfBlocks i = build_if_else(s);
  require_valid(s.m);
  s.entry().merge = BlockId{};
  require_only_problem(s.m, "If has no merge block");
  (void)i;
}

TEST_CASE("sub-blocks: NextBlock has only a merge block", "[validator][structure]") {
  ShaderFixture s;
  BlockId next = must(s.b.next_block());
  s.b.set_block(next);
  s.end(Opcode::Return);
  require_valid(s.m);
  s.entry().sub_blocks_storage[0] = next;
  require_problem(s.m, "NextBlock has sub-blocks; it has only a merge block");
}

TEST_CASE("sub-blocks: other terminators have neither sub-blocks nor a merge block", "[validator][structure]") {
  ShaderFixture s;
  s.end(Opcode::Return);
  require_valid(s.m);
  s.entry().merge = s.fn().add_block();
  require_only_problem(s.m,
                       "Return has sub-blocks or a merge block; only If, Loop, DoLoop, Switch and NextBlock have them");
}

TEST_CASE("terminators: every block ends with one", "[validator][structure]") {
  ShaderFixture s;
  IfBlocks i = build_if_else(s);
  require_valid(s.m);
  s.block(i.merge).instructions.pop_back();
  auto p = require_only_problem(s.m, "the block has no terminator: its last instruction must be one");
  CHECK(p.block == i.merge);
  CHECK(p.instruction == -1);
}

TEST_CASE("terminators: none in the middle of a block", "[validator][structure]") {
  ShaderFixture s;
  s.store_color(s.load_scale());
  s.end(Opcode::Return);
  require_valid(s.m);
  Block& entry = s.entry();
  entry.instructions.insert(entry.instructions.begin() + 1, entry.instructions.back());
  auto p = require_only_problem(s.m, "Return in the middle of the block; a terminator is the block's last instruction");
  CHECK(p.instruction == 1);
}
