// The SPIR-V reader on hand-written control-flow shapes (SPIR-V assembly):
// each reads into valid IR of the expected shape, and Sluice's SPIR-V from it
// passes spirv-val; unstructured and non-Shader input is refused with a
// message naming the instruction, malformed input never crashes.
#include <catch2/catch.hpp>

#include <string>

#include "frontend/spirv/reader.h"
#include "ir/dump.h"
#include "output/spirv/spirv_output.h"
#include "read_checked.h"
#include "validator/validator.h"

using namespace sluice;

namespace {

const std::string kHeader = R"(
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out %in
OpExecutionMode %main OriginUpperLeft
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
%out = OpVariable %pout Output
%in = OpVariable %pin Input
%i0 = OpConstant %int 0
%i1 = OpConstant %int 1
%i2 = OpConstant %int 2
%i10 = OpConstant %int 10
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%true = OpConstantTrue %bool
%v0 = OpConstantComposite %v4 %f0 %f0 %f0 %f1
%main = OpFunction %void None %fn
%entry = OpLabel
%n = OpLoad %int %in
)";

// Reads, validates the IR and Sluice's SPIR-V; returns the IR dump.
std::string read_ok(const std::string& body) { return ir::dump(testing::read_checked(kHeader + body, "test.spvasm")); }

// The IR text of the function, from its entry block on.
std::string function_ir(const std::string& dump) {
  const auto at = dump.find("    Entry To Function:");
  return at == std::string::npos ? dump : dump.substr(at);
}

std::string read_error(const std::string& text) {
  auto m = spirv_in::read_bytes(text, {"test.spvasm"});
  REQUIRE(!m.ok());
  return m.error();
}

}  // namespace

TEST_CASE("a loop whose values are OpPhis reads as a Loop with variables") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %c
%acc = OpPhi %float %f0 %entry %accnext %c
OpLoopMerge %m %c None
OpBranch %cond
%cond = OpLabel
%lt = OpSLessThan %bool %i %n
OpBranchConditional %lt %body %m
%body = OpLabel
%accnext = OpFAdd %float %acc %f1
OpBranch %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
OpBranch %h
%m = OpLabel
%v = OpCompositeConstruct %v4 %acc %acc %acc %f1
OpStore %out %v
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("Loop") != std::string::npos);
  CHECK(dump.find("Loop Continue Block:") != std::string::npos);
}

TEST_CASE("a conditional back edge to the header or the merge reads as a DoLoop") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %c
OpLoopMerge %m %c None
OpBranch %body
%body = OpLabel
OpBranch %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
%lt = OpSLessThan %bool %inext %n
OpBranchConditional %lt %h %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("DoLoop") != std::string::npos);
  CHECK(dump.find("LoopIf") != std::string::npos);
}

TEST_CASE("a loop that is its own continue target reads as a DoLoop") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %h
%inext = OpIAdd %int %i %i1
%lt = OpSLessThan %bool %inext %n
OpLoopMerge %m %h None
OpBranchConditional %lt %h %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("DoLoop") != std::string::npos);
}

TEST_CASE("a loop that is its own continue target over several blocks reads as a DoLoop") {
  // The continue construct is the whole loop (Tint's reader samples,
  // Loop_MultiBlockContinueIsEntireLoop): the condition chain runs from the
  // header to the back-edge block %b.
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %b
OpLoopMerge %m %h None
OpBranch %b
%b = OpLabel
%inext = OpIAdd %int %i %i1
%lt = OpSLessThan %bool %inext %n
OpBranchConditional %lt %h %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("DoLoop") != std::string::npos);
  CHECK(dump.find("LoopIf") != std::string::npos);
}

TEST_CASE("a loop header branching conditionally to one block twice goes on to it") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%c0 = OpSLessThan %bool %n %i2
OpLoopMerge %m %c None
OpBranchConditional %c0 %body %body
%body = OpLabel
OpStore %out %v0
OpBranch %m
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("Store") != std::string::npos);
}

