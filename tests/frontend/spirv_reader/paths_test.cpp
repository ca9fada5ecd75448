// The control flow the SPIR-V reader rebuilds takes the path the input
// takes: each shape below adds its own bit (in loops, a digit) to `acc` in
// every block it passes, its conditions are bits of the input `n`, and for
// every n in 0..15 (every combination, so each branch goes both ways) the
// input module, Sluice's SPIR-V from it and Sluice's GLSL from it (compiled by
// glslang) must write the same `color` in the SPIR-V interpreter of the
// output tests (tests/output/spirv/spirv_interpreter.h), which follows the
// input's branches as they are. The shapes are the premerges and loop-header
// branches of reader_control.cpp (control_flow_test.cpp checks their IR text;
// lavapipe runs the ones Mesa 22.3 accepts: tests/tools/xcheck_spirv/premerge.spvasm).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/module.h"
#include "frontend/spirv/reader.h"
#include "output/glsl/glsl_output.h"
#include "output/spirv/spirv_output.h"
#include "spirv_interpreter.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

const std::string kHeader = R"(
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out %in
OpExecutionMode %main OriginUpperLeft
OpName %out "color"
OpName %in "n"
OpDecorate %out Location 0
OpDecorate %in Location 0
OpDecorate %in Flat
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%float = OpTypeFloat 32
%v4 = OpTypeVector %float 4
%pout = OpTypePointer Output %v4
%pin = OpTypePointer Input %int
%pint = OpTypePointer Function %int
%out = OpVariable %pout Output
%in = OpVariable %pin Input
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i3 = OpConstant %int 3
%i4 = OpConstant %int 4
%k8 = OpConstant %int 8
%k16 = OpConstant %int 16
%k32 = OpConstant %int 32
%k64 = OpConstant %int 64
%k128 = OpConstant %int 128
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%acc = OpVariable %pint Function %i0
%n = OpLoad %int %in
%n0 = OpBitwiseAnd %int %n %i1
%c0 = OpINotEqual %bool %n0 %i0
%n1 = OpBitwiseAnd %int %n %i2
%c1 = OpINotEqual %bool %n1 %i0
%n2 = OpBitwiseAnd %int %n %i4
%c2 = OpINotEqual %bool %n2 %i0
%n3 = OpBitwiseAnd %int %n %k8
%c3 = OpINotEqual %bool %n3 %i0
)";

// `color` = (float(acc), 0, 0, 1), then return.
const std::string kWrite = R"(
%accv = OpLoad %int %acc
%accf = OpConvertSToF %float %accv
%col = OpCompositeConstruct %v4 %accf %accf %accf %f1
OpStore %out %col
OpReturn
)";
const std::string kEnd = "%end = OpLabel" + kWrite + "OpFunctionEnd\n";

// acc = acc * mul + add, in a block named `tag`: instruction ids from tag.
std::string step(const std::string& tag, const std::string& mul, const std::string& add) {
  return "%" + tag + "l = OpLoad %int %acc\n%" + tag + "m = OpIMul %int %" + tag + "l %" + mul + "\n%" + tag +
         "s = OpIAdd %int %" + tag + "m %" + add + "\nOpStore %acc %" + tag + "s\n";
}
std::string add(const std::string& tag, const std::string& bit) { return step(tag, "i1", bit); }

// Bit k of n >> i (a loop's per-iteration condition), as %tag.
std::string bit_of(const std::string& tag, const std::string& i, const std::string& k) {
  return "%" + tag + "s = OpShiftRightArithmetic %int %n %" + i + "\n%" + tag + "a = OpBitwiseAnd %int %" + tag + "s %" +
         k + "\n%" + tag + " = OpINotEqual %bool %" + tag + "a %i0\n";
}

std::vector<std::uint32_t> run_color(const std::vector<std::uint32_t>& words, int n, const std::string& what) {
  const auto r = testing::run_spirv(words, {{"n", {static_cast<std::uint32_t>(n)}}});
  INFO(what << ", n = " << n << ": " << r.error);
  REQUIRE(r.ok);
  REQUIRE(r.outputs.count("color"));
  return r.outputs.at("color");
}

