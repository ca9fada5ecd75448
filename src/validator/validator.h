// The IR validator: checks a module's invariants (docs/ir.md, "Validation
// rules") and returns what it found; it never aborts, whatever the input.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"

namespace sluice::validator {

struct Problem {
  std::string message;            // what is wrong, e.g. "Break outside a loop or switch"
  ir::FunctionId function;        // invalid for module-level problems
  ir::BlockId block;              // invalid for function- or module-level problems
  std::int32_t instruction = -1;  // index in the block's instruction list; -1 for the block itself
};

struct Options {
  // A badly broken module can have a problem per instruction; past this
  // many, validate() keeps checking (it stays linear) but stops recording.
  std::size_t max_problems = 1000;
};

std::vector<Problem> validate(const ir::Module& m);
std::vector<Problem> validate(const ir::Module& m, const Options& options);

// "f0 'main', Loop Body block b3, instruction 2 `r5   (t1) = Add r3 r4`: message":
// names the function, the block (as the dump titles it) and the instruction
// as the dump prints it, so a problem can be found in ir-dump's output.
std::string describe(const ir::Module& m, const Problem& p);
// All problems, one line each; the block titles of a function are computed
// once for all of its problems.
std::string describe(const ir::Module& m, std::span<const Problem> problems);

}  // namespace sluice::validator