TEST_CASE("switch cases that fall through read as Passthrough, in fall-through order") {
  const std::string dump = read_ok(R"(
OpSelectionMerge %m None
OpSwitch %n %d 0 %a 1 %b 2 %d
%d = OpLabel
OpStore %out %v0
OpBranch %m
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %d
%m = OpLabel
OpReturn
OpFunctionEnd
)" + std::string(""));
  CHECK(dump.find("Passthrough") != std::string::npos);
}

TEST_CASE("a break out of a loop from inside a switch goes through a flag") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
OpLoopMerge %m %c None
OpBranch %body
%body = OpLabel
OpSelectionMerge %sm None
OpSwitch %n %sm 1 %case1
%case1 = OpLabel
OpBranch %m
%sm = OpLabel
OpBranch %c
%c = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("break_loop") != std::string::npos);
}

TEST_CASE("a conditional branch without merge whose one target is a break reads as an If") {
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %c
OpLoopMerge %m %c None
OpBranch %body
%body = OpLabel
%ge = OpSGreaterThanEqual %bool %i %i10
OpBranchConditional %ge %m %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("If ") != std::string::npos);
  CHECK(dump.find("Break") != std::string::npos);
}

TEST_CASE("a value defined in one branch and used after the selection comes through a variable") {
  read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %f
%t = OpLabel
%x = OpConvertSToF %float %n
OpBranch %m
%f = OpLabel
OpKill
%m = OpLabel
%v = OpCompositeConstruct %v4 %x %x %x %x
OpStore %out %v
OpReturn
OpFunctionEnd
)");
}

TEST_CASE("a conditional fall-through without a merge instruction is an If before the Passthrough") {
  // %a falls through to %b or breaks: both targets leave the case, and the
  // switch's merge is a merge block, so no OpSelectionMerge is needed.
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpSwitch %n %m 1 %a 2 %b
%a = OpLabel
OpStore %out %v0
OpBranchConditional %c0 %b %m
%b = OpLabel
OpStore %out %v0
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("Passthrough") != std::string::npos);
  CHECK(dump.find("Break") != std::string::npos);
}

TEST_CASE("a branch to the selection's merge or out of the loop, without a merge instruction, reads") {
  // %t's targets: the innermost selection's merge (Merge) and the loop's
  // merge (Break); the Merge follows an If holding the Break.
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %c
OpLoopMerge %lm %c None
OpBranch %body
%body = OpLabel
%c0 = OpSLessThan %bool %i %n
OpSelectionMerge %sm None
OpBranchConditional %c0 %t %sm
%t = OpLabel
%c1 = OpSLessThan %bool %i %i2
OpBranchConditional %c1 %sm %lm
%sm = OpLabel
OpBranch %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
OpBranch %h
%lm = OpLabel
OpStore %out %v0
OpReturn
OpFunctionEnd
)");
  CHECK(dump.find("Break") != std::string::npos);
  CHECK(dump.find("Merge") != std::string::npos);
}

// Premerges: both arms of a two-way branch meet in a block before the
// declared merge (reader_control.cpp, premerge()). The function's IR text is
// checked whole; paths_test.cpp runs the same shapes in the SPIR-V
// interpreter (and tests/tools/xcheck_spirv/premerge.spvasm runs on lavapipe).

TEST_CASE("a then-arm that goes on to the else target reads as an If ending there (a premerge)") {
  // Tint's reader samples If_Then_Premerge / Premerge_ThenDirectToElse: %q, the
  // else target, is where the arms meet before the declared merge %m; it is read
  // after the If, and %m in place after it (a value of %q used in %m spills).
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %q
%t = OpLabel
OpStore %out %v0
OpBranch %q
%q = OpLabel
%w = OpIAdd %int %n %i1
OpBranch %m
%m = OpLabel
%u = OpIAdd %int %w %i1
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2, v3
    r0   (t2) =    Load v1
                   Store v2 r0
    r1   (t4) =    LessThan r0 c8
                   If r1
    |
    +-> ______________
    |   If True Block:
    |                  Store v0 c10
    |                  Merge
    |
    V___________
    Merge Block:
    r2   (t2) =    Add r0 c5
                   Store v3 r2
    r3   (t2) =    Add r2 c5
                   Return
)");
}

