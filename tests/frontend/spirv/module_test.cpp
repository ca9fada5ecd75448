// spirv_in::Module: instructions, ids, functions and blocks of a SPIR-V
// module, and malformed input as ParseError values.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>

#include <spirv-tools/libspirv.hpp>

#include "frontend/spirv/module.h"

using namespace sluice::spirv_in;

namespace {

constexpr const char* kHeader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %loop "loop"
%void = OpTypeVoid
%bool = OpTypeBool
%int = OpTypeInt 32 1
%true = OpConstantTrue %bool
%one = OpConstant %int 1
%fn = OpTypeFunction %void
)";

std::string with_body(const std::string& body) {
  return std::string(kHeader) + "%main = OpFunction %void None %fn\n" + body + "OpFunctionEnd\n";
}

}  // namespace

TEST_CASE("module: blocks, merges and successors") {
  const ParseResult r = parse_assembly(with_body(R"(
%entry = OpLabel
OpBranch %loop
%loop = OpLabel
OpLoopMerge %merge %cont None
OpBranchConditional %true %body %merge
%body = OpLabel
OpSelectionMerge %cont None
OpSwitch %one %cont 1 %cont 7 %c7
%c7 = OpLabel
OpBranch %cont
%cont = OpLabel
OpBranch %loop
%merge = OpLabel
OpReturn
)"));
  REQUIRE(r.ok());
  const Module& m = r.value();
  REQUIRE(m.functions.size() == 1);
  const Function& f = m.functions[0];
  REQUIRE(f.blocks.size() == 6);
  CHECK(m.name(f.id) == "main");
  CHECK(m.describe(f.blocks[1].label) == "%" + std::to_string(f.blocks[1].label) + " (loop)");
  const Block& loop = f.blocks[1];
  CHECK(loop.merge_kind == MergeKind::Loop);
  CHECK(loop.merge_block == 5);
  CHECK(loop.continue_target == 4);
  CHECK(loop.successors == std::vector<BlockIndex>{2, 5});
  const Block& body = f.blocks[2];
  CHECK(body.merge_kind == MergeKind::Selection);
  CHECK(body.successors == std::vector<BlockIndex>{4, 4, 3});
  CHECK(body.case_literals == std::vector<std::uint64_t>{1, 7});
  CHECK(m.instructions[body.terminator].opcode == spv::Op::OpSwitch);
  CHECK(f.blocks[5].successors.empty());
  // Operand kinds tell ids, literals and strings apart.
  const Instruction& name = *std::find_if(m.instructions.begin(), m.instructions.end(),
                                          [](const Instruction& i) { return i.opcode == spv::Op::OpName; });
  REQUIRE(name.operands.size() == 2);
  CHECK(name.operands[0].cls == OperandClass::IdRef);
  CHECK(name.operands[1].cls == OperandClass::String);
  CHECK(name.operand_string(1) == "main");
  const Instruction* one = m.definition(m.instructions[body.terminator].operand_word(0));
  REQUIRE(one);
  CHECK(one->opcode == spv::Op::OpConstant);
  CHECK(one->operands[2].cls == OperandClass::Number);
  CHECK(one->operands[0].cls == OperandClass::TypeId);
  CHECK(one->operands[1].cls == OperandClass::ResultId);
}

TEST_CASE("module: malformed input is an error value") {
  SECTION("assembly that does not assemble") {
    const ParseResult r = parse_assembly("OpCapability Shader\n%x = OpBogus\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().line == 2);
  }
  SECTION("block without terminator") {
    const ParseResult r = parse_assembly(with_body("%a = OpLabel\n%b = OpLabel\nOpReturn\n"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("no terminator") != std::string::npos);
  }
  SECTION("instruction outside a function") {
    const ParseResult r = parse_assembly(std::string(kHeader) + "OpReturn\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("outside a function") != std::string::npos);
  }
  SECTION("branch to an id that is no block") {
    const ParseResult r = parse_assembly(with_body("%a = OpLabel\nOpBranch %one\n"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("no block") != std::string::npos);
  }
  SECTION("merge not before the terminator") {
    const ParseResult r =
        parse_assembly(with_body("%a = OpLabel\nOpSelectionMerge %a None\n%x = OpIAdd %int %one %one\nOpReturn\n"));
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("immediately precede") != std::string::npos);
  }
  SECTION("binaries: truncated, ids beyond the bound, swapped byte order") {
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::vector<std::uint32_t> words;
    REQUIRE(tools.Assemble(with_body("%a = OpLabel\nOpReturn\n"), &words));
    REQUIRE(parse_binary(words).ok());
    std::vector<std::uint32_t> truncated(words.begin(), words.end() - 3);
    const ParseResult t = parse_binary(truncated);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().word_offset != kNone);
    std::vector<std::uint32_t> low_bound = words;
    low_bound[3] = 3;  // the header's id bound
    const ParseResult b = parse_binary(low_bound);
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.find("bound") != std::string::npos);
    std::string bytes(words.size() * 4, '\0');
    for (std::size_t i = 0; i < words.size(); ++i)
      for (int k = 0; k < 4; ++k) bytes[4 * i + k] = static_cast<char>(words[i] >> (8 * (3 - k)));
    const ParseResult swapped = parse_bytes(bytes);
    REQUIRE(swapped.ok());
    CHECK(swapped.value().functions.size() == 1);
    CHECK_FALSE(parse_bytes(bytes.substr(0, bytes.size() - 2)).ok());
    CHECK_FALSE(parse_binary({}).ok());
  }
}
