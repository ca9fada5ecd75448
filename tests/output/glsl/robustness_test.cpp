// Bad input gives an error value, never a crash: random IR trees (the SPIR-V
// output tests' generator) with random damage — dangling ids, other opcodes,
// lost terminators, misplaced sub-blocks and merge blocks, retyped
// registers, wrong results — are emitted in every version and flavour.

#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "random_ir.h"

using namespace sluice;
using namespace sluice::ir;

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
  Instruction* inst = b.instructions.empty() ? nullptr : &b.instructions[d.below(static_cast<std::uint32_t>(b.instructions.size()))];
  switch (d.below(8)) {
    case 0:
      if (inst && !inst->operands.empty()) {
        Operand& o = inst->operands[d.below(static_cast<std::uint32_t>(inst->operands.size()))];
        switch (d.below(5)) {
          case 0: o = RegisterId(d.below(static_cast<std::uint32_t>(m.register_count() + 3))); break;
          case 1: o = ConstantId(d.below(static_cast<std::uint32_t>(m.constant_count() + 3))); break;
          case 2: o = VariableId(d.below(static_cast<std::uint32_t>(m.variable_count() + 3))); break;
          case 3: o = FunctionId(d.below(3)); break;
          default: o = Operand::literal(d.below(9)); break;
        }
      }
      break;
    case 1:
      if (inst) inst->opcode = static_cast<Opcode>(d.below(static_cast<std::uint32_t>(ir::kOpcodeCount) + 2));
      break;
    case 2:
      if (inst) b.instructions.pop_back();
      break;
    case 3: b.merge = BlockId(d.below(static_cast<std::uint32_t>(f.blocks.size() + 2))); break;
    case 4: b.sub_blocks_storage[d.below(3)] = BlockId(d.below(static_cast<std::uint32_t>(f.blocks.size() + 2))); break;
    case 5:
      m.reg(RegisterId(d.below(static_cast<std::uint32_t>(m.register_count())))).type =
          TypeId(d.below(static_cast<std::uint32_t>(m.type_count() + 2)));
      break;
    case 6:
      if (inst) inst->result = RegisterId(d.below(static_cast<std::uint32_t>(m.register_count() + 2)));
      break;
    default:
      if (inst) inst->aux = static_cast<std::uint16_t>(d.below(256));
      break;
  }
}

}  // namespace

TEST_CASE("damaged trees give an error or text, never a crash") {
  std::size_t errors = 0, texts = 0;
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    Module m = testing::random_ir(seed, testing::RandomIrOptions{60, 5, 2});
    Damage d{seed};
    const std::uint32_t hits = 1 + d.below(3);
    for (std::uint32_t k = 0; k < hits; ++k) damage(m, d);
    for (const auto& options : {testing::vulkan_450(), testing::opengl_es()}) {
      const auto result = glsl_out::emit(m, options);
      if (result.ok()) {
        ++texts;
      } else {
        ++errors;
        CHECK_FALSE(result.error().empty());
      }
    }
  }
  WARN(errors << " errors, " << texts << " texts");
  CHECK(errors > 0);
  CHECK(errors + texts == 800);
}

