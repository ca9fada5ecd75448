// SPIR-V emission on generated λV programs of 10^3 to 10^6 syntax nodes
// (docs/performance.md, "SPIR-V output"). Each program is compiled to IR
// and run once, untimed, through the -O0 pipeline (what lowering produces)
// or the -O1 pipeline (what `sluice compile` emits by default; it folds
// nested_lets to a constant); the timed step is spirv::emit with its
// defaults (SSA promotion on). The
// counters: SPIR-V words/s, IR instructions/s and SPIR-V words per λV node —
// flat across sizes when emission and its output grow linearly.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "frontend/lambdav/generators.h"
#include "module_size.h"
#include "frontend/lambdav/lambdav.h"
#include "output/spirv/spirv_output.h"
#include "transform/pass_manager.h"

namespace {

using sluice::bench::instruction_count;

using namespace sluice;

template <std::string (*Generate)(std::size_t)>
void emit_lambdav_program(benchmark::State& state) {
  auto compiled = lambdav::compile(Generate(static_cast<std::size_t>(state.range(0))));
  if (!compiled.ok()) {
    state.SkipWithError("the generated program does not compile");
    return;
  }
  ir::Module& module = *compiled.module;
  transform::PassManager passes;
  auto pipeline = passes.pipeline(state.range(1) == 0 ? "O0" : "O1");
  if (!pipeline || !passes.run(module, *pipeline)) {
    state.SkipWithError("the -O1 pipeline failed");
    return;
  }
  std::size_t words = 0;
  for (auto _ : state) {
    auto spirv = spirv::emit(module);
    if (!spirv) {
      state.SkipWithError(spirv.error().c_str());
      return;
    }
    words = spirv->size();
    benchmark::DoNotOptimize(spirv->data());
  }
  const auto nodes = static_cast<double>(compiled.stats.nodes);
  const auto instructions = static_cast<double>(instruction_count(module));
  state.counters["nodes"] = nodes;
  state.counters["ir_instr"] = instructions;
  state.counters["words"] = static_cast<double>(words);
  state.counters["words/node"] = static_cast<double>(words) / nodes;
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(words), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["instr/s"] = benchmark::Counter(instructions, benchmark::Counter::kIsIterationInvariantRate);
}

void nested_lets(benchmark::State& s) { emit_lambdav_program<lambdav::generate::nested_lets_of_size>(s); }
void arithmetic_chain(benchmark::State& s) { emit_lambdav_program<lambdav::generate::arithmetic_chain_of_size>(s); }
void nested_rec_funcs(benchmark::State& s) { emit_lambdav_program<lambdav::generate::nested_rec_funcs_of_size>(s); }

void sizes_and_pipelines(benchmark::internal::Benchmark* b) {
  b->ArgNames({"nodes", "O"})->ArgsProduct({{1'000, 10'000, 100'000, 1'000'000}, {0, 1}})->Unit(benchmark::kMillisecond);
}

BENCHMARK(nested_lets)->Apply(sizes_and_pipelines);
BENCHMARK(arithmetic_chain)->Apply(sizes_and_pipelines);
BENCHMARK(nested_rec_funcs)->Apply(sizes_and_pipelines);

}  // namespace

BENCHMARK_MAIN();
