// λV → GLSL: every bundled example emits in every version and flavour and
// compiles with glslang; goldens show them as 450 Vulkan GLSL. The IR the
// GLSL front end builds from our text computes the same colour as the λV
// program's IR (the λV tests' IR evaluator runs both).

#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "frontend/lambdav/lambdav.h"
#include "glsl_test_util.h"
#include "golden_file.h"
#include "frontend/glsl/glsl_frontend.h"
#include "fragment_eval.h"

using namespace sluice;

namespace {

std::vector<std::filesystem::path> examples() {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::directory_iterator(SLUICE_EXAMPLES_DIR))
    if (e.path().extension() == ".lv") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

ir::Module compile_lv(const std::filesystem::path& path) {
  const std::string source = testing::read_file(path.string());
  lambdav::CompileOptions options;
  options.file_name = path.filename().string();
  auto r = lambdav::compile(source, options);
  INFO(path << "\n" << render(r.diagnostics, source));
  REQUIRE(r.ok());
  return std::move(*r.module);
}

}  // namespace

TEST_CASE("every λV example emits GLSL that glslang accepts, in every version and flavour") {
  const auto files = examples();
  REQUIRE(files.size() >= 3);
  for (const auto& path : files) {
    INFO(path);
    const ir::Module m = compile_lv(path);
    const std::string text = testing::emit_and_compile(m);
    testing::check_golden("glsl/lambdav_" + path.stem().string() + ".glsl", text);
    for (const auto& options : {testing::vulkan_es(), testing::opengl_450(), testing::opengl_es()})
      testing::emit_and_compile(m, options);
  }
}

TEST_CASE("λV examples through GLSL compute the colours of their own IR") {
  int compared = 0;
  for (const auto& path : examples()) {
    INFO(path);
    const ir::Module first = compile_lv(path);
    const std::string text = *glsl_out::emit(first, {});
    INFO(text);
    glsl_in::Result second = glsl_in::compile(text, path.stem().string() + ".frag");
    INFO(render(second.diagnostics, text));
    REQUIRE(second.module.has_value());
    for (const std::array<float, 4> coord : {std::array<float, 4>{0.5f, 0.5f, 0, 1}, {100.5f, 37.5f, 0, 1},
                                             {224.5f, 128.5f, 0, 1}}) {
      testing::EvalInputs inputs;
      inputs.frag_coord = coord;
      try {
        const auto want = testing::evaluate(first, inputs);
        const auto got = testing::evaluate(*second.module, inputs);
        REQUIRE(want.size() == got.size());
        for (const auto& [location, value] : want) {
          REQUIRE(got.count(location) == 1);
          REQUIRE(got.at(location).size() == value.size());
          for (std::size_t i = 0; i < value.size(); ++i) CHECK(got.at(location)[i] == Approx(value[i]));
        }
        ++compared;
      } catch (const testing::EvalError& e) {
        FAIL(path.filename() << ": the reference evaluator cannot run this IR: " << e.what());
      }
    }
  }
  CHECK(compared > 0);
}

