// Bad input gives an error value, never a crash: random trees with random
// damage (dangling ids, wrong opcodes, missing terminators, misplaced
// blocks, retyped registers) are emitted without a crash, and IR that SPIR-V
// cannot express gets a message that says why.
#include <catch2/catch.hpp>

#include "random_ir.h"
#include "shader_fixture.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

struct Damage {
  std::uint64_t state;
  std::uint32_t below(std::uint32_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>((state >> 33) % std::max(n, 1u));
  }
};

void damage(Module& m, Damage& d) {
  Function& f = m.function(FunctionId(d.below(static_cast<std::uint32_t>(m.function_count()))));
  Block& b = f.blocks[d.below(static_cast<std::uint32_t>(f.blocks.size()))];
  const auto opcode_count = static_cast<std::uint32_t>(Opcode::ImageAtomicCompSwap) + 1;
  switch (d.below(7)) {
    case 0:
      if (!b.instructions.empty()) {
        Instruction& inst = b.instructions[d.below(static_cast<std::uint32_t>(b.instructions.size()))];
        if (!inst.operands.empty()) {
          const std::uint32_t limit = static_cast<std::uint32_t>(m.register_count() + 3);
          switch (d.below(5)) {
            case 0: inst.operands[d.below(static_cast<std::uint32_t>(inst.operands.size()))] = RegisterId(d.below(limit)); break;
            case 1: inst.operands[d.below(static_cast<std::uint32_t>(inst.operands.size()))] = ConstantId(d.below(40)); break;
            case 2: inst.operands[d.below(static_cast<std::uint32_t>(inst.operands.size()))] = VariableId(d.below(20)); break;
            case 3: inst.operands[d.below(static_cast<std::uint32_t>(inst.operands.size()))] = FunctionId(d.below(3)); break;
            default: inst.operands[d.below(static_cast<std::uint32_t>(inst.operands.size()))] = Operand::literal(d.below(9)); break;
          }
        }
      }
      break;
    case 1:
      if (!b.instructions.empty())
        b.instructions[d.below(static_cast<std::uint32_t>(b.instructions.size()))].opcode = static_cast<Opcode>(d.below(opcode_count));
      break;
    case 2:
      if (!b.instructions.empty()) b.instructions.pop_back();
      break;
    case 3: b.merge = BlockId(d.below(static_cast<std::uint32_t>(f.blocks.size() + 2))); break;
    case 4: b.sub_blocks_storage[d.below(3)] = BlockId(d.below(static_cast<std::uint32_t>(f.blocks.size() + 2))); break;
    case 5: m.reg(RegisterId(d.below(static_cast<std::uint32_t>(m.register_count())))).type = TypeId(d.below(static_cast<std::uint32_t>(m.type_count() + 2))); break;
    default:
      if (!b.instructions.empty()) {
        Instruction& inst = b.instructions[d.below(static_cast<std::uint32_t>(b.instructions.size()))];
        inst.aux = static_cast<std::uint16_t>(d.below(256));
        inst.result = RegisterId(d.below(static_cast<std::uint32_t>(m.register_count() + 2)));
      }
      break;
  }
}

}  // namespace

TEST_CASE("damaged trees give an error or words, never a crash") {
  std::size_t errors = 0, emitted = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Module m = testing::random_ir(seed, testing::RandomIrOptions{60, 5, 2});
    Damage d{seed};
    const std::uint32_t hits = 1 + d.below(3);
    for (std::uint32_t k = 0; k < hits; ++k) damage(m, d);
    for (bool ssa : {true, false}) {
      spirv::Options options;
      options.promote_to_ssa = ssa;
      const auto result = spirv::emit(m, options);
      if (result) {
        ++emitted;
      } else {
        ++errors;
        CHECK_FALSE(result.error().empty());
      }
    }
  }
  CHECK(errors > 0);
  CHECK(emitted + errors == 800);
}

