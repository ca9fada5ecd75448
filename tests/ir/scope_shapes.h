// The block trees on which the copies of the scope model used to disagree
// (docs/ir.md, "Scopes: where a jump goes"), as IR text. The IR model test,
// the validator test and the SPIR-V output test read the same shapes.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "ir/dump.h"
#include "ir/module.h"
#include "ir/parse.h"

namespace sluice::testing::scope_shapes {

// A fragment shader with `float fog` in and `vec4 color` out; `body` is the
// function body of main after its entry line, r0 = fog, r1 = fog < 1.0.
inline std::string module_text(const std::string& body) {
  std::string text = ir::dump(ir::Module(ir::ShaderStage::Fragment));
  text.insert(text.find("\nConstants:"), "\n  t26: Pointer to t1 in Input\n  t27: Pointer to t7 in Output");
  text.insert(text.find("\nVariables:"), "\n  c8 (t7): composite(c3, c3, c3, c3)");
  text.insert(text.find("\nGlobals:"),
              "\n  v0 (t26): '_ufog' [highp, input, location=0]\n  v1 (t27): '_ucolor' [highp, output, location=0]");
  text.replace(text.find("Globals:"), 8, "Globals: v0, v1");
  text += R"(
  f0: 'main'() -> t0

    __________________
    Entry To Function:
    r0   (t1) =    Load v0                                       [highp]
    r1   (t4) =    LessThan r0 c3[highp]
)";
  return text + body;
}

// The module of module_text(body); the test fails if it does not parse.
inline ir::Module parse(const char* body) {
  const std::string text = module_text(body);
  ir::ParseResult parsed = ir::parse_module(text, "scopes.ir");
  INFO(text);
  REQUIRE(parsed.ok());
  return std::move(*parsed.module);
}

// A loop inside an If: the loop body's Break leaves the loop; the If's
// merge block is not visible there (a Merge in the body is invalid), but it
// is in the loop's merge block, which is in the If's chain again.
inline const char* const kLoopInIf = R"(                   If r1
    |
    +-> ______________
    |   If True Block:
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |                  LoopIf r1
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |                  Merge
    |
    V___________
    Merge Block:
                   Store v1 c8[highp]
                   Return
)";

// A loop in another loop's continue chain: in the inner loop's body, Break
// leaves the inner loop (allowed), though a Return would leave the outer
// loop's continue chain; the inner loop's merge block ends the continue
// chain with Continue (the back edge).
inline const char* const kLoopInContinue = R"(                   Loop
    |
    +-> _______________
    |   Loop Condition:
    |                  LoopIf r1
    |
    +-> __________
    |   Loop Body:
    |                  Continue
    |
    +-> ____________________
    |   Loop Continue Block:
    |                  Loop
    |   |
    |   +-> _______________
    |   |   Loop Condition:
    |   |                  LoopIf r1
    |   |
    |   +-> __________
    |   |   Loop Body:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |                  Continue
    |
    V___________
    Merge Block:
                   Store v1 c8[highp]
                   Return
)";

// A DoLoop whose condition chain holds an If: that chain is no continue
// chain for the IR (Break and Return are valid there), but SPIR-V puts it
// in the loop's continue construct, from which a Break cannot leave.
inline const char* const kDoLoopConditionBreak = R"(                   DoLoop
    |
    +-> _______________
    |   Loop Condition:
    |                  If r1
    |   |
    |   +-> ______________
    |   |   If True Block:
    |   |                  Break
    |   |
    |   V___________
    |   Merge Block:
    |                  LoopIf r1
    |
    +-> __________
    |   Loop Body:
    |                  Continue
    |
    V___________
    Merge Block:
                   Store v1 c8[highp]
                   Return
)";

}  // namespace sluice::testing::scope_shapes
