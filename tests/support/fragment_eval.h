// One fragment through the test IR interpreter (ir_interpreter.h), read the
// way the λV tests read a program: gl_FragCoord set, each located output's
// components as floats. A run the interpreter cannot finish throws
// EvalError, so a test fails with the reason.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "ir_interpreter.h"

namespace sluice::testing {

struct EvalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct EvalInputs {
  std::array<float, 4> frag_coord{0.5f, 0.5f, 0.0f, 1.0f};
  std::uint64_t max_instructions = 50'000'000;  // guards against endless loops
};

// Output location -> the components stored there (outputs never written
// are left out).
inline std::map<std::uint32_t, std::vector<float>> evaluate(const ir::Module& m, const EvalInputs& inputs = {}) {
  Words coord;
  for (float f : inputs.frag_coord) coord.push_back(float_word(f));
  const IrRun run = run_ir(m, {{"FragCoord", coord}}, inputs.max_instructions);
  if (!run.ok) throw EvalError(run.error);
  if (run.killed) throw EvalError("the fragment was discarded");
  std::map<std::uint32_t, std::vector<float>> out;
  for (ir::VariableId g : m.globals()) {
    const ir::Variable& v = m.variable(g);
    if (m.type(v.type).storage != ir::StorageClass::Output || !v.decorations.location) continue;
    if (const auto& w = run.variables[g.index()])
      out[*v.decorations.location] = floats_of(m, m.type(v.type).element, *w);
  }
  return out;
}

}  // namespace sluice::testing
