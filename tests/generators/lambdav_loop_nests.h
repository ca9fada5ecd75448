// Generated λV loop nests with their expected results, for the tests that
// check rec-func lowering on drivers (docs/testing.md, "λV loops on
// NVIDIA"): rec-funcs nested 2–4 deep, each counting a Num down to 0 in
// whole steps ("int" counters) or in steps of 0.5 or 0.25 ("float"
// counters), the inner counter started from the outer one's (the shape
// that hangs NVIDIA's 580 driver) or from a constant, the exit test in the
// then or the else branch, sometimes behind a let, an early exit on the
// accumulator, or a second `rec` (the general lowering).
//
// The expected colours come from a C++ mirror of the generated program
// (float32 arithmetic in the program's order, values exact in float32), not
// from Sluice: the oracle is independent of the compiler under test.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sluice::lambdav::generate {

struct ExpectedPixel {
  std::uint32_t x = 0, y = 0;  // on a 64x64 picture
  std::array<float, 4> rgba{};
};

struct LoopNest {
  std::string source;  // with one `; expect X Y: r g b a` line per pixel below
  std::vector<ExpectedPixel> expected;
  std::string shape;   // one line: depth, counters, exit forms
};

// Deterministic in `seed` on every platform (its own generator, no
// std::*_distribution).
LoopNest loop_nest(std::uint32_t seed);

}  // namespace sluice::lambdav::generate
