// Times every pass, and -O1, on the shapes of tests/transform/scale_shapes.h
// at 10^5 and 10^6 instructions (and 3*10^5, so that Google Benchmark's
// complexity fit has three points). A linear pass shows time/instruction
// flat across sizes; the BigO line reports the fit.
//
//   build-transform/bench/transform_bench --benchmark_filter=fold
//
// It also measures SPIR-V sizes instead of timing (docs/performance.md):
//
//   build-transform/bench/transform_bench --spirv-sizes FILE...
//
// prints, per file, the words of the SPIR-V module after -O0, after -O1,
// and after inline followed by -O1 (the IR validated after every pass);
// "frontend-failed", "pass-error" or "emit-error" when a step fails, and
// "!invalid" after a size that spirv-val rejects.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/glsl/glsl_frontend.h"
#include "frontend/lambdav/lambdav.h"
#include "output/spirv/spirv_output.h"
#include "validator/validator.h"

#include "../tests/transform/scale_shapes.h"
#include "transform/pass_manager.h"

namespace {

using namespace sluice;
using Shape = ir::Module (*)(std::size_t);

void run_pass(benchmark::State& state, Shape shape, std::string pass) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const ir::Module original = shape(n);
  transform::PassManager pm;
  auto pipeline = pass == "O1" ? pm.pipeline("O1") : pm.parse_pass_list(pass);
  if (!pipeline) {
    state.SkipWithError(pipeline.error().c_str());
    return;
  }
  for (auto _ : state) {
    state.PauseTiming();
    ir::Module m = original;
    state.ResumeTiming();
    auto r = pm.run(m, *pipeline);
    if (!r) state.SkipWithError(r.error().c_str());
    benchmark::DoNotOptimize(m);
  }
  state.SetComplexityN(static_cast<benchmark::IterationCount>(n));
  state.counters["ns/instruction"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// Baseline: copying the module, work that is linear by construction, to
// tell memory-hierarchy effects at 10^6 instructions from the passes' own.
void copy_module(benchmark::State& state, Shape shape) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const ir::Module original = shape(n);
  for (auto _ : state) {
    ir::Module m = original;
    benchmark::DoNotOptimize(m);
    state.PauseTiming();
    { ir::Module gone = std::move(m); }
    state.ResumeTiming();
  }
  state.SetComplexityN(static_cast<benchmark::IterationCount>(n));
  state.counters["ns/instruction"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_all() {
  const std::pair<const char*, Shape> shapes[] = {
      {"straight", testing::scale::straight_line},
      {"nested_ifs", testing::scale::nested_ifs},
      {"calls", testing::scale::many_calls},
      {"memory", testing::scale::memory_traffic},
      {"aggregates", testing::scale::aggregates},
  };
  // Every registered pass, and the -O1 pipeline.
  const transform::PassManager pm;
  std::vector<std::string> passes;
  for (const transform::PassInfo& p : pm.passes()) passes.push_back(p.name);
  passes.push_back("O1");
  for (const auto& [shape_name, shape] : shapes) {
    benchmark::RegisterBenchmark((std::string("copy-module/") + shape_name).c_str(), copy_module, shape)
        ->Arg(100000)
        ->Arg(300000)
        ->Arg(1000000)
        ->Unit(benchmark::kMillisecond)
        ->Complexity(benchmark::oN);
    for (const std::string& pass : passes) {
      const std::string name = pass + "/" + shape_name;
      benchmark::RegisterBenchmark(name.c_str(), run_pass, shape, pass)
          ->Arg(100000)
          ->Arg(300000)
          ->Arg(1000000)
          ->Unit(benchmark::kMillisecond)
          ->Complexity(benchmark::oN);
    }
  }
}

}  // namespace

int spirv_sizes(int argc, char** argv) {
  transform::PassManager pm;
  transform::RunOptions options;
  options.validate = [](const ir::Module& m) {
    std::vector<std::string> out;
    for (const auto& p : validator::validate(m)) out.push_back(validator::describe(m, p));
    return out;
  };
  for (int i = 0; i < argc; ++i) {
    const std::string path = argv[i];
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::optional<ir::Module> module;
    if (path.ends_with(".lv")) {
      lambdav::CompileOptions lo;
      lo.file_name = path;
      module = lambdav::compile(text.str(), lo).module;
    } else {
      glsl_in::Options go;
      go.auto_map_locations = go.auto_map_bindings = path.find("/automap/") != std::string::npos;
      module = glsl_in::compile(text.str(), path, go).module;
    }
    std::string line = path;
    if (!module) {
      std::printf("%s frontend-failed\n", path.c_str());
      continue;
    }
    for (const std::string level : {"O0", "O1", "inline+O1"}) {
      ir::Module m = *module;
      transform::Pipeline pipeline =
          level == "inline+O1" ? *pm.parse_pass_list("inline-functions") : *pm.pipeline(level);
      if (level == "inline+O1") {
        const transform::Pipeline o1 = *pm.pipeline("O1");
        pipeline.stages.insert(pipeline.stages.end(), o1.stages.begin(), o1.stages.end());
      }
      spirv::Options so;
      so.promote_to_ssa = level != "O0";  // the SPIR-V output's own -O0
      std::string cell;
      if (auto runs = pm.run(m, pipeline, options); !runs) {
        cell = "pass-error";
        std::fprintf(stderr, "%s %s: %s\n", path.c_str(), level.c_str(), runs.error().c_str());
      } else if (auto words = spirv::emit(m, so); !words) {
        cell = "emit-error";
      } else {
        cell = std::to_string(words->size()) + (spirv::validate(*words, so.target).empty() ? "" : "!invalid");
      }
      line += " " + level + ":" + cell;
    }
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--spirv-sizes") return spirv_sizes(argc - 2, argv + 2);
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
