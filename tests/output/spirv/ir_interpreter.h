// A reference interpreter for the IR subset the random trees use (scalar
// int/uint/float/bool values, variables, calls and every control-flow form),
// walking the block tree as docs/ir.md defines it. It is the other half of
// the differential test: the SPIR-V interpreter must compute the same
// outputs from the emitted module.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ir/module.h"
#include "spirv_interpreter.h"

namespace sluice::testing {

struct IrRun {
  bool ok = false;
  bool killed = false;  // Discard
  std::string error;
  std::uint64_t steps = 0;
  std::map<std::string, Words> outputs;  // Output globals by name
};

IrRun run_ir(const ir::Module& m, const std::map<std::string, Words>& inputs, std::uint64_t max_steps = 1'000'000);

}  // namespace sluice::testing
