// Which loops have the shape that hangs NVIDIA's driver 580
// (docs/workarounds.md, "loop-exit-in-header"): the loop-exit-in-header
// workaround rewrites only these, so loops of other shapes keep the form
// the driver runs fastest (the rewrite cost 3.2x on a matrix multiply whose
// loops never had the shape).
#pragma once

#include <vector>

#include "ir/module.h"
#include "ir/pointer_roots.h"

namespace sluice::transform {

// By BlockId of `f`: true for a Loop/DoLoop block that
//  - sits inside another loop of `f`, or anywhere in a function that is not
//    the entry point (a caller may run it inside a loop, and the driver
//    inlines), and
//  - leaves through a Break whose enclosing selection in the loop tests a
//    float value loaded from Function/Private/any memory that the loop
//    itself writes: a float counter carried from one iteration to the next.
// Every shape measured to hang (docs/testing.md, "Loop shapes on NVIDIA":
// a float inner counter tested in a selection, first or after work, inside
// a float- or int-counted loop) has it; int counters and header tests do
// not. Linear in the function.
// `entry_point`: f is the module's entry point.
std::vector<bool> hang_prone_loops(const ir::Module& m, ir::FunctionId f, const ir::PointerRoots& roots,
                                   bool entry_point);

}  // namespace sluice::transform
