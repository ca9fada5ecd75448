// Random valid IR trees for property tests of the SPIR-V output.
//
// A tree is a fragment shader over `flat in int x, y` writing `out int o`:
// a main function (and a helper `int h(int, int)` it calls) built from
// random statements — assignments, swaps of two variables, path traces
// (t = t * 31 + site), if/else with and without merge values, while/for
// loops with and without continue blocks, do-loops, λV-style loops left by
// `Break value`, switches with fall-through and a default anywhere, and
// escapes (break, continue, return, discard) from nested constructs. Every
// loop counts a fresh counter to a small bound, so every tree terminates;
// before each return `o` receives a hash of the trace and all variables, so
// the output depends on the whole path taken.
#pragma once

#include <cstdint>

#include "ir/module.h"

namespace sluice::testing {

struct RandomIrOptions {
  std::uint32_t max_blocks = 150;  // stop opening constructs beyond this many blocks (~170 on average)
  std::uint32_t max_depth = 7;     // construct nesting
  std::uint32_t max_loop_depth = 3;
};

ir::Module random_ir(std::uint64_t seed, const RandomIrOptions& options = {});

}  // namespace sluice::testing
