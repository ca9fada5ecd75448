// GLSL text to validated IR, next to glslang's own work on the same
// shaders. For each corpus set (../shared/corpus: exec/, the 652 GraphicsFuzz
// fragment shaders; glsl/ + glsl/automap/, glslang's test shaders):
//   BM_Glslang      glslang alone: parse, link and map I/O, as
//                   sluice::glsl_in::compile drives it (the floor);
//   BM_GlslangOnThread  the same on a fresh thread with compile()'s 256 MiB
//                   stack, as compile() runs it (the thread's own cost);
//   BM_SluiceToIR   sluice::glsl_in::compile: the above, plus Sluice's AST walk
//                   and IR building;
//   BM_SluiceValid  compile, then the IR validator over the module.
// The difference BM_SluiceToIR - BM_Glslang is Sluice's cost; of it,
// BM_GlslangOnThread - BM_Glslang is the large-stack thread's. Each
// iteration compiles every shader of the set once; `per_shader` is the CPU
// time per shader, of the whole process: compile() runs glslang and the
// walk on a thread of its own, which the calling thread's CPU time would
// miss. Run with --benchmark_repetitions=N and read the medians
// (docs/performance.md, "GLSL front end").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <pthread.h>

#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>

#include "frontend/glsl/glsl_frontend.h"
#include "validator/validator.h"

namespace {

struct Shader {
  std::string path;
  std::string source;
  sluice::ir::ShaderStage stage;
  bool automap = false;
};

std::vector<Shader> load(const std::vector<std::pair<std::string, bool>>& dirs) {
  std::vector<Shader> out;
  for (const auto& [dir, automap] : dirs) {
    std::vector<std::string> paths;
    for (const auto& e : std::filesystem::directory_iterator(std::string(SLUICE_CORPUS_DIR) + "/" + dir))
      if (e.is_regular_file() && sluice::glsl_in::stage_from_path(e.path().string())) paths.push_back(e.path().string());
    std::sort(paths.begin(), paths.end());
    for (const auto& p : paths) {
      std::ifstream in(p, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({p, ss.str(), *sluice::glsl_in::stage_from_path(p), automap});
    }
  }
  return out;
}

const std::vector<Shader>& exec_set() {
  static const std::vector<Shader> s = load({{"exec", false}});
  return s;
}
const std::vector<Shader>& glslang_set() {
  static const std::vector<Shader> s = load({{"glsl", false}, {"glsl/automap", true}});
  return s;
}

sluice::glsl_in::Options options_for(const Shader& s) {
  sluice::glsl_in::Options o;
  o.auto_map_locations = o.auto_map_bindings = s.automap;
  return o;
}

EShLanguage glslang_stage(sluice::ir::ShaderStage s) {
  switch (s) {
    case sluice::ir::ShaderStage::Vertex: return EShLangVertex;
    case sluice::ir::ShaderStage::Compute: return EShLangCompute;
    default: return EShLangFragment;
  }
}

// glslang's part of sluice::glsl_in::compile, on this thread.
bool glslang_only(const Shader& s) {
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
  const EShLanguage lang = glslang_stage(s.stage);
  glslang::TShader shader(lang);
  const char* strings[] = {s.source.c_str()};
  const int lengths[] = {static_cast<int>(s.source.size())};
  const char* names[] = {s.path.c_str()};
  shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, lang, glslang::EShClientVulkan, 100);
  shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
  shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
  shader.setAutoMapLocations(s.automap);
  shader.setAutoMapBindings(s.automap);
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  if (!shader.parse(GetDefaultResources(), 100, false, messages)) return false;
  glslang::TProgram program;
  program.addShader(&shader);
  return program.link(messages) && program.mapIO();
}

void report(benchmark::State& state, std::size_t shaders, std::size_t ok) {
  state.counters["shaders"] = static_cast<double>(shaders);
  state.counters["ok"] = static_cast<double>(ok);
  state.counters["per_shader"] = benchmark::Counter(static_cast<double>(shaders),
                                                    benchmark::Counter::kIsIterationInvariantRate |
                                                        benchmark::Counter::kInvert);
}

template <const std::vector<Shader>& (*Set)()>
void BM_Glslang(benchmark::State& state) {
  const auto& set = Set();
  std::size_t ok = 0;
  for (auto _ : state) {
    ok = 0;
    for (const Shader& s : set) ok += glslang_only(s) ? 1 : 0;
  }
  report(state, set.size(), ok);
}

template <const std::vector<Shader>& (*Set)()>
void BM_GlslangOnThread(benchmark::State& state) {
  const auto& set = Set();
  std::size_t ok = 0;
  struct Job {
    const Shader* shader;
    bool ok;
  };
  for (auto _ : state) {
    ok = 0;
    for (const Shader& s : set) {
      Job job{&s, false};
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      pthread_attr_setstacksize(&attr, std::size_t{256} << 20);
      pthread_t thread;
      if (pthread_create(
              &thread, &attr,
              [](void* p) -> void* {
                auto* j = static_cast<Job*>(p);
                j->ok = glslang_only(*j->shader);
                return nullptr;
              },
              &job) == 0)
        pthread_join(thread, nullptr);
      pthread_attr_destroy(&attr);
      ok += job.ok ? 1 : 0;
    }
  }
  report(state, set.size(), ok);
}

template <const std::vector<Shader>& (*Set)()>
void BM_SluiceToIR(benchmark::State& state) {
  const auto& set = Set();
  std::size_t ok = 0;
  for (auto _ : state) {
    ok = 0;
    for (const Shader& s : set) {
      auto r = sluice::glsl_in::compile(s.source, s.path, options_for(s));
      ok += r.module ? 1 : 0;
      benchmark::DoNotOptimize(r);
    }
  }
  report(state, set.size(), ok);
}

template <const std::vector<Shader>& (*Set)()>
void BM_SluiceValid(benchmark::State& state) {
  const auto& set = Set();
  std::size_t ok = 0;
  for (auto _ : state) {
    ok = 0;
    for (const Shader& s : set) {
      auto r = sluice::glsl_in::compile(s.source, s.path, options_for(s));
      if (r.module && sluice::validator::validate(*r.module).empty()) ++ok;
    }
  }
  report(state, set.size(), ok);
}

}  // namespace

BENCHMARK_TEMPLATE(BM_Glslang, exec_set)->Name("BM_Glslang/exec")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_GlslangOnThread, exec_set)->Name("BM_GlslangOnThread/exec")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_SluiceToIR, exec_set)->Name("BM_SluiceToIR/exec")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_SluiceValid, exec_set)->Name("BM_SluiceValid/exec")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_Glslang, glslang_set)->Name("BM_Glslang/glsl")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_GlslangOnThread, glslang_set)->Name("BM_GlslangOnThread/glsl")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_SluiceToIR, glslang_set)->Name("BM_SluiceToIR/glsl")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();
BENCHMARK_TEMPLATE(BM_SluiceValid, glslang_set)->Name("BM_SluiceValid/glsl")->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

BENCHMARK_MAIN();
