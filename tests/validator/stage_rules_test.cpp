// The stage rules (validator/stage_checks.cpp, docs/ir.md "Stages"): each
// test starts from a valid geometry or tessellation control shader, written
// in the IR text form as the GLSL front end makes it, checks that it
// validates, then breaks one rule and expects exactly that rule's message.
#include <string>

#include "ir/dump.h"
#include "ir/parse.h"
#include "validator/validator_test_util.h"

using namespace sluice;
using sluice::testing::require_only_problem;
using sluice::testing::require_valid;

namespace {

// Types t0-t25, the ones every module starts with.
const std::string kPredefinedTypes = R"(  t0: void
  t1: float
  t2: int
  t3: uint
  t4: bool
  t5: Vector of t1[2]
  t6: Vector of t1[3]
  t7: Vector of t1[4]
  t8: Vector of t2[2]
  t9: Vector of t2[3]
  t10: Vector of t2[4]
  t11: Vector of t3[2]
  t12: Vector of t3[3]
  t13: Vector of t3[4]
  t14: Vector of t4[2]
  t15: Vector of t4[3]
  t16: Vector of t4[4]
  t17: Matrix of t5[2]
  t18: Matrix of t6[2]
  t19: Matrix of t7[2]
  t20: Matrix of t5[3]
  t21: Matrix of t6[3]
  t22: Matrix of t7[3]
  t23: Matrix of t5[4]
  t24: Matrix of t6[4]
  t25: Matrix of t7[4]
)";

const std::string kConstants = R"(
Constants:
  c0 (t4): false
  c1 (t4): true
  c2 (t1): 0.0
  c3 (t1): 1.0
  c4 (t2): 0
  c5 (t2): 1
  c6 (t3): 0
  c7 (t3): 1
)";

// layout(points) in; layout(points, max_vertices = 2) out; an output on
// stream 0; EmitStreamVertex(0); EndStreamPrimitive(0).
std::string geometry(const std::string& header = "Geometry Shader\n[Input primitive points]\n[Output primitive "
                                                   "points]\n[Output vertices 2]\n[Invocations 1]\n",
                     const std::string& decorations = "stream=0", const std::string& body =
                         "                   EmitStreamVertex c4\n                   EndStreamPrimitive c4\n") {
  return header + "\nTypes:\n" + kPredefinedTypes + "  t26: Pointer to t1 in Output\n" + kConstants +
         "\nVariables:\n  v0 (t26): '_uv' [highp, output, location=0, " + decorations +
         "]\n\nGlobals: v0\n\nFunctions:\n\n  f0: 'main'() -> t0\n\n    __________________\n"
         "    Entry To Function:\n                   Store v0 c3[highp]\n" +
         body + "                   Return\n";
}

// layout(vertices = 1) out; patch out float p; barrier() at the top level.
const std::string kBarrier = "                   ControlBarrier\n";
// The same barrier inside an if.
const std::string kNestedBarrier =
    "                   If c1\n    |\n    +-> ______________\n    |   If True Block:\n"
    "    |                  ControlBarrier\n    |                  Merge\n    |\n    V___________\n"
    "    Merge Block:\n";

std::string control(const std::string& header = "TessControl Shader\n[Output vertices 1]\n",
                    const std::string& decorations = "patch", const std::string& body = kBarrier) {
  return header + "\nTypes:\n" + kPredefinedTypes + "  t26: Pointer to t1 in Output\n" + kConstants +
         "\nVariables:\n  v0 (t26): '_up' [highp, output, location=0, " + decorations +
         "]\n\nGlobals: v0\n\nFunctions:\n\n  f0: 'main'() -> t0\n\n    __________________\n"
         "    Entry To Function:\n                   Store v0 c3[highp]\n" +
         body + "                   Return\n";
}

const std::string kGeometryHeader =
    "Geometry Shader\n[Input primitive points]\n[Output primitive points]\n[Output vertices 2]\n[Invocations 1]\n";
const std::string kControlHeader = "TessControl Shader\n[Output vertices 1]\n";

ir::Module parse(const std::string& text) {
  ir::ParseResult r = ir::parse_module(text, "stage.ir");
  INFO(text << "\n" << render(r.diagnostics, text));
  REQUIRE(r.module.has_value());
  // The text form keeps every stage attribute and decoration.
  REQUIRE(ir::dump(*r.module) == text);
  return std::move(*r.module);
}

}  // namespace

TEST_CASE("stage rules: the valid shaders validate", "[validator][stages]") {
  require_valid(parse(geometry()));
  require_valid(parse(control()));
  require_valid(parse(geometry(kGeometryHeader, "stream=0", "                   EmitVertex\n                   EndPrimitive\n")));
}

