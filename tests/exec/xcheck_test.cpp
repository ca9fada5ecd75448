// xcheck helpers: identical SPIR-V agrees, a flipped comparison is reported
// with the first differing pixel; Amber variants; SPIR-V file loading; and
// the loader fallback that finds lavapipe when no driver is found.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "exec/xcheck.h"
#include "corpus.h"
#include "exec_test_support.h"

using namespace sluice::exec;

namespace {

const char* const kThreshold = R"(#version 450
layout(set = 0, binding = 0) uniform U { float threshold; };
layout(location = 0) out vec4 color;
void main() {
  float u = gl_FragCoord.x / 16.0;
  color = u < 0.5 ? vec4(1.0, 0.0, 0.0, 1.0) : vec4(0.0, 0.0, 1.0, 1.0);
})";

}  // namespace

TEST_CASE("xcheck of a bare shader: same SPIR-V agrees, flipped comparison mismatches") {
  Runner& runner = test::shared_runner();
  const auto reference = test::compile(kThreshold);
  auto flipped = reference;
  REQUIRE(test::flip_less_than(flipped) >= 1);
  ShaderRunSettings settings;
  settings.draw.width = 16;
  settings.draw.height = 4;
  auto report = xcheck_shader(runner, reference, {{"same", reference}, {"flipped", flipped}}, settings);
  REQUIRE(report.ok());
  REQUIRE(report->variants.size() == 2);
  CHECK(report->variants[0].agrees());
  CHECK_FALSE(report->ok());
  const auto& bad = report->variants[1];
  REQUIRE(bad.mismatch.has_value());
  // The first pixel is red in the reference and blue in the flipped shader.
  CHECK(bad.mismatch->where == "location 0, pixel (0, 0), channel R");
  CHECK_THAT(report->describe(), Catch::Contains("same: agrees") && Catch::Contains("flipped: MISMATCH"));
}

TEST_CASE("xcheck of an Amber file runs every variant against the script's SPIR-V") {
  Runner& runner = test::shared_runner();
  const std::string path = sluice::testing::corpus_file("exec/cov-access-array-dot.amber");
  AmberVariant same{"same", [](const amber::ShaderDecl&, const std::vector<uint32_t>& words) {
                      return sluice::Result<std::vector<uint32_t>>(words);
                    }};
  AmberVariant flipped{"flipped", [](const amber::ShaderDecl&, const std::vector<uint32_t>& words) {
                         auto copy = words;
                         test::flip_less_than(copy);
                         return sluice::Result<std::vector<uint32_t>>(copy);
                       }};
  AmberVariant broken{"broken", [](const amber::ShaderDecl&, const std::vector<uint32_t>&) {
                        return sluice::Result<std::vector<uint32_t>>(sluice::Error{"no SPIR-V for you"});
                      }};
  auto report = xcheck_amber(runner, path, {same, flipped, broken});
  REQUIRE(report.ok());
  CHECK(report->reference_passed);
  CHECK(report->variants[0].agrees());
  CHECK(report->variants[0].expects_passed);
  CHECK(report->variants[1].mismatch.has_value());
  CHECK_FALSE(report->variants[1].expects_passed);
  CHECK_THAT(report->variants[2].error, Catch::Contains("no SPIR-V for you"));
}

TEST_CASE("SPIR-V files load as binary or as assembly text") {
  const auto words = test::compile(kThreshold);
  const auto dir = std::filesystem::temp_directory_path();
  const std::string binary = (dir / "sluice_exec_test.spv").string();
  {
    std::ofstream out(binary, std::ios::binary);
    out.write(reinterpret_cast<const char*>(words.data()), static_cast<std::streamsize>(words.size() * 4));
  }
  auto loaded = read_spirv_file(binary);
  REQUIRE(loaded.ok());
  CHECK(*loaded == words);
  const std::string text = (dir / "sluice_exec_test.spvasm").string();
  std::ofstream(text) << "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
  auto assembled = read_spirv_file(text);
  REQUIRE(assembled.ok());
  CHECK((*assembled)[0] == 0x07230203u);
  std::ofstream(text) << "OpNonsense\n";
  CHECK_FALSE(read_spirv_file(text).ok());
  std::filesystem::remove(binary);
  std::filesystem::remove(text);
}

TEST_CASE("with no driver found through the environment the runner falls back to lavapipe") {
  // Hide every ICD manifest from the loader, as on a machine where Mesa's
  // device-select layer or a missing search path leaves "Found no drivers".
  auto saved = [](const char* name) -> std::optional<std::string> {
    const char* v = std::getenv(name);
    return v ? std::optional<std::string>(v) : std::nullopt;
  };
  const char* const names[] = {"XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "VK_DRIVER_FILES", "VK_ICD_FILENAMES"};
  std::vector<std::optional<std::string>> before;
  for (const char* n : names) before.push_back(saved(n));
  setenv("XDG_DATA_DIRS", "/nonexistent", 1);
  setenv("XDG_CONFIG_DIRS", "/nonexistent", 1);
  unsetenv("VK_DRIVER_FILES");
  unsetenv("VK_ICD_FILENAMES");
  auto runner = Runner::create(DeviceChoice{});
  for (size_t i = 0; i < std::size(names); ++i) {
    if (before[i])
      setenv(names[i], before[i]->c_str(), 1);
    else
      unsetenv(names[i]);
  }
  REQUIRE(runner.ok());
  CHECK_THAT(runner->device_name(), Catch::Contains("cpu"));
  auto out = runner->draw_fragment(test::compile(kThreshold), 2, 2);
  REQUIRE(out.ok());
  CHECK(out->images[0].at(0, 0, 0) == 1.0f);
}
