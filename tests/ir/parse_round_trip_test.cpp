// The parser reads back what the dump writes: dump(parse(dump(m))) ==
// dump(m) byte for byte, and the parsed module has the same tables and
// block trees as the built one.
#include <catch2/catch.hpp>

#include "all_constructs.h"
#include "golden_file.h"
#include "ir/dump.h"
#include "ir/parse.h"
#include "ir/traversal.h"

using namespace sluice;
using namespace sluice::ir;

namespace {

Module parse_or_fail(const std::string& text, const char* file_name) {
  ParseResult r = parse_module(text, file_name);
  INFO(render(r.diagnostics, text));
  REQUIRE(r.ok());
  REQUIRE(r.diagnostics.empty());
  return std::move(*r.module);
}

// One block as a comparable value: everything but the ids of sub-blocks.
struct BlockShape {
  BlockKind kind;
  std::uint32_t depth;
  std::vector<VariableId> declarations;
  RegisterId merge_input;
  std::vector<SwitchCase> cases;
  std::vector<std::tuple<Opcode, std::uint16_t, RegisterId, std::vector<Operand>>> instructions;
  friend bool operator==(const BlockShape&, const BlockShape&) = default;
};

std::vector<BlockShape> shape(const Function& f) {
  std::vector<BlockShape> out;
  visit(f, [&](const BlockVisit& v, const Block& b) {
    BlockShape s{v.kind, v.depth, b.declarations, b.merge_input, b.cases, {}};
    for (const Instruction& inst : b.instructions)
      s.instructions.emplace_back(inst.opcode, inst.aux, inst.result,
                                  std::vector<Operand>(inst.operands.begin(), inst.operands.end()));
    out.push_back(std::move(s));
    return VisitAction::VisitSubBlocks;
  });
  return out;
}

// The parsed module holds what the built one holds, table by table.
void check_same_module(const Module& built, const Module& parsed) {
  CHECK(parsed.shader() == built.shader());
  REQUIRE(parsed.type_count() == built.type_count());
  for (std::uint32_t i = 0; i < built.type_count(); ++i) CHECK(parsed.type(TypeId(i)) == built.type(TypeId(i)));
  REQUIRE(parsed.constant_count() == built.constant_count());
  for (std::uint32_t i = 0; i < built.constant_count(); ++i)
    CHECK(parsed.constant(ConstantId(i)) == built.constant(ConstantId(i)));
  REQUIRE(parsed.variable_count() == built.variable_count());
  for (std::uint32_t i = 0; i < built.variable_count(); ++i) {
    const Variable& a = built.variable(VariableId(i));
    const Variable& b = parsed.variable(VariableId(i));
    CHECK(b.name == a.name);
    CHECK(b.type == a.type);
    CHECK(b.precision == a.precision);
    CHECK(b.decorations == a.decorations);
    CHECK(b.initializer == a.initializer);
  }
  CHECK(parsed.globals() == built.globals());
  REQUIRE(parsed.register_count() == built.register_count());
  for (std::uint32_t i = 0; i < built.register_count(); ++i) {
    CHECK(parsed.reg(RegisterId(i)).type == built.reg(RegisterId(i)).type);
    CHECK(parsed.reg(RegisterId(i)).precision == built.reg(RegisterId(i)).precision);
  }
  REQUIRE(parsed.function_count() == built.function_count());
  for (std::uint32_t i = 0; i < built.function_count(); ++i) {
    const Function& a = built.function(FunctionId(i));
    const Function& b = parsed.function(FunctionId(i));
    CHECK(b.name.text == a.name.text);
    CHECK(b.return_type == a.return_type);
    CHECK(b.return_precision == a.return_precision);
    REQUIRE(b.params.size() == a.params.size());
    for (std::size_t p = 0; p < a.params.size(); ++p) {
      CHECK(b.params[p].variable == a.params[p].variable);
      CHECK(b.params[p].direction == a.params[p].direction);
    }
    CHECK(shape(b) == shape(a));
  }
}

}  // namespace

TEST_CASE("the ANGLE example reads back to the same dump and module") {
  const Module built = testing::build_angle_example();
  const std::string text = dump(built);
  const Module parsed = parse_or_fail(text, "angle_example.ir");
  CHECK(dump(parsed) == text);
  check_same_module(built, parsed);
}

TEST_CASE("examples/angle_example.ir reads back byte for byte") {
  const std::string text = testing::read_file(std::string(SLUICE_EXAMPLES_DIR) + "/angle_example.ir");
  REQUIRE(!text.empty());
  CHECK(dump(parse_or_fail(text, "examples/angle_example.ir")) == text);
}

