// GLSL output: emission speed and output size.
//   BM_EmitCorpus/exec   the 652 GraphicsFuzz fragment shaders of
//   BM_EmitCorpus/glsl   ../shared/corpus (exec/), and glslang's test shaders
//                        (glsl/ + glsl/automap/), through the GLSL front end
//                        once (not timed); each iteration emits every module
//                        as Vulkan GLSL (450, or 310 es for ES sources).
//   BM_EmitNestedIfs/N   N nested Ifs, and
//   BM_EmitChain/N       N chained arithmetic instructions, for linearity.
//   BM_EmitUnusedAccesses/N  N access chains nothing uses (`a[1];`) in one
//                        block: work per chain that scans the block shows
//                        as ns_per_instruction growing with N.
// Counters: ns_per_instruction (CPU time over the IR's instructions),
// bytes (GLSL text per iteration), instructions. docs/performance.md
// ("GLSL output") has the figures.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/glsl/glsl_frontend.h"
#include "module_size.h"
#include "ir/builder.h"
#include "output/glsl/glsl_output.h"

namespace {

using sluice::bench::instruction_count;

using namespace sluice;

struct Compiled {
  ir::Module module;
  glsl_out::Options options;
};

std::vector<Compiled> load(const std::vector<std::pair<std::string, bool>>& dirs) {
  std::vector<Compiled> out;
  static const std::regex es("#version\\s+\\d+\\s+es");
  for (const auto& [dir, automap] : dirs) {
    std::vector<std::string> paths;
    for (const auto& e : std::filesystem::directory_iterator(std::string(SLUICE_CORPUS_DIR) + "/" + dir))
      if (e.is_regular_file() && glsl_in::stage_from_path(e.path().string())) paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      std::ifstream in(p, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      glsl_in::Options o;
      o.auto_map_locations = o.auto_map_bindings = automap;
      glsl_in::Result r = glsl_in::compile(ss.str(), p, o);
      if (!r.module) continue;
      glsl_out::Options options;
      if (std::regex_search(ss.str(), es)) options.version = glsl_out::GlslVersion::V310es;
      if (!glsl_out::emit(*r.module, options).ok()) continue;
      out.push_back({std::move(*r.module), options});
    }
  }
  return out;
}

const std::vector<Compiled>& corpus(int which) {
  static const std::vector<Compiled> exec = load({{"exec", false}});
  static const std::vector<Compiled> glslang = load({{"glsl", false}, {"glsl/automap", true}});
  return which == 0 ? exec : glslang;
}

void BM_EmitCorpus(benchmark::State& state) {
  const auto& shaders = corpus(static_cast<int>(state.range(0)));
  std::size_t bytes = 0, instructions = 0;
  for (const auto& s : shaders) instructions += instruction_count(s.module);
  for (auto _ : state) {
    bytes = 0;
    for (const auto& s : shaders) {
      auto text = glsl_out::emit(s.module, s.options);
      bytes += text->size();
      benchmark::DoNotOptimize(text);
    }
  }
  state.counters["shaders"] = static_cast<double>(shaders.size());
  state.counters["instructions"] = static_cast<double>(instructions);
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["ns_per_instruction"] = benchmark::Counter(
      static_cast<double>(instructions) * 1e-9, benchmark::Counter::kIsIterationInvariantRate |
                                                    benchmark::Counter::kInvert);
  state.counters["us_per_shader"] = benchmark::Counter(static_cast<double>(shaders.size()) * 1e-6,
                                                       benchmark::Counter::kIsIterationInvariantRate |
                                                           benchmark::Counter::kInvert);
}
BENCHMARK(BM_EmitCorpus)->Arg(0)->Arg(1)->ArgName("exec0_glsl1")->Unit(benchmark::kMillisecond);

// The synthetic shaders' interface: `vec4 color` out, `float x` in, both at
// location 0; then main begins.
struct Interface {
  ir::VariableId color, x;
};
Interface begin_main(ir::Builder& b) {
  ir::Decorations d;
  d.location = 0;
  const auto color = b.add_global({"color", ir::NameSource::Interface}, ir::predefined::kVec4, ir::StorageClass::Output,
                                  ir::Precision::None, d);
  const auto x = b.add_global({"x", ir::NameSource::Interface}, ir::predefined::kFloat, ir::StorageClass::Input,
                              ir::Precision::None, d);
  b.begin_function({"main", ir::NameSource::Internal}, ir::predefined::kVoid);
  return {color, x};
}

ir::Module nested_ifs(int depth) {
  ir::Module m(ir::ShaderStage::Fragment);
  ir::Builder b(m);
  const auto [color, x] = begin_main(b);
  std::vector<ir::BlockId> merges;
  for (int k = 0; k < depth; ++k) {
    const auto c = *b.emit(ir::Opcode::GreaterThan, {*b.load(x), m.float_constant(static_cast<float>(k))});
    const auto w = *b.branch_if(c, false);
    merges.push_back(w.merge);
    b.set_block(w.true_block);
  }
  (void)b.store(color, *b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {*b.load(x)}));
  (void)b.terminate(ir::Opcode::Merge);
  for (int k = depth - 1; k >= 0; --k) {
    b.set_block(merges[static_cast<std::size_t>(k)]);
    (void)b.terminate(k == 0 ? ir::Opcode::Return : ir::Opcode::Merge);
  }
  return m;
}