TEST_CASE("both arms meeting before the merge read as an If, the premerge's OpPhi a variable") {
  // If_Then_Else_Premerge / Premerge_Simple: the OpPhi at the premerge %q is stored
  // at the end of each arm.
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %e
%t = OpLabel
%a = OpIAdd %int %n %i1
OpBranch %q
%e = OpLabel
OpBranch %q
%q = OpLabel
%p = OpPhi %int %a %t %i0 %e
%f = OpConvertSToF %float %p
%v = OpCompositeConstruct %v4 %f %f %f %f1
OpStore %out %v
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2, v3
    r0   (t2) =    Load v1
                   Store v3 r0
    r1   (t4) =    LessThan r0 c8
                   If r1
    |
    +-> ______________
    |   If True Block:
    |   r2   (t2) =    Add r0 c5
    |                  Store v2 r2
    |                  Merge
    |
    +-> _______________
    |   If False Block:
    |                  Store v2 c4
    |                  Merge
    |
    V___________
    Merge Block:
    r3   (t2) =    Load v2
    r4   (t1) =    ConstructScalarFromScalar r3
    r5   (t7) =    ConstructVectorFromMultiple (r4, r4, r4, c3)
                   Store v0 r5
                   Return
)");
}

TEST_CASE("an else-arm that goes on to the then target reads as an If around the else-arm") {
  // Premerge_ElseDirectToThen: the then target %t is the premerge, so the If holds
  // only the else-arm (negated condition).
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %e
%e = OpLabel
OpStore %out %v0
OpBranch %t
%t = OpLabel
OpBranch %q
%q = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    r0   (t2) =    Load v1
    r1   (t4) =    LessThan r0 c8
    r2   (t4) =    LogicalNot r1
                   If r2
    |
    +-> ______________
    |   If True Block:
    |                  Store v0 c10
    |                  Merge
    |
    V___________
    Merge Block:
                   Return
)");
}

TEST_CASE("arms that leave for the merge before the premerge set a flag the premerge tests") {
  // IfBreak_FromThenWithForward_FromElseWithForward_AlsoPremerge: %a and %b may
  // branch to the declared merge %m past the premerge %q, so they set
  // premerge_skip (v4) and %q's part runs under `If !premerge_skip`, which also
  // resets the flag; %q's own branch to %m is a Merge of that If.
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
%c1 = OpSLessThan %bool %n %i10
OpSelectionMerge %m None
OpBranchConditional %c0 %a %b
%a = OpLabel
OpBranchConditional %c1 %a2 %m
%a2 = OpLabel
OpBranch %q
%b = OpLabel
OpBranchConditional %c1 %m %b2
%b2 = OpLabel
OpBranch %q
%q = OpLabel
OpStore %out %v0
OpBranchConditional %c0 %q2 %m
%q2 = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2, v3, v4
    r0   (t2) =    Load v1
    r1   (t4) =    LessThan r0 c8
                   Store v2 r1
    r2   (t4) =    LessThan r0 c9
                   Store v3 r2
                   If r1
    |
    +-> ______________
    |   If True Block:
    |   r3   (t4) =    LogicalNot r2
    |                  If r3
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Store v4 c1
    |   |                  Merge
    |   |
    |   +-> _______________
    |   |   If False Block:
    |   |                  Merge
    |   |
    |   V___________
    |   Merge Block:
    |                  Merge
    |
    +-> _______________
    |   If False Block:
    |                  If r2
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Store v4 c1
    |   |                  Merge
    |   |
    |   +-> _______________
    |   |   If False Block:
    |   |                  Merge
    |   |
    |   V___________
    |   Merge Block:
    |                  Merge
    |
    V___________
    Merge Block:
    r4   (t4) =    Load v4
                   Store v4 c0
    r5   (t4) =    LogicalNot r4
                   If r5
    |
    +-> ______________
    |   If True Block:
    |                  Store v0 c10
    |                  If r1
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Merge
    |   |
    |   V___________
    |   Merge Block:
    |                  Merge
    |
    V___________
    Merge Block:
                   Return
)");
}