TEST_CASE("a module using every construct dumps as its golden and reads back") {
  const Module built = testing::build_all_constructs();
  const std::string text = dump(built);
  testing::check_golden("all_constructs.ir", text);
  const Module parsed = parse_or_fail(text, "all_constructs.ir");
  CHECK(dump(parsed) == text);
  check_same_module(built, parsed);
}

TEST_CASE("a compute shader with shared memory and a uint switch reads back") {
  const Module built = testing::build_compute_module();
  const std::string text = dump(built);
  const Module parsed = parse_or_fail(text, "compute.ir");
  CHECK(dump(parsed) == text);
  check_same_module(built, parsed);
}

TEST_CASE("registers defined after their first mention in the text keep their ids") {
  // In the ANGLE example r2 (the continue block's increment) prints after
  // r3..r11 of the loop body.
  const Module built = testing::build_angle_example();
  const std::string text = dump(built);
  REQUIRE(text.find("r2   (t2)") > text.find("r11   (t5)"));
  const Module parsed = parse_or_fail(text, "angle_example.ir");
  REQUIRE(parsed.register_count() == built.register_count());
  CHECK(parsed.reg(RegisterId(2)).type == predefined::kInt);
  CHECK(parsed.reg(RegisterId(2)).precision == Precision::Medium);
}

TEST_CASE("the parser is lenient where the dump is redundant") {
  const std::string text = dump(testing::build_angle_example());
  std::string edited = text;
  // Context precisions of constants are re-derived, whatever they say.
  const std::string with_context = "LessThan r0 c9[mediump]";
  REQUIRE(edited.find(with_context) != std::string::npos);
  edited.replace(edited.find(with_context), with_context.size(), "LessThan r0 c9[highp]");
  // Blank lines and Windows line ends carry no meaning.
  std::string crlf;
  for (char ch : edited) {
    if (ch == '\n') crlf += "\r\n\r\n";
    else crlf += ch;
  }
  CHECK(dump(parse_or_fail(crlf, "crlf.ir")) == text);
}

TEST_CASE("a struct member's precision dumps, reads back and tells types apart") {
  using namespace ir::predefined;
  Module built(ShaderStage::Fragment);
  StructMember relaxed{"scale", kFloat, 0u, MatrixLayout::Default, {}, {}, {}, Precision::Medium};
  StructMember low{"bias", kVec4, {}, MatrixLayout::Default, {}, {}, {}, Precision::Low};
  StructMember plain{"flag", kBool, {}, MatrixLayout::Default, {}, {}, {}, Precision::None};  // bools have none
  const TypeId block = built.intern(Type::make_struct("Params", {relaxed, low, plain}, true, BlockLayout::Std140));
  Builder b(built);
  b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform, Precision::None);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  testing::must(b.terminate(Opcode::Return));

  const std::string text = dump(built);
  CHECK(text.find("t1 'scale' [mediump, offset=0], t7 'bias' [lowp], t4 'flag'}") != std::string::npos);
  const Module parsed = parse_or_fail(text, "member_precision.ir");
  CHECK(dump(parsed) == text);
  check_same_module(built, parsed);
  CHECK(parsed.type(block).members[0].precision == Precision::Medium);
  CHECK(parsed.type(block).members[1].precision == Precision::Low);
  CHECK(parsed.type(block).members[2].precision == Precision::None);

  // The precision is part of the type: the same struct with a highp member
  // is another type, with another hash.
  Type highp_twin = built.type(block);
  highp_twin.members[0].precision = Precision::High;
  CHECK(hash_value(highp_twin) != hash_value(built.type(block)));
  CHECK(built.intern(highp_twin) != block);
}

TEST_CASE("a member precision the parser does not know is an error") {
  Module built(ShaderStage::Fragment);
  built.intern(Type::make_struct("S", {StructMember{"x", predefined::kFloat, {}, MatrixLayout::Default, {}, {}, {}, Precision::None}}));
  const std::string text = dump(built);
  const std::string member = "t1 'x'}";
  REQUIRE(text.find(member) != std::string::npos);
  std::string edited = text;
  edited.replace(edited.find(member), member.size(), "t1 'x' [mediump=2]}");
  const ParseResult r = parse_module(edited, "bad.ir");
  CHECK_FALSE(r.ok());
  CHECK(render(r.diagnostics, edited).find("unknown member attribute 'mediump'") != std::string::npos);
}