ir::Module chain(int length) {
  ir::Module m(ir::ShaderStage::Fragment);
  ir::Builder b(m);
  const auto [color, x] = begin_main(b);
  ir::RegisterId acc = *b.load(x);
  for (int k = 0; k < length; ++k)
    acc = *b.emit(k % 2 ? ir::Opcode::Add : ir::Opcode::Mul, {acc, m.float_constant(1.0f + static_cast<float>(k % 7))});
  (void)b.store(color, *b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {acc}));
  (void)b.terminate(ir::Opcode::Return);
  return m;
}

void emit_synthetic(benchmark::State& state, const ir::Module& m) {
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto text = glsl_out::emit(m, {});
    bytes = text->size();
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["ns_per_instruction"] = benchmark::Counter(
      static_cast<double>(instruction_count(m)) * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_EmitNestedIfs(benchmark::State& state) {
  const ir::Module m = nested_ifs(static_cast<int>(state.range(0)));
  emit_synthetic(state, m);
}
BENCHMARK(BM_EmitNestedIfs)->Arg(10'000)->Arg(100'000)->Unit(benchmark::kMillisecond);

void BM_EmitChain(benchmark::State& state) {
  const ir::Module m = chain(static_cast<int>(state.range(0)));
  emit_synthetic(state, m);
}
BENCHMARK(BM_EmitChain)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

// `float a[4]; a[k % 4];` N times, then the output (x is not read).
ir::Module unused_accesses(int count) {
  ir::Module m(ir::ShaderStage::Fragment);
  ir::Builder b(m);
  const ir::VariableId color = begin_main(b).color;
  const ir::TypeId array = m.intern(ir::Type::make_array(ir::predefined::kFloat, 4));
  const auto a = b.declare_local({"a", ir::NameSource::Temporary}, array);
  for (int k = 0; k < count; ++k) (void)*b.emit(ir::Opcode::AccessArrayElement, {a, m.int_constant(k % 4)});
  (void)b.store(color, *b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {m.float_constant(1.0f)}));
  (void)b.terminate(ir::Opcode::Return);
  return m;
}

void BM_EmitUnusedAccesses(benchmark::State& state) {
  const ir::Module m = unused_accesses(static_cast<int>(state.range(0)));
  emit_synthetic(state, m);
}
BENCHMARK(BM_EmitUnusedAccesses)->Arg(1'000)->Arg(10'000)->Arg(30'000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