// Runs the three ways for n = 0..15; returns how many different colours the
// input wrote (how many different paths were taken, at least).
std::size_t same_paths(const std::string& body) {
  const std::string text = kHeader + body;
  INFO(text);
  const auto input = spirv_in::parse_assembly(text);
  REQUIRE(input.ok());
  auto m = spirv_in::read(input.value());
  INFO((m ? std::string() : m.error()));
  REQUIRE(m.ok());
  REQUIRE(validator::validate(*m).empty());
  auto sluice_spirv = spirv::emit(*m);
  REQUIRE(sluice_spirv.ok());
  CHECK(spirv::validate(*sluice_spirv, spirv::TargetEnv::Vulkan1_0).empty());
  auto glsl = glsl_out::emit(*m, {});
  REQUIRE(glsl.ok());
  INFO(*glsl);
  auto glslang_spirv = exec::compile_glsl(*glsl, exec::ShaderStage::Fragment);
  INFO((glslang_spirv ? std::string() : glslang_spirv.error()));
  REQUIRE(glslang_spirv.ok());
  std::set<std::vector<std::uint32_t>> colours;
  for (int n = 0; n < 16; ++n) {
    const auto want = run_color(input.value().binary, n, "input");
    CHECK(run_color(*sluice_spirv, n, "Sluice's SPIR-V") == want);
    CHECK(run_color(*glslang_spirv, n, "Sluice's GLSL") == want);
    colours.insert(want);
  }
  return colours.size();
}

}  // namespace

TEST_CASE("premerge paths: a then-arm going on to the else target") {
  CHECK(same_paths("OpSelectionMerge %m None\nOpBranchConditional %c0 %t %q\n%t = OpLabel\n" + add("t", "i1") +
                   "OpBranch %q\n%q = OpLabel\n" + add("q", "i2") + "OpBranch %m\n%m = OpLabel\n" + add("m", "i4") +
                   "OpBranch %end\n" + kEnd) == 2);
}

TEST_CASE("premerge paths: both arms meeting, a value through the premerge's OpPhi") {
  CHECK(same_paths("OpSelectionMerge %m None\nOpBranchConditional %c1 %t %e\n%t = OpLabel\n" + add("t", "i1") +
                   "%v = OpIAdd %int %n %k16\nOpBranch %q\n%e = OpLabel\n" + add("e", "i2") +
                   "OpBranch %q\n%q = OpLabel\n%p = OpPhi %int %v %t %k32 %e\n" + add("q", "p") +
                   "OpBranch %m\n%m = OpLabel\n" + add("m", "n") + "OpBranch %end\n" + kEnd) >= 2);
}

TEST_CASE("premerge paths: an else-arm going on to the then target") {
  CHECK(same_paths("OpSelectionMerge %m None\nOpBranchConditional %c2 %t %e\n%e = OpLabel\n" + add("e", "i1") +
                   "OpBranch %t\n%t = OpLabel\n" + add("t", "i2") + "OpBranch %q\n%q = OpLabel\n" + add("q", "i4") +
                   "OpBranch %m\n%m = OpLabel\n" + add("m", "k8") + "OpBranch %end\n" + kEnd) == 2);
}

TEST_CASE("premerge paths: arms leaving for the merge past the premerge, in a loop (the flag is reset)") {
  // Per iteration i (two): acc *= 128, then the six paths of
  // IfBreak_FromThenWithForward_FromElseWithForward_AlsoPremerge, its
  // conditions bits i, i+1 and i+2 of n.
  const std::string body = "OpBranch %h\n%h = OpLabel\n%i = OpPhi %int %i0 %entry %inext %c\nOpLoopMerge %lm %c None\n"
                           "OpBranch %body\n%body = OpLabel\n" + step("bo", "k128", "i0") +
                           "%i1p = OpIAdd %int %i %i1\n%i2p = OpIAdd %int %i %i2\n" + bit_of("ca", "i", "i1") +
                           bit_of("cb", "i1p", "i1") + bit_of("cc", "i2p", "i1") +
                           "OpSelectionMerge %m None\nOpBranchConditional %ca %a %b\n"
                           "%a = OpLabel\n" + add("a", "i1") + "OpBranchConditional %cb %a2 %m\n"
                           "%a2 = OpLabel\n" + add("a2", "i2") + "OpBranch %q\n"
                           "%b = OpLabel\n" + add("b", "i4") + "OpBranchConditional %cb %m %b2\n"
                           "%b2 = OpLabel\n" + add("b2", "k8") + "OpBranch %q\n"
                           "%q = OpLabel\n" + add("q", "k16") + "OpBranchConditional %cc %q2 %m\n"
                           "%q2 = OpLabel\n" + add("q2", "k32") + "OpBranch %m\n"
                           "%m = OpLabel\n" + add("m", "k64") + "OpBranch %c\n"
                           "%c = OpLabel\n%inext = OpIAdd %int %i %i1\n%more = OpSLessThan %bool %inext %i2\n"
                           "OpBranchConditional %more %h %lm\n%lm = OpLabel\nOpBranch %end\n" + kEnd;
  CHECK(same_paths(body) >= 6);
}

