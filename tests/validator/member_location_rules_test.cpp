// Block members with their own locations (docs/ir.md, "Types"): Vulkan's
// VUID-StandaloneSpirv-Location-04918 and 04919, which spirv-val checks as
// "Members cannot be assigned a location" and "... must be decorated with
// a location": a block's members have locations all or none, and a
// variable of a block whose members have them has none itself. Each test
// starts from a valid tessellation control shader in the IR text form, as
// the GLSL front end makes spv.450.tesc's `bn` block, and breaks one rule.
#include <string>

#include "ir/dump.h"
#include "ir/parse.h"
#include "validator/validator_test_util.h"

using namespace sluice;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;

namespace {

// layout(vertices = 1) out; layout(location = 20) patch out bn { vec4 v1;
// layout(location = 24) vec4 v2; vec4 v3; }; with `members` as the
// struct's member list and `decorations` the variable's.
std::string control(const std::string& members, const std::string& decorations,
                    const std::string& struct_attributes = " [block]") {
  const std::string text =
      std::string("TessControl Shader\n[Output vertices 1]\n\nTypes:\n") + sluice::testing::kStandardTypesText +
      "  t26: Struct 'bn'" + struct_attributes + " {" + members + "}\n  t27: Pointer to t26 in Output\n" +
      sluice::testing::kStandardConstantsText +
      "\nVariables:\n  v0 (t27): 'bn' [output, " + decorations +
      "patch]\n\nGlobals: v0\n\nFunctions:\n\n  f0: 'main'() -> t0\n\n    __________________\n"
      "    Entry To Function:\n                   Return\n";
  return text;
}

const std::string kMembers = "t7 'v1' [location=20], t7 'v2' [location=24], t7 'v3' [location=25]";

ir::Module parse(const std::string& text) {
  ir::ParseResult r = ir::parse_module(text, "members.ir");
  INFO(text << "\n" << render(r.diagnostics, text));
  REQUIRE(r.module.has_value());
  // The text form keeps the members' locations.
  REQUIRE(ir::dump(*r.module) == text);
  return std::move(*r.module);
}

}  // namespace

TEST_CASE("member locations: every member has one, the variable none", "[validator][stages]") {
  const ir::Module m = parse(control(kMembers, ""));
  require_valid(m);
  const ir::Type& block = m.type(ir::TypeId(26));
  REQUIRE(block.members.size() == 3);
  CHECK(block.members[1].location == 24u);
}

TEST_CASE("member locations: all members or none", "[validator][stages]") {
  const ir::Module m = parse(control("t7 'v1' [location=20], t7 'v2', t7 'v3' [location=25]", ""));
  require_only_problem(m, "t26: member 'v2' lacks a location but member 'v1' has: a block's members have locations "
                          "all or none");
}

TEST_CASE("member locations: not with the variable's location", "[validator][stages]") {
  const ir::Module m = parse(control(kMembers, "location=20, "));
  require_only_problem(m, "v0: has location=20 but its block's members have their own locations");
}

TEST_CASE("member locations: only on blocks", "[validator][stages]") {
  const ir::Module m = parse(control("t7 'v1' [location=20]", "", ""));
  const auto problems = validator::validate(m);
  bool found = false;
  for (const auto& p : problems) found |= p.message == "t26: member 'v1' has a location but the struct is not a block";
  INFO(testing::all_problems(m, problems));
  CHECK(found);
}
