// Every pass at 10^5 and 10^6 instructions, on a flat block, deeply nested
// Ifs, many small calls and memory traffic: each must complete and leave
// valid IR (the validator runs after each pass at 10^5, after O1 at 10^6).
// Nothing here is timed (bench/transform_bench.cpp times the same shapes).
#include <catch2/catch.hpp>

#include "scale_shapes.h"
#include "transform/pass_manager.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::transform;

namespace {

// Validity is checked after every pass at 10^5 instructions (the rules do
// not depend on size, and validating 10^6 after each of the passes would add
// half a minute of ctest time); at 10^6 after the O1 pipeline.
void run_each_pass(const Module& original) {
  const bool validate_each = testing::count_all_instructions(original) <= 200000;
  if (validate_each) testing::require_valid(original);
  PassManager pm;
  for (const PassInfo& pass : pm.passes()) {
    Module m = original;
    auto r = pass.run(m);
    INFO(pass.name << ": " << (r.ok() ? std::string() : r.error()));
    REQUIRE(r.ok());
    if (validate_each) testing::require_valid(m);
  }
  Module m = original;
  RunOptions options;
  auto runs = pm.run(m, *pm.pipeline("O1"), options);
  REQUIRE(runs.ok());
  testing::require_valid(m);
}

}  // namespace

TEST_CASE("every pass completes on 10^5 and 10^6 instructions") {
  const std::size_t n = GENERATE(std::size_t{100000}, std::size_t{1000000});
  SECTION("one straight block") {
    const Module m = testing::scale::straight_line(n);
    CHECK(testing::count_all_instructions(m) >= n - 6);
    run_each_pass(m);
  }
  SECTION("nested Ifs") {
    const Module m = testing::scale::nested_ifs(n);
    run_each_pass(m);
  }
  SECTION("many calls") {
    const Module m = testing::scale::many_calls(n);
    run_each_pass(m);
  }
  SECTION("memory traffic in nested Ifs") {
    const Module m = testing::scale::memory_traffic(n);
    run_each_pass(m);
  }
  SECTION("aggregates and swizzles") {
    const Module m = testing::scale::aggregates(n);
    run_each_pass(m);
  }
}

TEST_CASE("O1 on the large shapes gives what the small rules predict") {
  // Straight line: the constant chain folds, the commuted duplicates go,
  // the dead Sins go: four instructions a step remain.
  Module m = testing::scale::straight_line(60000);
  PassManager pm;
  RunOptions options;
  auto runs = pm.run(m, *pm.pipeline("O1"), options);
  REQUIRE(runs.ok());
  CHECK(testing::count_instructions(m, Opcode::Sin) == 0);
  CHECK(testing::count_instructions(m, Opcode::Add) == 2 * 10000);
  CHECK(testing::count_instructions(m, Opcode::Mul) == 10000);
  // Nested Ifs: the constant ones are gone; of the 5000 on a run-time
  // condition, convert-ifs turns the innermost into a Select, and in each
  // later round of the fixpoint (8 at most) the one around it, while the
  // computations its branches would hoist stay few.
  Module nested = testing::scale::nested_ifs(60000);
  auto nested_runs = pm.run(nested, *pm.pipeline("O1"), options);
  REQUIRE(nested_runs.ok());
  const std::size_t ifs = testing::count_instructions(nested, Opcode::If);
  CHECK(ifs < 5000);
  CHECK(ifs >= 5000 - 8);
  testing::require_valid(nested);
  // Aggregates: every struct and array is split, every swizzle folded:
  // per step one Add of the running sum and the constant 0.5 remains.
  Module aggregates = testing::scale::aggregates(14 * 5000);
  auto aggregate_runs = pm.run(aggregates, *pm.pipeline("O1"), options);
  REQUIRE(aggregate_runs.ok());
  testing::require_valid(aggregates);
  CHECK(testing::count_instructions(aggregates, Opcode::AccessStructField) == 0);
  CHECK(testing::count_instructions(aggregates, Opcode::AccessArrayElement) == 0);
  CHECK(testing::count_instructions(aggregates, Opcode::Add) == 5000);
  CHECK(testing::count_instructions(aggregates, Opcode::Load) == 1);
}
