// The SPIR-V reader fills the IR's location table (reader_locations.cpp):
// an instruction under an OpLine gets its OpString's file, line and column;
// OpNoLine, the end of a block and a missing OpLine give the instruction's
// own position instead (the input file, line N for the module's N-th
// instruction, as `spirv-dis --no-header` numbers it).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "frontend/spirv/reader.h"
#include "ir/module.h"

using namespace sluice;

namespace {

struct Located {
  ir::Opcode opcode;
  std::string file;
  std::uint32_t line, column;
};

// The entry point's instructions in block-table order, with their locations.
std::vector<Located> located(const ir::Module& m) {
  std::vector<Located> out;
  const ir::Function& f = m.function(m.entry_point());
  for (const ir::Block& b : f.blocks)
    for (const ir::Instruction& inst : b.instructions) {
      if (!inst.location.valid()) {
        out.push_back({inst.opcode, "", 0, 0});
        continue;
      }
      const ir::SourceLocation& l = m.location(inst.location);
      out.push_back({inst.opcode, m.source_files().at(l.file), l.line, l.column});
    }
  return out;
}

ir::Module read(const std::string& text) {
  auto m = spirv_in::read_bytes(text, {"in.spvasm"});
  INFO((m.ok() ? std::string() : m.error()));
  REQUIRE(m.ok());
  return std::move(m).value();
}

const Located* first(const std::vector<Located>& v, ir::Opcode op, std::size_t skip = 0) {
  for (const Located& l : v)
    if (l.opcode == op && skip-- == 0) return &l;
  return nullptr;
}

}  // namespace

TEST_CASE("SPIR-V reader: OpLine gives the location, OpNoLine and the end of a block end it") {
  // Line numbers of the module's instructions (1-based) are in the comments
  // where the test needs them; the assembler keeps one instruction a line.
  const std::string text =
      "OpCapability Shader\n"                             // 1
      "OpMemoryModel Logical GLSL450\n"                   // 2
      "OpEntryPoint Fragment %main \"main\" %out\n"       // 3
      "OpExecutionMode %main OriginUpperLeft\n"           // 4
      "%file = OpString \"shader.frag\"\n"                // 5
      "OpDecorate %out Location 0\n"                      // 6
      "%void = OpTypeVoid\n"                              // 7
      "%fn = OpTypeFunction %void\n"                      // 8
      "%int = OpTypeInt 32 1\n"                           // 9
      "%pout = OpTypePointer Output %int\n"               // 10
      "%out = OpVariable %pout Output\n"                  // 11
      "%i7 = OpConstant %int 7\n"                         // 12
      "%i3 = OpConstant %int 3\n"                         // 13
      "%main = OpFunction %void None %fn\n"               // 14
      "%entry = OpLabel\n"                                // 15
      "OpLine %file 12 5\n"                               // 16
      "%a = OpSDiv %int %i7 %i3\n"                        // 17: shader.frag:12:5
      "OpNoLine\n"                                        // 18
      "%b = OpIMul %int %a %a\n"                          // 19: own position
      "OpLine %file 14 9\n"                               // 20
      "OpBranch %next\n"                                  // 21
      "%next = OpLabel\n"                                 // 22
      "%c = OpISub %int %b %a\n"                          // 23: the OpLine ended with its block
      "OpLine %file 15 2\n"                               // 24
      "%d = OpIAdd %int %c %i3\n"                         // 25: shader.frag:15:2
      "OpStore %out %d\n"                                 // 26: shader.frag:15:2
      "OpReturn\n"                                        // 27
      "OpFunctionEnd\n";
  const ir::Module m = read(text);
  const std::vector<Located> v = located(m);
  auto at = [&](ir::Opcode op) {
    const Located* l = first(v, op);
    REQUIRE(l != nullptr);
    return *l;
  };
  const Located div = at(ir::Opcode::Div), mul = at(ir::Opcode::Mul), sub = at(ir::Opcode::Sub),
                add = at(ir::Opcode::Add);
  // The last Store is OpStore %out (the ones before carry %a and %b to the
  // next block, with their locations).
  const auto store = std::find_if(v.rbegin(), v.rend(), [](const Located& l) { return l.opcode == ir::Opcode::Store; });
  REQUIRE(store != v.rend());
  CHECK((div.file == "shader.frag" && div.line == 12 && div.column == 5));
  CHECK((mul.file == "in.spvasm" && mul.line == 19 && mul.column == 0));
  CHECK((sub.file == "in.spvasm" && sub.line == 23));
  CHECK((add.file == "shader.frag" && add.line == 15 && add.column == 2));
  CHECK((store->file == "shader.frag" && store->line == 15));
}

TEST_CASE("SPIR-V reader: a module whose code is all under OpLines names only its OpString files") {
  const std::string text =
      "OpCapability Shader\n"
      "OpMemoryModel Logical GLSL450\n"
      "OpEntryPoint Fragment %main \"main\" %out\n"
      "OpExecutionMode %main OriginUpperLeft\n"
      "%file = OpString \"a.frag\"\n"
      "OpDecorate %out Location 0\n"
      "%void = OpTypeVoid\n"
      "%fn = OpTypeFunction %void\n"
      "%int = OpTypeInt 32 1\n"
      "%pout = OpTypePointer Output %int\n"
      "%out = OpVariable %pout Output\n"
      "%i7 = OpConstant %int 7\n"
      "%main = OpFunction %void None %fn\n"
      "%entry = OpLabel\n"
      "OpLine %file 3 1\n"
      "%a = OpIMul %int %i7 %i7\n"
      "OpStore %out %a\n"
      "OpReturn\n"
      "OpFunctionEnd\n";
  const ir::Module m = read(text);
  CHECK(m.source_files() == std::vector<std::string>{"a.frag"});
}

TEST_CASE("SPIR-V reader: an OpLine naming no OpString leaves the instruction's own position") {
  // Unvalidated input (a library caller without validate_for) may name any id.
  const std::string text =
      "OpCapability Shader\n"                        // 1
      "OpMemoryModel Logical GLSL450\n"              // 2
      "OpEntryPoint Fragment %main \"main\" %out\n"  // 3
      "OpExecutionMode %main OriginUpperLeft\n"      // 4
      "OpDecorate %out Location 0\n"                 // 5
      "%void = OpTypeVoid\n"                         // 6
      "%fn = OpTypeFunction %void\n"                 // 7
      "%int = OpTypeInt 32 1\n"                      // 8
      "%pout = OpTypePointer Output %int\n"          // 9
      "%out = OpVariable %pout Output\n"             // 10
      "%i7 = OpConstant %int 7\n"                    // 11
      "%main = OpFunction %void None %fn\n"          // 12
      "%entry = OpLabel\n"                           // 13
      "OpLine %int 3 1\n"                            // 14
      "%a = OpIMul %int %i7 %i7\n"                   // 15
      "OpStore %out %a\n"                            // 16
      "OpReturn\n"                                   // 17
      "OpFunctionEnd\n";
  const ir::Module m = read(text);
  const std::vector<Located> v = located(m);
  const Located* mul = first(v, ir::Opcode::Mul);
  REQUIRE(mul != nullptr);
  CHECK((mul->file == "in.spvasm" && mul->line == 15));
}
