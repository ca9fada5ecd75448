// loop-exit-in-header (docs/workarounds.md): a loop of the shape that hangs
// NVIDIA's driver (nested in another, a float counter tested in its body)
// whose body starts with its exit test gets the test as its condition; one
// that does work before leaving gets an exit flag; loops of other shapes,
// and loops it cannot rewrite, stay as they are. Before/after in the IR
// text form, and each rewrite run by the interpreter on the same inputs as
// the original.
#include <string>

#include <catch2/catch.hpp>

#include "ir_interpreter.h"
#include "text_form_util.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

TextModule loop_module(const std::string& variables, const std::string& functions) {
  TextModule t;
  t.types =
      "  t26: Pointer to t7 in Output\n  t27: Pointer to t1 in Input\n  t28: Pointer to t1\n  t29: Pointer to t4\n"
      "  t30: Pointer to t2\n";
  t.variables =
      "  v0 (t26): '_uo' [highp, output, location=0]\n"
      "  v1 (t27): '_ux' [highp, input, location=0]\n"
      "  v2 (t28): 'tj_2' [highp]\n"
      "  v3 (t28): 'tacc_3'=c2 [highp]\n" +
      variables;
  t.globals = " v0, v1";
  t.functions = functions;
  return t;
}

// for (;;) { if (j == 0.0) break; acc += j; j = j - 1.0; }
const char* kExitFirst = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Store v2 r0
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |   r1   (t1) =    Load v2                                       [highp]
    |   r2   (t4) =    Equal r1 c2[highp]
    |                  If r2
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |   r4   (t1) =    Load v3                                       [highp]
    |   r5   (t1) =    Add r4 r1                                     [highp]
    |                  Store v3 r5
    |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |                  Store v2 r7
    |                  Continue
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

// for (;;) { acc += j; if (j == 0.0) break; j = j - 1.0; }
const char* kExitAfterWork = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Store v2 r0
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |   r1   (t1) =    Load v2                                       [highp]
    |   r2   (t1) =    Load v3                                       [highp]
    |   r3   (t1) =    Add r2 r1                                     [highp]
    |                  Store v3 r3
    |   r5   (t4) =    Equal r1 c2[highp]
    |                  If r5
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |                  Store v2 r7
    |                  Continue
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

// The same loops nested in a loop that runs once
// (`for (;;) { float j = x; <loop>; break; }`): the shape that hangs
// NVIDIA's driver when the counter is a float.
const char* kNestedExitFirst = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |                  Store v2 r0
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |                  LoopIf c1
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |   r1   (t1) =    Load v2                                       [highp]
    |   |   r2   (t4) =    Equal r1 c2[highp]
    |   |                  If r2
    |   |   |
    |   |   +-> ______________
    |   |   |   If True Block:
    |   |   |                  Break
    |   |   |
    |   |   V___________
    |   |   Merge Block:
    |   |   r4   (t1) =    Load v3                                       [highp]
    |   |   r5   (t1) =    Add r4 r1                                     [highp]
    |   |                  Store v3 r5
    |   |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |   |                  Store v2 r7
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Break
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

const char* kNestedExitFirstAfter = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |                  Store v2 r0
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |   r10   (t1) =   Load v2                                       [highp]
    |   |   r11   (t4) =   Equal r10 c2[highp]
    |   |   r12   (t4) =   LogicalNot r11
    |   |                  LoopIf r12
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |   r1   (t1) =    Load v2                                       [highp]
    |   |   r4   (t1) =    Load v3                                       [highp]
    |   |   r5   (t1) =    Add r4 r1                                     [highp]
    |   |                  Store v3 r5
    |   |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |   |                  Store v2 r7
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Break
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

const char* kNestedExitAfterWork = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |                  Store v2 r0
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |                  LoopIf c1
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |   r1   (t1) =    Load v2                                       [highp]
    |   |   r2   (t1) =    Load v3                                       [highp]
    |   |   r3   (t1) =    Add r2 r1                                     [highp]
    |   |                  Store v3 r3
    |   |   r5   (t4) =    Equal r1 c2[highp]
    |   |                  If r5
    |   |   |
    |   |   +-> ______________
    |   |   |   If True Block:
    |   |   |                  Break
    |   |   |
    |   |   V___________
    |   |   Merge Block:
    |   |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |   |                  Store v2 r7
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Break
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