TEST_CASE("a loop header branching to two blocks of its body that both continue reads as an If") {
  // LoopInternallyDiverge: OpLoopMerge is the header's merge instruction; the two
  // arms end with Continue, so the If's merge block is unreachable.
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %c
%c0 = OpSLessThan %bool %i %n
OpLoopMerge %lm %c None
OpBranchConditional %c0 %a %b
%a = OpLabel
OpStore %out %v0
OpBranch %c
%b = OpLabel
OpBranch %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
%more = OpSLessThan %bool %inext %i10
OpBranchConditional %more %h %lm
%lm = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2, v3, v4, v5
    r0   (t2) =    Load v1
                   Store v3 r0
                   Store v2 c4
                   DoLoop
    |
    +-> _______________
    |   Loop Condition:
    |   r3   (t2) =    Load v4
    |   r4   (t2) =    Add r3 c5
    |   r5   (t4) =    LessThan r4 c9
    |                  Store v2 r4
    |                  LoopIf r5
    |
    +-> __________
    |   Loop Body:
    |   r1   (t2) =    Load v2
    |                  Store v4 r1
    |   r2   (t4) =    LessThan r1 r0
    |                  Store v5 r2
    |                  If r2
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Store v0 c10
    |   |                  Continue
    |   |
    |   +-> _______________
    |   |   If False Block:
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Unreachable
    |
    V___________
    Merge Block:
                   Return
)");
}

TEST_CASE("a loop header branching to two blocks of its body that both break reads as an If") {
  // Pathological_Forward_LoopHeadSplitBody (the continue target is unreachable).
  const std::string dump = read_ok(R"(
OpBranch %h
%h = OpLabel
%c0 = OpSLessThan %bool %n %i2
OpLoopMerge %lm %c None
OpBranchConditional %c0 %a %b
%a = OpLabel
OpStore %out %v0
OpBranch %lm
%b = OpLabel
OpBranch %lm
%c = OpLabel
OpBranch %h
%lm = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2, v3
    r0   (t2) =    Load v1
                   Store v2 r0
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |   r1   (t4) =    LessThan r0 c8
    |                  Store v3 r1
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |   r2   (t4) =    Load v3
    |                  If r2
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Store v0 c10
    |   |                  Break
    |   |
    |   +-> _______________
    |   |   If False Block:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |                  Unreachable
    |
    +-> ____________________
    |   Loop Continue Block:
    |                  Continue
    |
    V___________
    Merge Block:
                   Return
)");
}

TEST_CASE("a premerge that returns leaves the declared merge unread") {
  // ComputeBlockOrder_ReorderSequence: %q returns, %m is unreachable.
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %q
%q = OpLabel
OpReturn
%t = OpLabel
OpStore %out %v0
OpBranch %q
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    r0   (t2) =    Load v1
    r1   (t4) =    LessThan r0 c8
                   If r1
    |
    +-> ______________
    |   If True Block:
    |                  Store v0 c10
    |                  Merge
    |
    V___________
    Merge Block:
                   Return
)");
}

