// A small SPIR-V interpreter for the tests: it runs the entry point of a
// module the output emitted, for the subset the tests use (32-bit scalars
// and vectors, Function/Private/Input/Output memory with access chains,
// phis, structured branches, calls), and reports the Output variables by
// name. It is the oracle for executing emitted code: a λV program must
// compute its value, and a random IR tree must compute what the IR
// interpreter (tests/support/ir_interpreter.h) computes. Phis of a block are evaluated
// together from the values at the end of the predecessor, as SPIR-V says.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace sluice::testing {

using Words = std::vector<std::uint32_t>;  // a value: one word per component

struct SpirvRun {
  bool ok = false;          // false: error says why (unsupported, step limit, ...)
  bool killed = false;      // OpKill / OpTerminateInvocation
  std::string error;
  std::uint64_t steps = 0;
  std::map<std::string, Words> outputs;  // Output variables by OpName
};

// Runs "main" with the Input variables named in `inputs` set.
SpirvRun run_spirv(std::span<const std::uint32_t> module, const std::map<std::string, Words>& inputs,
                   std::uint64_t max_steps = 1'000'000);

}  // namespace sluice::testing
