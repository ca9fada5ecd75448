// Times the SPIR-V reader (src/frontend/spirv/reader*): parse_binary plus
// read() into the IR, reported as SPIR-V words per second.
//   large:  one fragment shader of N units of 10 instructions (a load, an
//           add, a compare, a selection whose branch uses the add's value
//           in another block — a spilled value — and stores); N = 10^5 gives
//           10^6 instructions. Assembled outside the timing.
//   corpus: glslang's SPIR-V of every ../shared/corpus/exec shader, compiled
//           outside the timing, all read once per iteration.
//
//   build-reader/bench/spirv_reader_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <spirv-tools/libspirv.hpp>

#include "exec/glsl_compiler/glsl_compile.h"
#include "frontend/spirv/reader.h"

namespace {

using namespace sluice;

std::vector<std::uint32_t> large_module(std::size_t units) {
  std::ostringstream s;
  s << R"(OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%float = OpTypeFloat 32
%pf = OpTypePointer Private %float
%po = OpTypePointer Output %float
%pv = OpVariable %pf Private
%out = OpVariable %po Output
%f0 = OpConstant %float 0
%f1 = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
OpBranch %u0
)";
  for (std::size_t i = 0; i < units; ++i) {
    s << "%u" << i << " = OpLabel\n%a" << i << " = OpLoad %float %pv\n%b" << i << " = OpFAdd %float %a" << i
      << " %f1\n%c" << i << " = OpFOrdLessThan %bool %b" << i << " %f0\nOpSelectionMerge %u" << i + 1
      << " None\nOpBranchConditional %c" << i << " %t" << i << " %u" << i + 1 << "\n%t" << i << " = OpLabel\n%d" << i
      << " = OpFMul %float %b" << i << " %b" << i << "\nOpStore %pv %d" << i << "\nOpBranch %u" << i + 1 << "\n";
  }
  s << "%u" << units << " = OpLabel\n%r = OpLoad %float %pv\nOpStore %out %r\nOpReturn\nOpFunctionEnd\n";
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_0);
  std::vector<std::uint32_t> words;
  if (!tools.Assemble(s.str(), &words)) return {};
  return words;
}

std::string_view bytes_of(const std::vector<std::uint32_t>& w) {
  return {reinterpret_cast<const char*>(w.data()), w.size() * 4};
}

void BM_ReadLarge(benchmark::State& state) {
  const auto words = large_module(static_cast<std::size_t>(state.range(0)));
  if (words.empty()) return state.SkipWithError("assembly failed");
  for (auto _ : state) {
    auto m = spirv_in::read_bytes(bytes_of(words));
    if (!m) return state.SkipWithError(m.error().c_str());
    benchmark::DoNotOptimize(m);
  }
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(words.size()), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["words"] = static_cast<double>(words.size());
}
BENCHMARK(BM_ReadLarge)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_ReadCorpus(benchmark::State& state) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(SLUICE_CORPUS_DIR) / "exec";
  std::vector<std::vector<std::uint32_t>> modules;
  std::size_t total = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() != ".frag") continue;
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      auto w = exec::compile_glsl(ss.str(), exec::ShaderStage::Fragment);
      if (!w) continue;
      total += w->size();
      modules.push_back(std::move(*w));
    }
  if (modules.empty()) return state.SkipWithError("the corpus is missing");
  for (auto _ : state)
    for (const auto& w : modules) {
      auto m = spirv_in::read_bytes(bytes_of(w));
      benchmark::DoNotOptimize(m);
    }
  state.counters["words/s"] = benchmark::Counter(static_cast<double>(total), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["modules"] = static_cast<double>(modules.size());
}
BENCHMARK(BM_ReadCorpus)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