TEST_CASE("a selection header branching to one block twice still has its merge as an exit") {
  // SPIRV-Cross's degenerate-selection-constructs (valid before SPIR-V 1.6): %a
  // is in the selection, so its branch to %m leaves it; %a is read in place and
  // %m after it, as a premerge's tail is.
  const std::string dump = read_ok(R"(
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %a %a
%a = OpLabel
OpStore %out %v0
OpBranchConditional %c0 %b %m
%b = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(function_ir(dump) == R"(    Entry To Function:
    Declare: v2
    r0   (t2) =    Load v1
    r1   (t4) =    LessThan r0 c8
                   Store v2 r1
                   Store v0 c10
                   If r1
    |
    +-> ______________
    |   If True Block:
    |                  Merge
    |
    V___________
    Merge Block:
                   Return
)");
}

// Shapes spirv-val (SPIRV-Tools 2023.1) rejects as well: the reader's error
// names the branch and ends with the rule of docs/spirv-cfg.md it breaks.
TEST_CASE("a continue construct that leaves to the merge other than from its back-edge block is refused") {
  const std::string e = read_error(kHeader + R"(
OpBranch %h
%h = OpLabel
%i = OpPhi %int %i0 %entry %inext %be
OpLoopMerge %m %c None
OpBranch %c
%c = OpLabel
%inext = OpIAdd %int %i %i1
%ge = OpSGreaterThanEqual %bool %inext %n
OpBranchConditional %ge %m %be
%be = OpLabel
OpBranch %h
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(e.find("not a structured exit") != std::string::npos);
  CHECK(e.find("[back-edge-spd-continue") != std::string::npos);
}

TEST_CASE("a branch to the merge of a selection that is not the innermost is refused") {
  const std::string e = read_error(kHeader + R"(
%c0 = OpSLessThan %bool %n %i2
%c1 = OpSLessThan %bool %n %i1
OpSelectionMerge %m None
OpBranchConditional %c0 %t %m
%t = OpLabel
OpSelectionMerge %m2 None
OpBranchConditional %c1 %t2 %m2
%t2 = OpLabel
OpBranch %m
%m2 = OpLabel
OpBranch %m
%m = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(e.find("not a structured exit") != std::string::npos);
  CHECK(e.find("[exit") != std::string::npos);
}

TEST_CASE("an OpPhi of pointers is refused, naming the capability it needs") {
  // Valid only with VariablePointers (spirv-val: "Using pointers with OpPhi
  // requires capability VariablePointers or VariablePointersStorageBuffer").
  const std::string e = read_error(R"(
OpCapability Shader
OpCapability VariablePointers
OpExtension "SPV_KHR_variable_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out %in
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
OpDecorate %in Location 0
OpDecorate %in Flat
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%pf = OpTypePointer Function %int
%pout = OpTypePointer Output %int
%pin = OpTypePointer Input %int
%out = OpVariable %pout Output
%in = OpVariable %pin Input
%i2 = OpConstant %int 2
%main = OpFunction %void None %fn
%entry = OpLabel
%a = OpVariable %pf Function
%b = OpVariable %pf Function
%n = OpLoad %int %in
OpStore %a %n
OpStore %b %i2
%c0 = OpSLessThan %bool %n %i2
OpSelectionMerge %m None
OpBranchConditional %c0 %t %m
%t = OpLabel
OpBranch %m
%m = OpLabel
%p = OpPhi %pf %a %entry %b %t
%v = OpLoad %int %p
OpStore %out %v
OpReturn
OpFunctionEnd
)");
  CHECK(e.find("OpPhi") != std::string::npos);
  CHECK(e.find("VariablePointers") != std::string::npos);
}

TEST_CASE("unstructured SPIR-V is refused, naming the branch") {
  const std::string e = read_error(kHeader + R"(
%c0 = OpSLessThan %bool %n %i2
OpBranchConditional %c0 %t %f
%t = OpLabel
OpReturn
%f = OpLabel
OpReturn
OpFunctionEnd
)");
  CHECK(e.find("unstructured branch") != std::string::npos);
  CHECK(e.find("OpBranchConditional") != std::string::npos);
}

TEST_CASE("Kernel modules are refused") {
  const std::string e = read_error(R"(
OpCapability Kernel
OpCapability Addresses
OpMemoryModel Physical32 OpenCL
)");
  CHECK(e.find("only Shader modules") != std::string::npos);
}

TEST_CASE("malformed binaries are errors, not crashes") {
  auto ok = spirv_in::read_bytes(kHeader + "OpReturn\nOpFunctionEnd\n");
  REQUIRE(ok.ok());
  // Truncations and corruptions of a valid binary.
  auto words = spirv::emit(*ok);
  REQUIRE(words.ok());
  std::string bytes(reinterpret_cast<const char*>(words->data()), words->size() * 4);
  for (std::size_t cut = 20; cut < bytes.size(); cut += 12) {
    auto r = spirv_in::read_bytes(std::string_view(bytes).substr(0, cut));
    (void)r;
  }
  for (std::size_t at = 20; at < bytes.size(); at += 4) {
    std::string b = bytes;
    b[at] = static_cast<char>(b[at] ^ 0x5a);
    auto r = spirv_in::read_bytes(b);
    if (r.ok()) CHECK(validator::validate(*r).empty());
  }
  SUCCEED("no crash");
}
