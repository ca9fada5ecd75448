// A reference evaluator for the IR the λV front end produces, so tests can
// check what a program computes (not only its shape): it runs `main` of a
// fragment shader for one fragment and returns what each output received.
// Only the opcodes λV lowers to are implemented; anything else is reported
// as an EvalError. Test code only: it favours plainness over speed, and
// recursion follows the IR's nesting (tests keep that small).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/module.h"

namespace sluice::testing {

struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct EvalInputs {
  std::array<float, 4> frag_coord{0.5f, 0.5f, 0.0f, 1.0f};
  std::uint64_t max_instructions = 50'000'000;  // guards against endless loops
};

// Output location -> the components stored there (last store wins).
std::map<std::uint32_t, std::vector<float>> evaluate(const ir::Module& m, const EvalInputs& inputs = {});

}  // namespace sluice::testing
