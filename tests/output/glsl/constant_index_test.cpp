// Constant indices GLSL refuses (ir/constant_index.h): the output spells
// them with a local, which is no constant expression, so the text compiles
// and indexes with the same value as the IR. The fifth fuzz campaign's glsl
// finding: `(i, -1)`, which GLSL does not count as constant, indexed a
// runtime-sized array of structs; folded to -1 it became `v[-1]`, and
// glslang refused it ("index out of range '-1'").
#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "glsl_test_util.h"

using namespace sluice;

namespace {

const char* const kSource = R"(#version 450
layout(constant_id = 0) const int N = 4;
struct Particle { vec4 pos; float pinned; };
layout(std430, binding = 0) buffer Buf { Particle p[]; };
layout(location = 0) flat in int i;
layout(location = 0) out vec4 color;
void main() {
    float a[N];
    a[0] = 1.0;
    color = vec4(a[0]);
    if (i > 0) color = p[(i, -1)].pos + p[(i, 2147483648u)].pos + vec4(a[(i, -1)]) + vec4(p[(i, 7)].pinned);
}
)";

}  // namespace

TEST_CASE("a negative constant index of a runtime- or spec-sized array is spelled with a local") {
  glsl_in::Result in = glsl_in::compile(kSource, "negative_index.frag", glsl_in::Options{});
  INFO(render(in.diagnostics, kSource));
  REQUIRE(in.module.has_value());
  for (const auto& options : {testing::vulkan_450(), testing::vulkan_es()}) {
    const std::string text = testing::emit_and_compile(*in.module, options);
    INFO(text);
    CHECK(text.find("[-1]") == std::string::npos);
    CHECK(text.find("[2147483648u]") == std::string::npos);
    testing::position_of(text, "int out_of_range_index = -1;");
    testing::position_of(text, "uint out_of_range_index_1 = 2147483648u;");
    testing::position_of(text, " p[out_of_range_index].pos");  // the anonymous block's member
    testing::position_of(text, " p[out_of_range_index_1].pos");
    testing::position_of(text, "a[out_of_range_index]");
    // An index in range of the runtime array stays a constant.
    testing::position_of(text, " p[7].pinned");
  }
}