TEST_CASE("premerge paths: a loop header branching into its body, arms meeting or continuing early") {
  const std::string body = "OpBranch %h\n%h = OpLabel\n%i = OpPhi %int %i0 %entry %inext %c\n" +
                           bit_of("ch", "i", "i1") + "%i2p = OpIAdd %int %i %i2\n" + bit_of("cb", "i2p", "i1") +
                           "OpLoopMerge %lm %c None\nOpBranchConditional %ch %a %b\n"
                           "%a = OpLabel\n" + step("a", "i4", "i1") + "OpBranch %q\n"
                           "%b = OpLabel\n" + step("b", "i4", "i2") + "OpBranchConditional %cb %q %c\n"
                           "%q = OpLabel\n" + step("q", "i4", "i3") + "OpBranch %c\n"
                           "%c = OpLabel\n%inext = OpIAdd %int %i %i1\n%more = OpSLessThan %bool %inext %i2\n"
                           "OpBranchConditional %more %h %lm\n%lm = OpLabel\nOpBranch %end\n" + kEnd;
  CHECK(same_paths(body) >= 3);
}

TEST_CASE("premerge paths: a loop header branching into its body, both arms breaking or both continuing") {
  CHECK(same_paths("OpBranch %h\n%h = OpLabel\nOpLoopMerge %lm %c None\nOpBranchConditional %c0 %a %b\n"
                   "%a = OpLabel\n" + add("a", "i1") + "OpBranch %lm\n%b = OpLabel\n" + add("b", "i2") +
                   "OpBranch %lm\n%c = OpLabel\nOpBranch %h\n%lm = OpLabel\nOpBranch %end\n" + kEnd) == 2);
  CHECK(same_paths("OpBranch %h\n%h = OpLabel\n%i = OpPhi %int %i0 %entry %inext %c\n" + bit_of("ch", "i", "i1") +
                   "OpLoopMerge %lm %c None\nOpBranchConditional %ch %a %b\n"
                   "%a = OpLabel\n" + step("a", "i4", "i1") + "OpBranch %c\n%b = OpLabel\n" + step("b", "i4", "i2") +
                   "OpBranch %c\n%c = OpLabel\n%inext = OpIAdd %int %i %i1\n%more = OpSLessThan %bool %inext %i3\n"
                   "OpBranchConditional %more %h %lm\n%lm = OpLabel\nOpBranch %end\n" + kEnd) == 8);
}

TEST_CASE("premerge paths: a premerge that returns before an unreachable merge") {
  CHECK(same_paths("OpSelectionMerge %m None\nOpBranchConditional %c3 %t %q\n%q = OpLabel\n" + add("q", "i2") +
                   kWrite + "%t = OpLabel\n" + add("t", "i1") + "OpBranch %q\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n") ==
        2);
}

TEST_CASE("premerge paths: a selection header branching to one block twice") {
  // Valid before SPIR-V 1.6 (SPIRV-Cross's degenerate-selection-constructs).
  CHECK(same_paths("OpSelectionMerge %m None\nOpBranchConditional %c0 %a %a\n%a = OpLabel\n" + add("a", "i1") +
                   "OpBranchConditional %c1 %b %m\n%b = OpLabel\n" + add("b", "i2") + "OpBranch %m\n%m = OpLabel\n" +
                   add("m", "i4") + "OpBranch %end\n" + kEnd) == 2);
}