const char* kNestedExitAfterWorkAfter = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3
    r0   (t1) =    Load v1                                       [highp]
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |   Declare: v4
    |                  Store v2 r0
    |                  Store v4 c1
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |   r10   (t4) =   Load v4
    |   |                  LoopIf r10
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |   r1   (t1) =    Load v2                                       [highp]
    |   |   r2   (t1) =    Load v3                                       [highp]
    |   |   r3   (t1) =    Add r2 r1                                     [highp]
    |   |                  Store v3 r3
    |   |   r5   (t4) =    Equal r1 c2[highp]
    |   |                  If r5
    |   |   |
    |   |   +-> ______________
    |   |   |   If True Block:
    |   |   |                  Store v4 c0
    |   |   |                  Continue
    |   |   |
    |   |   V___________
    |   |   Merge Block:
    |   |   r7   (t1) =    Sub r1 c3[highp]                              [highp]
    |   |                  Store v2 r7
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Break
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

// Left alone although nested: an int counter (the measured int shapes run)
// and (kNestedExitFirst testing the input x instead of j, below) a float
// test of a value the loop never writes (no counter).
const char* kNestedIntCounter = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v3, v4
    r0   (t1) =    Load v1                                       [highp]
    r1   (t2) =    ConstructScalarFromScalar r0                  [highp]
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf c1
    |
    +-> __________
    |   Loop Body:
    |                  Store v4 r1
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |                  LoopIf c1
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |   r2   (t2) =    Load v4                                       [highp]
    |   |   r3   (t4) =    Equal r2 c4[highp]
    |   |                  If r3
    |   |   |
    |   |   +-> ______________
    |   |   |   If True Block:
    |   |   |                  Break
    |   |   |
    |   |   V___________
    |   |   Merge Block:
    |   |   r4   (t1) =    Load v3                                       [highp]
    |   |   r5   (t1) =    ConstructScalarFromScalar r2                  [highp]
    |   |   r6   (t1) =    Add r4 r5                                     [highp]
    |   |                  Store v3 r6
    |   |   r7   (t2) =    Sub r2 c5[highp]                              [highp]
    |   |                  Store v4 r7
    |   |                  Continue
    |   |
    |   V___________
    |   Merge Block:
    |                  Break
    |
    V___________
    Merge Block:
    r8   (t1) =    Load v3                                       [highp]
    r9   (t7) =    ConstructVectorFromScalar r8                  [highp]
                   Store v0 r9
                   Return
)";

// The loop's output for x = 0..4 (a count down from x, summing).
std::vector<std::string> outputs(const std::string& text) {
  std::vector<std::string> out;
  for (int x = 0; x <= 4; ++x) {
    const ir::Module m = parse_text(text);
    const IrRun run = run_ir(m, {{"x", {float_word(static_cast<float>(x))}}});
    INFO(run.error);
    REQUIRE(run.ok);
    out.push_back(global_text(m, run, "o"));
  }
  return out;
}

}  // namespace

TEST_CASE("a nested loop whose float counter is tested first gets the test as its condition") {
  const TextModule before = loop_module("", kNestedExitFirst);
  const TextModule after = loop_module("", kNestedExitFirstAfter);
  CHECK(check_before_after("loop-exit-in-header", before, after));
  CHECK(outputs(module_text(before)) == outputs(module_text(after)));
}

TEST_CASE("a nested loop that works before its float exit test gets an exit flag") {
  const TextModule before = loop_module("", kNestedExitAfterWork);
  const TextModule after = loop_module("  v4 (t29): 'tloop_again_4'\n", kNestedExitAfterWorkAfter);
  CHECK(check_before_after("loop-exit-in-header", before, after));
  CHECK(outputs(module_text(before)) == outputs(module_text(after)));
}

TEST_CASE("loops without the hanging shape are left alone") {
  // Not nested: a single loop of either form runs on the driver.
  for (const char* single : {kExitFirst, kExitAfterWork}) {
    const TextModule m = loop_module("", single);
    CHECK_FALSE(check_before_after("loop-exit-in-header", m, m));
  }
  // Nested, but an int counter, or a float test of memory the loop does
  // not write.
  const TextModule int_counter = loop_module("  v4 (t30): 'tk_4' [highp]\n", kNestedIntCounter);
  CHECK_FALSE(check_before_after("loop-exit-in-header", int_counter, int_counter));
  std::string unwritten_text = kNestedExitFirst;
  const std::string load_j = "|   |   r1   (t1) =    Load v2 ";
  unwritten_text.replace(unwritten_text.find(load_j), load_j.size(), "|   |   r1   (t1) =    Load v1 ");
  const TextModule unwritten = loop_module("", unwritten_text);
  CHECK_FALSE(check_before_after("loop-exit-in-header", unwritten, unwritten));
  // A nested loop whose condition already tests (the header form).
  const TextModule header = loop_module("", kNestedExitFirstAfter);
  CHECK_FALSE(check_before_after("loop-exit-in-header", header, header));
}
