// Issue 16's hostile shapes, end to end: λV text → IR → -O0 or -O1 → SPIR-V.
// BM_Doubling: `levels` closed functions, each applying the previous one
// twice (lambdav::generate::doubling without captures). -O0 keeps one small
// IR function per level; -O1's inliner would copy 2^levels bodies without
// its budgets (passes.h, InlineOptions). The whole pipeline is timed; the
// counters give the IR left after the passes and the SPIR-V words — flat
// in `levels` once the budget is reached. docs/limits.md quotes the figures.
// BM_DoublingRefused: the captured variant, which the front end refuses.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "frontend/lambdav/generators.h"
#include "frontend/lambdav/lambdav.h"
#include "module_size.h"
#include "output/spirv/spirv_output.h"
#include "transform/pass_manager.h"

namespace {

using namespace sluice;

void BM_Doubling(benchmark::State& state) {
  const std::string source = lambdav::generate::doubling(static_cast<std::size_t>(state.range(0)), false);
  const char* level = state.range(1) == 0 ? "O0" : "O1";
  std::size_t instructions = 0, words = 0;
  for (auto _ : state) {
    auto compiled = lambdav::compile(source);
    if (!compiled.ok()) {
      state.SkipWithError("the generated program does not compile");
      return;
    }
    transform::PassManager passes;
    if (!passes.run(*compiled.module, *passes.pipeline(level))) {
      state.SkipWithError("the pass pipeline failed");
      return;
    }
    auto spirv = spirv::emit(*compiled.module);
    if (!spirv) {
      state.SkipWithError(spirv.error().c_str());
      return;
    }
    instructions = bench::instruction_count(*compiled.module);
    words = spirv->size();
  }
  state.counters["ir_instructions"] = static_cast<double>(instructions);
  state.counters["spirv_words"] = static_cast<double>(words);
}

// Doubling with captured values, which the front end must inline: past its
// size budget it refuses the program ("program too large") after work
// bounded by that budget, not 2^levels (tests/frontend/lambdav/limits_test.cpp
// checks the refusal; this times it).
void BM_DoublingRefused(benchmark::State& state) {
  const std::string source = lambdav::generate::doubling(static_cast<std::size_t>(state.range(0)), true);
  for (auto _ : state) {
    auto compiled = lambdav::compile(source);
    if (compiled.ok()) {
      state.SkipWithError("the program compiled: the size budget did not stop it");
      return;
    }
    benchmark::DoNotOptimize(compiled.diagnostics.size());
  }
}

}  // namespace

BENCHMARK(BM_DoublingRefused)->Arg(20)->Arg(60)->ArgNames({"levels"})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Doubling)
    ->ArgsProduct({{10, 20, 40, 60}, {0, 1}})
    ->ArgNames({"levels", "O"})
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
