// A fleshed test as a small text file, NAME.cfg, written beside its .spv,
// .amber and buffers (--out, --findings): how to flesh it again (mode, seed,
// walk bound, invocations, a mutation) and its CFG, one block a line in
// describe()'s syntax, in layout order:
//
//   ; sluice flesh test (docs/flesh.md): `sluice flesh --reduce` reads it
//   mode phi
//   seed 0x5d2f...
//   walk 48
//   invocations 1
//   local-size 1
//   mutation swap-targets %3          (optional)
//   %1: br %2
//   %2: selection merge %4; br_cond %3 %4
//   %3: br %4
//   %4: return
//
// flesh(cfg, seed, options) of the parsed file gives the test back, byte
// for byte, so `--reduce` can change the CFG and flesh it again.
#pragma once

#include <string>
#include <string_view>

#include "flesh/flesh.h"
#include "ir/result.h"

namespace sluice::flesh {

struct TestDescription {
  Cfg cfg;
  std::uint64_t seed = 0;
  FleshOptions options;
  Mutation mutation;
};

std::string describe_test(const Test& test, std::uint32_t walk_bound, const Mutation& mutation = {});

// Writes describe_test() as DIR/NAME.cfg.
Result<bool> write_test_description(const std::string& dir, const std::string& name, const Test& test,
                                    std::uint32_t walk_bound, const Mutation& mutation = {});

// The test as it runs with `mutation` applied: its assembly and SPIR-V
// are the mutant's, its expected output the unmutated prediction.
Result<Test> mutated_test(const Test& test, const Mutation& mutation);

// Parses describe_test()'s text; errors carry `file`, the line and the
// column. The CFG's references are checked (every block defined once,
// targets and merges in range, distinct case literals), not its structure
// (check.h does that).
Result<TestDescription> parse_test_description(std::string_view text, const std::string& file);

}  // namespace sluice::flesh