TEST_CASE("what SPIR-V cannot express is an error that says why") {
  auto expect_error = [](testing::ShaderFixture& s, const std::string& fragment) {
    const auto result = spirv::emit(s.m);
    REQUIRE_FALSE(result.ok());
    INFO(result.error());
    CHECK(result.error().find(fragment) != std::string::npos);
  };
  SECTION("no entry point") {
    Module m;
    Builder b(m);
    b.begin_function({"helper", NameSource::Internal}, kVoid);
    ok(b.terminate(Opcode::Return));
    const auto result = spirv::emit(m);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().find("entry point") != std::string::npos);
  }
  SECTION("recursion") {
    testing::ShaderFixture s;
    FunctionId f = s.b.begin_function({"again", NameSource::Internal}, kVoid);
    const Operand self[] = {f};
    ok(s.b.emit(Opcode::Call, self));
    s.terminate(Opcode::Return);
    s.b.set_function(s.main);
    s.b.set_block(s.m.function(s.main).entry);
    ok(s.b.emit(Opcode::Call, self));
    s.terminate(Opcode::Return);
    expect_error(s, "recursion is not allowed");  // the validator's problem: invalid IR
  }
  SECTION("a return inside a loop's continue block") {
    testing::ShaderFixture s;
    LoopBlocks loop = ok(s.b.branch_loop(false, true));
    s.b.set_block(loop.condition);
    s.terminate(Opcode::LoopIf, s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(0)}));
    s.b.set_block(loop.body);
    s.terminate(Opcode::Continue);
    s.b.set_block(loop.continue_block);
    s.terminate(Opcode::Return);
    s.b.set_block(loop.merge);
    s.terminate(Opcode::Return);
    // Invalid IR (docs/ir.md, "Scopes"): emit() reports the validator's problem.
    expect_error(s, "invalid IR: ");
    expect_error(s, "Return inside a loop's continue chain");
  }
  SECTION("a continue nested in a continue block") {
    testing::ShaderFixture s;
    LoopBlocks loop = ok(s.b.branch_loop(false, true));
    s.b.set_block(loop.condition);
    s.terminate(Opcode::LoopIf, s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(0)}));
    s.b.set_block(loop.body);
    s.terminate(Opcode::Continue);
    s.b.set_block(loop.continue_block);
    IfBlocks inner = ok(s.b.branch_if(s.emit(Opcode::GreaterThan, {s.load(s.x), s.i(1)}), false));
    s.b.set_block(inner.true_block);
    s.terminate(Opcode::Continue);
    s.b.set_block(inner.merge);
    s.terminate(Opcode::Continue);
    s.b.set_block(loop.merge);
    s.terminate(Opcode::Return);
    expect_error(s, "Continue nested");
  }
  SECTION("a dangling register") {
    testing::ShaderFixture s;
    s.store(s.o, s.i(1));
    s.m.function(s.main).block(s.m.function(s.main).entry).instructions.back().operands[1] = RegisterId(9999);
    s.terminate(Opcode::Return);
    expect_error(s, "does not exist");
  }
}

TEST_CASE("target environments by name") {
  CHECK(spirv::target_env_from_string("vulkan1.0") == spirv::TargetEnv::Vulkan1_0);
  CHECK(spirv::target_env_from_string("vulkan1.3") == spirv::TargetEnv::Vulkan1_3);
  CHECK(spirv::target_env_from_string("spv1.3") == spirv::TargetEnv::Spirv1_3);
  CHECK(spirv::target_env_from_string("spirv1.6") == spirv::TargetEnv::Spirv1_6);
  CHECK_FALSE(spirv::target_env_from_string("vulkan2.0").has_value());
  for (spirv::TargetEnv t : testing::all_targets()) CHECK(spirv::target_env_from_string(spirv::to_string(t)) == t);
}

TEST_CASE("without debug names there is no OpName") {
  testing::ShaderFixture s;
  VariableId kept = s.local("kept", s.i(2));
  s.store(s.o, s.emit(Opcode::Add, {s.load(s.x), s.load(kept)}));
  s.terminate(Opcode::Return);
  spirv::Options options;
  CHECK(testing::count_of(testing::emit_checked(s.m, options).text, "OpName") > 0);
  options.debug_names = false;
  options.promote_to_ssa = false;
  const auto e = testing::emit_checked(s.m, options);
  CHECK(testing::count_of(e.text, "OpName") == 0);
  CHECK(testing::count_of(e.text, "OpMemberName") == 0);
}
