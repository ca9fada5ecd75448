// Compile time of generated λV programs, from source text to validated IR,
// at 10^3 to 10^6 syntax nodes per generator (docs/performance.md, "λV front
// end"). The counter nodes/s is the program's node count over the time of
// one compile + validate; a linear compiler keeps it flat across sizes.
#include <benchmark/benchmark.h>

#include <string>

#include "frontend/lambdav/generators.h"
#include "module_size.h"
#include "frontend/lambdav/lambdav.h"
#include "validator/validator.h"

namespace {

using namespace sluice;

template <std::string (*Generate)(std::size_t)>
void compile_to_validated_ir(benchmark::State& state) {
  const std::string source = Generate(static_cast<std::size_t>(state.range(0)));
  std::size_t nodes = 0;
  std::size_t instructions = 0;
  for (auto _ : state) {
    auto r = lambdav::compile(source);
    if (!r.ok()) {
      state.SkipWithError("the generated program does not compile");
      return;
    }
    auto problems = validator::validate(*r.module);
    if (!problems.empty()) {
      state.SkipWithError("the generated program lowers to invalid IR");
      return;
    }
    nodes = r.stats.nodes;
    instructions = sluice::bench::instruction_count(*r.module);
    benchmark::DoNotOptimize(r.module);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsIterationInvariantRate);
}

void nested_lets(benchmark::State& s) { compile_to_validated_ir<lambdav::generate::nested_lets_of_size>(s); }
void arithmetic_chain(benchmark::State& s) { compile_to_validated_ir<lambdav::generate::arithmetic_chain_of_size>(s); }
void nested_rec_funcs(benchmark::State& s) { compile_to_validated_ir<lambdav::generate::nested_rec_funcs_of_size>(s); }

BENCHMARK(nested_lets)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(arithmetic_chain)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(nested_rec_funcs)->RangeMultiplier(10)->Range(1'000, 1'000'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
