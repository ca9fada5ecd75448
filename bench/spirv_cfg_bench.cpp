// Times the structured-control-flow analysis (src/frontend/spirv/cfg:
// structural dominance and post-dominance, back edges, constructs,
// innermost constructs and every rule) on two shapes of valid SPIR-V:
//   chain:  N/6 loops one after the other, each holding an if;
//   nested: N/5 loops nested in one another, each holding an if that holds
//           the next loop.
// N is the number of blocks. The module is assembled outside the timing.
// A linear analysis shows ns/block flat as N doubles (docs/performance.md):
//
//   build-cfg/bench/spirv_cfg_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>

#include "frontend/spirv/cfg/analysis.h"

namespace {

using namespace sluice::spirv_in;

const char* kPreamble = R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%bool = OpTypeBool
%c = OpConstantTrue %bool
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
)";

// Loop header %h<i> (merge %m<i>, continue %c<i>) branching to %s<i>, an
// if header merging at %t<i>, up to its OpBranchConditional's targets.
void loop_and_if_header(std::ostringstream& s, std::size_t i) {
  s << "%h" << i << " = OpLabel\nOpLoopMerge %m" << i << " %c" << i << " None\nOpBranch %s" << i << "\n"
    << "%s" << i << " = OpLabel\nOpSelectionMerge %t" << i << " None\nOpBranchConditional %c ";
}

std::string chain(std::size_t blocks) {
  std::ostringstream s;
  s << kPreamble << "OpBranch %h0\n";
  const std::size_t n = blocks / 6;
  for (std::size_t i = 0; i < n; ++i) {
    loop_and_if_header(s, i);
    s << "%a" << i << " %t" << i << "\n%a" << i << " = OpLabel\nOpBranch %t" << i << "\n%t" << i << " = OpLabel\nOpBranch %c" << i << "\n%c" << i
      << " = OpLabel\nOpBranchConditional %c %h" << i << " %m" << i << "\n%m" << i << " = OpLabel\n";
    if (i + 1 < n)
      s << "OpBranch %h" << i + 1 << "\n";
    else
      s << "OpReturn\n";
  }
  s << "OpFunctionEnd\n";
  return s.str();
}

std::string nested(std::size_t blocks) {
  std::ostringstream s;
  s << kPreamble << "OpBranch %h0\n";
  const std::size_t d = blocks / 5;
  for (std::size_t i = 0; i < d; ++i) {
    loop_and_if_header(s, i);
    if (i + 1 < d)
      s << "%h" << i + 1;
    else
      s << "%t" << i;
    s << " %t" << i << "\n";
  }
  for (std::size_t k = d; k-- > 0;) {
    s << "%t" << k << " = OpLabel\nOpBranch %c" << k << "\n%c" << k << " = OpLabel\nOpBranchConditional %c %h" << k
      << " %m" << k << "\n%m" << k << " = OpLabel\n";
    if (k > 0)
      s << "OpBranch %t" << k - 1 << "\n";
    else
      s << "OpReturn\n";
  }
  s << "OpFunctionEnd\n";
  return s.str();
}

void run(benchmark::State& state, std::string (*shape)(std::size_t)) {
  const ParseResult r = parse_assembly(shape(static_cast<std::size_t>(state.range(0))));
  if (!r.ok()) {
    state.SkipWithError(r.error().describe().c_str());
    return;
  }
  const Module& m = r.value();
  const std::size_t blocks = m.functions[0].blocks.size();
  for (auto _ : state) {
    const cfg::FunctionCfg f = cfg::analyze(m, m.functions[0]);
    if (!f.valid()) state.SkipWithError(("invalid: " + f.violations()[0].message).c_str());
    benchmark::DoNotOptimize(f.constructs().data());
  }
  state.SetComplexityN(static_cast<benchmark::IterationCount>(blocks));
  state.counters["blocks"] = static_cast<double>(blocks);
  state.counters["ns/block"] = benchmark::Counter(static_cast<double>(blocks),
                                                  benchmark::Counter::kIsIterationInvariantRate |
                                                      benchmark::Counter::kInvert);
}

void BM_chain(benchmark::State& state) { run(state, chain); }
void BM_nested(benchmark::State& state) { run(state, nested); }

BENCHMARK(BM_chain)->RangeMultiplier(2)->Range(1 << 14, 1 << 18)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);
BENCHMARK(BM_nested)->RangeMultiplier(2)->Range(1 << 14, 1 << 18)->Unit(benchmark::kMillisecond)->Complexity(benchmark::oN);

}  // namespace

BENCHMARK_MAIN();
