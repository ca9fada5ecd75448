// The traversal and rewriting helpers: block order, the Transform actions,
// make_with_result_id / assign_new_register_to_instruction, compaction.
#include <catch2/catch.hpp>

#include "transform/substitution.h"
#include "transform/transformer.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::transform;
using sluice::testing::must;

namespace {

// main() { if (v.x > 0) { color = v } else { color = 1 }; return }
testing::ShaderUnderTest if_shader() {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  auto blocks = must(s.b.branch_if(c));
  s.b.set_block(blocks.true_block);
  must(s.b.store(s.color, must(s.b.load(s.input))));
  must(s.b.terminate(Opcode::Merge));
  s.b.set_block(blocks.false_block);
  const ConstantId ones[] = {predefined::kFloatOne, predefined::kFloatOne, predefined::kFloatOne,
                             predefined::kFloatOne};
  must(s.b.store(s.color, s.m.composite_constant(predefined::kVec4, ones)));
  must(s.b.terminate(Opcode::Merge));
  s.b.set_block(blocks.merge);
  must(s.b.terminate(Opcode::Return));
  return s;
}

}  // namespace

TEST_CASE("for_each_block calls before, the sub-blocks, then after, and follows the merge chain") {
  auto s = if_shader();
  std::vector<std::string> events;
  for_each_block(
      s.m, s.main,
      [&](const BlockSite& site) {
        events.push_back(std::string("before ") + to_string(site.kind));
        return site.block;
      },
      [&](const BlockSite& site) {
        events.push_back(std::string("after ") + to_string(site.kind));
        return site.block;
      });
  const std::vector<std::string> expected = {"before FunctionEntry", "before IfTrue",  "after IfTrue",
                                             "before IfFalse",       "after IfFalse",  "after FunctionEntry",
                                             "before Merge",         "after Merge"};
  CHECK(events == expected);
}

TEST_CASE("for_each_block: before may skip to a later block of the merge chain") {
  auto s = if_shader();
  const BlockId merge = s.m.function(s.main).block(s.m.function(s.main).entry).merge;
  std::vector<BlockKind> seen;
  for_each_block(
      s.m, s.main,
      [&](const BlockSite& site) {
        seen.push_back(site.kind);
        return site.kind == BlockKind::FunctionEntry ? merge : site.block;
      },
      [](const BlockSite& site) { return site.block; });
  // The If's branches are skipped; the merge block is still reached.
  CHECK(seen == std::vector<BlockKind>{BlockKind::FunctionEntry, BlockKind::Merge});
}

TEST_CASE("transform_block: Keep, Remove, Add and DeclareVariable") {
  auto s = if_shader();
  Module& m = s.m;
  const std::size_t stores_before = testing::count_instructions(m, Opcode::Store);
  VariableId local;
  auto result = for_each_instruction(m, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
    if (inst.opcode == Opcode::GreaterThan) {
      // Keep it, and add a copy of its operand behind it through an Alias.
      auto alias = make(site.module, Opcode::Alias, std::span<const Operand>(inst.operands.data(), 1));
      REQUIRE(alias.ok());
      Variable v;
      v.name = {"scratch", NameSource::Temporary};
      v.type = site.module.pointer_type(predefined::kFloat, StorageClass::Function);
      local = site.module.add_variable(v);
      return {Transform::keep(), Transform::add(*alias), Transform::declare_variable(local)};
    }
    if (inst.opcode == Opcode::Store && site.block != m.function(site.function).entry) return {Transform::remove()};
    return {};
  });
  REQUIRE(result.ok());
  CHECK(testing::count_instructions(m, Opcode::Alias) == 1);
  CHECK(testing::count_instructions(m, Opcode::GreaterThan) == 1);
  CHECK(testing::count_instructions(m, Opcode::Store) == stores_before - 2);  // both branches' stores
  const Block& entry = m.function(s.main).block(m.function(s.main).entry);
  CHECK(std::find(entry.declarations.begin(), entry.declarations.end(), local) != entry.declarations.end());
  testing::require_valid(m);
}

TEST_CASE("transform_block: a terminator can be prepended to but not replaced") {
  auto s = if_shader();
  Module& m = s.m;
  SECTION("prepending with Keep last") {
    auto r = for_each_instruction(m, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
      if (inst.opcode != Opcode::Return) return {};
      REQUIRE(site.is_terminator);
      auto load = make(site.module, Opcode::Load, std::initializer_list<Operand>{s.input});
      REQUIRE(load.ok());
      return {Transform::add(*load), Transform::keep()};
    });
    REQUIRE(r.ok());
    testing::require_valid(m);
  }
  SECTION("replacing is an error value, and the IR stays valid") {
    auto r = for_each_instruction(m, [&](InstructionSite&, const Instruction& inst) -> Transforms {
      if (inst.opcode == Opcode::Return) return {Transform::remove()};
      return {};
    });
    CHECK_FALSE(r.ok());
    CHECK(r.error().find("terminator") != std::string::npos);
    testing::require_valid(m);
  }
}

