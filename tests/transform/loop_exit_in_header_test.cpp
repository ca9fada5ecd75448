// loop-exit-in-header (docs/workarounds.md): a loop whose body starts with
// its exit test gets the test as its condition; a loop that does work
// before leaving gets an exit flag; loops it cannot rewrite stay as they
// are. Before/after in the IR text form, and each rewrite run by the
// interpreter on the same inputs as the original.
#include <catch2/catch.hpp>

#include "ir_interpreter.h"
#include "text_form_util.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

TextModule loop_module(const std::string& variables, const std::string& functions) {
  TextModule t;
  t.types = "  t26: Pointer to t7 in Output\n  t27: Pointer to t1 in Input\n  t28: Pointer to t1\n  t29: Pointer to t4\n";
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

const char* kExitFirstAfter = R"(
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
    |   r10   (t1) =   Load v2                                       [highp]
    |   r11   (t4) =   Equal r10 c2[highp]
    |   r12   (t4) =   LogicalNot r11
    |                  LoopIf r12
    |
    +-> __________
    |   Loop Body:
    |   r1   (t1) =    Load v2                                       [highp]
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

const char* kExitAfterWorkAfter = R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    Declare: v2, v3, v4
    r0   (t1) =    Load v1                                       [highp]
                   Store v2 r0
                   Store v4 c1
                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |   r10   (t4) =   Load v4
    |                  LoopIf r10
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
    |   |                  Store v4 c0
    |   |                  Continue
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

TEST_CASE("a loop that tests for its exit first gets the test as its condition") {
  const TextModule before = loop_module("", kExitFirst);
  const TextModule after = loop_module("", kExitFirstAfter);
  CHECK(check_before_after("loop-exit-in-header", before, after));
  CHECK(outputs(module_text(before)) == outputs(module_text(after)));
}

TEST_CASE("a loop that works before its exit test gets an exit flag") {
  const TextModule before = loop_module("", kExitAfterWork);
  const TextModule after = loop_module("  v4 (t29): 'tloop_again_4'\n", kExitAfterWorkAfter);
  CHECK(check_before_after("loop-exit-in-header", before, after));
  CHECK(outputs(module_text(before)) == outputs(module_text(after)));
}

TEST_CASE("loops the rewrite does not apply to are left alone") {
  // A loop whose condition already tests (the header form), and a loop left
  // by Break with a value (its merge input) are unchanged.
  const TextModule header = loop_module("", kExitFirstAfter);
  CHECK_FALSE(check_before_after("loop-exit-in-header", header, header));
}
