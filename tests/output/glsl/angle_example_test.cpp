// The ANGLE README's shader, built through the builder, as GLSL: the golden
// file shows the for loop, the compound assignment through a swizzle and the
// ternary; every version and flavour must compile.
#include <catch2/catch.hpp>

#include "angle_example.h"
#include "glsl_test_util.h"
#include "golden_file.h"

using namespace sluice;

TEST_CASE("the ANGLE README example emits as readable GLSL") {
  const ir::Module m = testing::build_angle_example();
  const std::string text = testing::emit_and_compile(m);
  testing::check_golden("glsl/angle_example.vk450.glsl", text);
}

TEST_CASE("the ANGLE README example compiles in every version and flavour") {
  const ir::Module m = testing::build_angle_example();
  for (const auto& options : {testing::vulkan_450(), testing::vulkan_es(), testing::opengl_450(), testing::opengl_es()})
    testing::emit_and_compile(m, options);
  testing::check_golden("glsl/angle_example.vk310es.glsl", *glsl_out::emit(m, testing::vulkan_es()));
}
