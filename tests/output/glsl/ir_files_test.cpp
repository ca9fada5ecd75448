// IR text files (examples/*.ir and the IR goldens other areas keep in
// tests/golden/*.ir, read back with ir/parse.h): each valid one emits GLSL
// that glslang and spirv-val accept. The IR tests' module with every
// construct (all_constructs.ir, built for the text form) is refused in each
// flavour, naming a construct that flavour of GLSL cannot say.
#include <algorithm>
#include <filesystem>

#include <catch2/catch.hpp>

#include "../../ir/all_constructs.h"
#include "glsl_test_util.h"
#include "golden_file.h"
#include "ir/parse.h"

using namespace sluice;

namespace {

std::vector<std::filesystem::path> ir_files() {
  std::vector<std::filesystem::path> out;
  for (const std::string& dir : {std::string(SLUICE_EXAMPLES_DIR), std::string(SLUICE_GOLDEN_DIR)})
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().extension() == ".ir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("IR text files emit GLSL that glslang accepts") {
  std::size_t emitted = 0;
  for (const auto& path : ir_files()) {
    INFO(path);
    const std::string text = testing::read_file(path.string());
    ir::ParseResult parsed = ir::parse_module(text, path.filename().string());
    INFO(render(parsed.diagnostics, text));
    REQUIRE(parsed.module.has_value());
    if (!validator::validate(*parsed.module).empty()) continue;  // a file about invalid IR
    if (path.filename() == "all_constructs.ir") continue;      // the next test's
    testing::emit_and_compile(*parsed.module);
    ++emitted;
  }
  CHECK(emitted >= 1);
}

TEST_CASE("the IR tests' module with every construct is refused, naming what GLSL cannot say") {
  const ir::Module m = testing::build_all_constructs();
  const std::pair<glsl_out::Options, const char*> expected[] = {
      // Its sampler2DArrayShadow is read with an explicit lod (all_constructs.h).
      {testing::vulkan_450(), "textureLod of a 2D-array depth comparison has no GLSL form"},
      {testing::vulkan_es(), "layout(component) does not exist in GLSL ES"},
      {testing::opengl_450(), "push constant block 'Push' exists only in Vulkan GLSL"},
  };
  for (const auto& [options, why] : expected) {
    auto text = glsl_out::emit(m, options);
    INFO(testing::options_name(options) << ": " << (text.ok() ? *text : text.error()));
    REQUIRE_FALSE(text.ok());
    CHECK_THAT(text.error(), Catch::Contains(why));
  }
}
