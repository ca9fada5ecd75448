// Many fleshed tests in one compute module (issue 14: "many tests in one
// module"). lavapipe compiles every pipeline with LLVM when a submission
// first runs it, and a pipeline's fixed cost (NIR, an LLVM module, its
// JIT) dominates a small fleshed test; a bundle pays it once for K tests.
//
// The module: test k's instrumented CFG is function %tk_f, unchanged but
// for where its words start in the shared directions and output buffers
// (its BundleSlot); `main` switches on WorkgroupId.y to call test
// WorkgroupId.y, so one dispatch of (groups of one test) × K workgroups
// runs every test with its own invocations (GlobalInvocationId.x is still
// the invocation within the test). Each test keeps its own expected output
// and verdict: its output words are its slot's.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "flesh/flesh.h"
#include "ir/result.h"

namespace sluice::flesh {

struct BundleSlot {
  std::uint32_t dir_offset = 0;  // words
  std::uint32_t out_offset = 0;
};

struct Bundle {
  std::vector<BundleSlot> slots;          // per test
  std::vector<std::uint32_t> directions;  // every test's directions at its slot
  std::uint32_t output_words = 0;
  std::uint32_t groups = 1;               // one test's workgroups (along x)
  std::string assembly;
  std::vector<std::uint32_t> spirv;

  std::uint32_t tests() const { return static_cast<std::uint32_t>(slots.size()); }
};

// Whether tests can share a bundle: the same mode, invocations and
// workgroup size (the tests of one campaign unit always can).
bool bundle_compatible(const Test& a, const Test& b);

// The bundle of `tests` (at least one, all bundle_compatible), assembled
// with SPIRV-Tools; an error only when it does not assemble (a bug).
Result<Bundle> make_bundle(std::span<const Test* const> tests);

// The bundle's assembly (emit_spirv.cpp).
std::string emit_bundle_assembly(std::span<const Test* const> tests, std::span<const BundleSlot> slots,
                                 std::uint32_t dir_words, std::uint32_t out_words);

}  // namespace sluice::flesh