TEST_CASE("stage rules: vertex emission only in geometry shaders", "[validator][stages]") {
  require_only_problem(parse(control(kControlHeader, "patch", "                   EmitVertex\n")),
                       "EmitVertex in a TessControl shader; only geometry shaders emit vertices");
  require_only_problem(
      parse(geometry(kGeometryHeader, "stream=0", "                   EmitStreamVertex c3\n")),
      "EmitStreamVertex's stream must be an int constant");
}

TEST_CASE("stage rules: barrier() at a tessellation control shader's top level", "[validator][stages]") {
  require_only_problem(parse(control(kControlHeader, "patch", kNestedBarrier)),
                       "ControlBarrier in a tessellation control shader outside main's top level (inside control "
                       "flow or another function)");
  require_only_problem(parse(geometry(kGeometryHeader, "stream=0", kBarrier)),
                       "ControlBarrier in a Geometry shader; only compute and tessellation control shaders have "
                       "barrier()");
}

TEST_CASE("stage rules: execution modes per stage", "[validator][stages]") {
  require_only_problem(parse(geometry("Geometry Shader\n[Input primitive points]\n[Output primitive points]\n")),
                       "a Geometry shader without [Output vertices N] (max_vertices)");
  require_only_problem(parse(geometry("Geometry Shader\n[Input primitive quads]\n[Output primitive points]\n"
                                      "[Output vertices 2]\n")),
                       "a Geometry shader's input primitive is quads; it must be points, lines, lines_adjacency, "
                       "triangles or triangles_adjacency");
  require_only_problem(parse(control("TessControl Shader\n")),
                       "a TessControl shader needs [Output vertices N] with N > 0 (layout(vertices = N) out)");
  require_only_problem(parse(control("TessControl Shader\n[Output vertices 1]\n[Invocations 2]\n")),
                       "[Invocations] in a TessControl shader; only geometry shaders have it");
  require_only_problem(parse(control("TessControl Shader\n[Output vertices 1]\n[Point mode]\n")),
                       "tessellation spacing, vertex order or point mode in a TessControl shader; only "
                       "tessellation evaluation shaders have them");
}

TEST_CASE("stage rules: patch and stream variables", "[validator][stages]") {
  require_only_problem(parse(geometry(kGeometryHeader, "patch")),
                       "v0 'v' is patch; only tessellation control outputs and tessellation evaluation inputs are");
  require_only_problem(parse(control(kControlHeader, "stream=1")),
                       "v0 'p' has a stream; only geometry shader outputs have one");
}

TEST_CASE("stage rules: the text form refuses unknown stage attributes", "[ir][stages]") {
  const std::string text = geometry("Geometry Shader\n[Input primitive hexagons]\n");
  const ir::ParseResult r = ir::parse_module(text, "stage.ir");
  REQUIRE_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics.front().message.find("expected a primitive") != std::string::npos);
  CHECK(r.diagnostics.front().line == 2);
}

TEST_CASE("stage rules: built-in names and NVIDIA's decorations", "[validator][stages]") {
  // A viewport-relative gl_Layer with a secondary view offset in a
  // tessellation control shader (GL_NV_viewport_array2,
  // GL_NV_stereo_view_rendering): the text form keeps both, a negative
  // offset included (glslang's GLSL takes only offsets >= 0, SPIR-V's
  // literal any), and the validator takes them on a Layer output.
  const auto layer = [](const std::string& attributes) {
    return kControlHeader + "\nTypes:\n" + kPredefinedTypes + "  t26: Pointer to t2 in Output\n" + kConstants +
           "\nVariables:\n  v0 (t26): 'gl_Layer' [highp, output, " + attributes +
           "]\n\nGlobals: v0\n\nFunctions:\n\n  f0: 'main'() -> t0\n\n    __________________\n"
           "    Entry To Function:\n                   Store v0 c5[highp]\n                   Return\n";
  };
  const ir::Module m = parse(layer("builtin=Layer, viewport_relative, secondary_view_offset=-1"));
  CHECK(*m.variable(ir::VariableId(0)).decorations.secondary_view_offset == -1);
  require_valid(m);
  require_only_problem(parse(control(kControlHeader, "viewport_relative")),
                       "v0 'p' is viewport_relative or has a secondary_view_offset; only a Layer output is");
  require_only_problem(parse(control(kControlHeader, "secondary_view_offset=2")),
                       "v0 'p' is viewport_relative or has a secondary_view_offset; only a Layer output is");
  require_only_problem(parse(control(kControlHeader, "passthrough")),
                       "v0 'p' is passthrough; only geometry shader inputs are");
  require_only_problem(parse(layer("builtin=PositionPerView")),
                       "v0 'gl_Layer' is built-in 'PositionPerView', which the IR does not know (ir/built_in.h)");
  // The offset is a 32-bit signed number.
  const std::string big = control(kControlHeader, "secondary_view_offset=2147483648");
  const ir::ParseResult r = ir::parse_module(big, "stage.ir");
  REQUIRE_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics.front().message == "'secondary_view_offset' needs a 32-bit signed number");
}
