// loop-top-exit-test (docs/workarounds.md): the IR text cases of
// tests/transform/passes/loop-top-exit-test (whose before/after dumps
// pass_text_test.cpp checks against tests/golden/passes) run by the IR
// interpreter before and after the rewrite compute the same output, which
// is also computed here directly from the shaders' GLSL sources.
#include <filesystem>
#include <functional>
#include <string>

#include <catch2/catch.hpp>

#include "golden_file.h"
#include "ir_interpreter.h"
#include "text_form_util.h"

using namespace sluice;
using namespace sluice::testing;

namespace {

std::string case_text(const std::string& name) {
  const auto dir = std::filesystem::path(SLUICE_GOLDEN_DIR).parent_path() / "transform" / "passes" / "loop-top-exit-test";
  return read_file((dir / name).string());
}

std::int32_t output_of(const ir::Module& m, std::int32_t x) {
  const IrRun run = run_ir(m, {{"x", {static_cast<std::uint32_t>(x)}}});
  INFO(run.error);
  REQUIRE(run.ok);
  return static_cast<std::int32_t>(run.outputs.at("o").at(0));
}

std::int32_t while_true_break(std::int32_t x) {
  std::int32_t acc = 5, i = 0;
  while (true) {
    acc = (acc ^ 123) + i * x;
    i++;
    if (acc > 1000 || i > 20) break;
  }
  return acc ^ 77;
}

// Each case: its file and what its GLSL computes (the case's source, as C++).
struct Case {
  const char* file;
  std::function<std::int32_t(std::int32_t)> expected;
  bool rewritten;
};

const Case kCases[] = {
    {"while-true-break.ir",  // while (true) { acc = (acc ^ 123) + i * x; i++; if (acc > 1000 || i > 20) break; } o = acc ^ 77;
     while_true_break,
     true},
    {"condition-chain.ir",  // the same, with the update moved into the loop's condition block
     while_true_break,
     true},
    {"do-while.ir",  // do { acc = (acc ^ 123) + i * x; i++; } while (acc < 1000 && i < 20); o = acc;
     [](std::int32_t x) {
       std::int32_t acc = 5, i = 0;
       do {
         acc = (acc ^ 123) + i * x;
         i++;
       } while (acc < 1000 && i < 20);
       return acc;
     },
     true},
    {"nested.ir",  // while (true) { j = 0; do { acc = acc*3 + j + x; j++; } while (acc % 7 != 0 && j < 5); ... }
     [](std::int32_t x) {
       std::int32_t acc = 5, i = 0, j = 0;
       while (true) {
         j = 0;
         do {
           acc = acc * 3 + j + x;
           j++;
         } while (acc % 7 != 0 && j < 5);
         i++;
         if (i > 10 || acc > 100000) break;
       }
       return acc + j;
     },
     true},
    {"keeps-condition-in-header.ir",  // while (i < x) { ...; if (acc > 1000) break; }: tests first already
     [](std::int32_t x) {
       std::int32_t acc = 5, i = 0;
       while (i < x) {
         acc = (acc ^ 123) + i;
         i++;
         if (acc > 1000) break;
       }
       return acc;
     },
     false},
};

}  // namespace

TEST_CASE("loop-top-exit-test keeps what each loop computes") {
  for (const Case& c : kCases) {
    INFO(c.file);
    const std::string text = case_text(c.file);
    const ir::Module before = parse_text(text);
    ir::Module after = parse_text(text);
    CHECK(run_passes(after, "loop-top-exit-test") == c.rewritten);
    require_valid(after);
    for (std::int32_t x : {-7, -1, 0, 1, 2, 3, 50, 1000}) {
      INFO("x = " << x);
      const std::int32_t want = c.expected(x);
      CHECK(output_of(before, x) == want);
      CHECK(output_of(after, x) == want);
    }
  }
}

// Sets the initial value of the counters the rewrite declared.
void start_counters_at(ir::Module& m, std::uint32_t lo, std::uint32_t hi) {
  int found = 0;
  for (std::uint32_t v = 0; v < m.variable_count(); ++v) {
    ir::Variable& var = m.variable(ir::VariableId(v));
    if (var.name.text == "loop_count_lo") var.initializer = m.uint_constant(lo), ++found;
    if (var.name.text == "loop_count_hi") var.initializer = m.uint_constant(hi), ++found;
  }
  REQUIRE(found == 2);
}

TEST_CASE("loop-top-exit-test leaves a loop when its two counting words wrap, and only then") {
  // while (true) { acc = (acc ^ 123) + i * x; ... }  o = acc ^ 77: left by
  // the test before the body runs, o is 5 ^ 77 (the do-while's o = acc: 5).
  for (const char* file : {"while-true-break.ir", "do-while.ir"}) {
    INFO(file);
    const std::int32_t x = 3;
    ir::Module m = parse_text(case_text(file));
    REQUIRE(run_passes(m, "loop-top-exit-test"));
    const std::int32_t normal = output_of(m, x);
    // One step before 2^64 iterations: the first test wraps both words.
    start_counters_at(m, 0xFFFFFFFFu, 0xFFFFFFFFu);
    const std::int32_t at_wrap = output_of(m, x);
    CHECK(at_wrap == (std::string(file) == "do-while.ir" ? 5 : (5 ^ 77)));
    CHECK(at_wrap != normal);
    // The low word alone wrapping carries into the high one: no exit.
    start_counters_at(m, 0xFFFFFFFFu, 0);
    CHECK(output_of(m, x) == normal);
    // Two steps before: one iteration runs (acc = 5 ^ 123 = 126), then the test fires.
    start_counters_at(m, 0xFFFFFFFEu, 0xFFFFFFFFu);
    CHECK(output_of(m, x) == (std::string(file) == "do-while.ir" ? 126 : (126 ^ 77)));
  }
}
