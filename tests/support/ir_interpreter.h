// The IR interpreter of the tests: it runs a module's entry point for one
// invocation and reports what its globals hold at the end. It is the one
// reference for what IR computes: the pass tests run a module before and
// after a pass, the output tests compare it with the SPIR-V interpreter on
// emitted code, the λV tests read a program's colour from it.
//
// Control flow follows docs/ir.md, each jump's target taken from the scope
// model (ir/structure.h); calls and nested constructs are a heap stack of
// frames, so nesting depth costs no native stack. Values are flattened
// words (ir_values.h); the arithmetic is ir_arithmetic.h's, written
// independently of src/transform's folding. Pointers are a variable and the
// words of it they cover. Anything not modelled or undefined (a load of a
// variable never written, integer division by zero, Unreachable reached,
// more than `max_steps` instructions) ends the run with an error.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir_values.h"

namespace sluice::testing {

struct IrRun {
  bool ok = false;      // false: `error` says why
  bool killed = false;  // the invocation was discarded
  std::string error;
  std::uint64_t steps = 0;
  // Output globals by name; one never written reads as zeros, as the
  // SPIR-V interpreter reports it.
  std::map<std::string, Words> outputs;
  // Every variable's value at the end, by VariableId index (nullopt: never
  // written or written only before its declaration was re-entered).
  std::vector<std::optional<Words>> variables;
};

// Runs the entry point with the globals named in `inputs` set (a key names
// a global or its built-in, as "FragCoord").
IrRun run_ir(const ir::Module& m, const std::map<std::string, Words>& inputs, std::uint64_t max_steps = 1'000'000);

// The value of global `name` after `run` as text (ir_values.h's text_of):
// "discarded" if the run discarded, "undefined" if it was never written.
std::string global_text(const ir::Module& m, const IrRun& run, const std::string& name);

}  // namespace sluice::testing