TEST_CASE("transform_block: AddBlock splits the block, the rest continues at the end of the new chain") {
  auto s = if_shader();
  Module& m = s.m;
  const std::size_t original_blocks = m.function(s.main).blocks.size();
  std::vector<BlockId> added;
  std::size_t calls_in_added = 0;
  BlockId open_block;
  bool split = false;
  auto r = transform_block(m, s.main, m.function(s.main).entry, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
    if (std::find(added.begin(), added.end(), site.block) != added.end()) ++calls_in_added;
    if (inst.opcode == Opcode::If && split) CHECK(site.block == open_block);
    if (inst.opcode != Opcode::GreaterThan || split) return {};
    split = true;
    // Builds `If c { Merge } else { Merge }` with an open merge block, and
    // many unrelated blocks first so that the block table reallocates while
    // the helper holds the instruction being transformed.
    Function& f = site.module.function(site.function);
    for (int i = 0; i < 1000; ++i) f.add_block();
    const BlockId head = f.add_block(), t = f.add_block(), e = f.add_block(), merge = f.add_block();
    added = {t, e};
    open_block = merge;
    Instruction iff;
    iff.opcode = Opcode::If;
    iff.operands.push_back(inst.result);
    f.block(head).instructions.push_back(iff);
    f.block(head).sub_blocks_storage[0] = t;
    f.block(head).sub_blocks_storage[1] = e;
    f.block(head).merge = merge;
    for (BlockId b : {t, e}) {
      f.block(b).instructions.emplace_back();
      f.block(b).instructions.back().opcode = Opcode::Merge;
    }
    return {Transform::keep(), Transform::add_block(head)};
  });
  REQUIRE(r.ok());
  CHECK(calls_in_added == 0);  // blocks the callback built are not traversed
  CHECK(testing::count_instructions(m, Opcode::If) == 2);
  testing::require_valid(m);
  // The 1000 unrelated blocks and the emptied head are not reachable.
  CHECK(compact_blocks(m.function(s.main)));
  testing::require_valid(m);
  CHECK(m.function(s.main).blocks.size() == original_blocks + 3);  // the new If's true, false, merge
}

TEST_CASE("AddBlock of a chain that does not end open is an error") {
  auto s = if_shader();
  auto r = for_each_instruction(s.m, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
    if (inst.opcode != Opcode::GreaterThan) return {};
    Function& f = site.module.function(site.function);
    const BlockId b = f.add_block();
    f.block(b).instructions.emplace_back();
    f.block(b).instructions.back().opcode = Opcode::Return;
    return {Transform::keep(), Transform::add_block(b)};
  });
  CHECK_FALSE(r.ok());
  testing::require_valid(s.m);
}

TEST_CASE("make_with_result_id keeps the register, assign_new_register_to_instruction frees it") {
  // The ANGLE README's example: `id = SomeOpCode ...` becomes
  // `new_id = SomeOpCode ...; ...; id = <something built on new_id>`.
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto sum = must(s.b.emit(Opcode::Add, {x, x}));
  s.finish_scalar(sum);
  Module& m = s.m;
  auto r = for_each_instruction(m, [&](InstructionSite& site, const Instruction& inst) -> Transforms {
    if (inst.opcode != Opcode::Add) return {};
    Instruction moved = inst;
    const RegisterId old_id = inst.result;
    const RegisterId new_id = assign_new_register_to_instruction(site.module, moved);
    CHECK(new_id != old_id);
    CHECK(site.module.reg(new_id).type == site.module.reg(old_id).type);
    // old_id = Negate(Negate(new_id)): same value, and nothing else changes.
    auto neg = make(site.module, Opcode::Negate, std::initializer_list<Operand>{new_id});
    REQUIRE(neg.ok());
    const Operand again[] = {neg->result};
    auto back = make_with_result_id(site.module, Opcode::Negate, old_id, again);
    REQUIRE(back.ok());
    CHECK(back->result == old_id);
    return {Transform::add(moved), Transform::add(*neg), Transform::add(*back)};
  });
  REQUIRE(r.ok());
  CHECK(testing::count_instructions(m, Opcode::Negate) == 2);
  testing::require_valid(m);

  const Operand wrong[] = {predefined::kTrue};
  CHECK_FALSE(make_with_result_id(m, Opcode::Alias, sum, wrong).ok());  // bool for a float register
  CHECK_FALSE(make(m, Opcode::Return, {}).ok());
}

TEST_CASE("the helpers walk 100,000 nested Ifs without recursion") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  std::vector<BlockId> merges;
  constexpr int kDepth = 100000;
  for (int i = 0; i < kDepth; ++i) {
    auto blocks = must(s.b.branch_if(c, false));
    merges.push_back(blocks.merge);
    s.b.set_block(blocks.true_block);
  }
  for (int i = kDepth - 1; i >= 0; --i) {
    must(s.b.terminate(Opcode::Merge));
    s.b.set_block(merges[i]);
  }
  must(s.b.terminate(Opcode::Return));
  std::uint32_t deepest = 0;
  std::size_t afters = 0;
  for_each_block(
      s.m, s.main,
      [&](const BlockSite& site) {
        deepest = std::max(deepest, site.depth);
        return site.block;
      },
      [&](const BlockSite& site) {
        ++afters;
        return site.block;
      });
  CHECK(deepest == kDepth);
  CHECK(afters == s.m.function(s.main).blocks.size());
  std::size_t instructions = 0;
  auto r = for_each_instruction(s.m, [&](InstructionSite&, const Instruction&) -> Transforms {
    ++instructions;
    return {};
  });
  REQUIRE(r.ok());
  CHECK(instructions == testing::count_all_instructions(s.m));
}
