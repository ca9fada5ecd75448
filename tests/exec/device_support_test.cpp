// exec/device_support.h on lavapipe: a module that declares a capability the
// device does not enable is named as not runnable (and the runner refuses to
// make a shader module of it) instead of being handed to the driver, which
// may lose the device (NVIDIA did on glslang's spv.420.geom).
#include <catch2/catch.hpp>

#include "exec/device_support.h"
#include "exec_test_support.h"

using namespace sluice::exec;
using namespace sluice::exec::test;

namespace {

std::string geometry_with_streams(const char* output) {
  return std::string(R"(#version 450
layout(triangles) in;
layout()") + output + R"(, max_vertices = 2) out;
layout(stream = 1, location = 0) out vec4 other;
void main() {
  gl_Position = gl_in[0].gl_Position;
  EmitStreamVertex(0);
  other = vec4(1.0);
  EmitStreamVertex(1);
}
)";
}

}  // namespace

TEST_CASE("device support: capabilities the device does not enable") {
  Runner& runner = shared_runner();
  const VulkanContext& context = runner.context();
  SECTION("a fragment shader declares nothing special") {
    const auto words = compile("#version 450\nlayout(location = 0) out vec4 c;\nvoid main() { c = vec4(1.0); }\n");
    CHECK_FALSE(unsupported_capability(words, context).has_value());
  }
  SECTION("several vertex streams with line output need transformFeedbackStreamsLinesTriangles") {
    const auto words = compile(geometry_with_streams("line_strip"), ShaderStage::Geometry);
    const auto why = unsupported_capability(words, context);
    if (context.geometry_streams() && context.streams_lines_triangles()) {
      CHECK_FALSE(why.has_value());
    } else {
      REQUIRE(why.has_value());
      CHECK(why->find("GeometryStreams") != std::string::npos);
    }
  }
  SECTION("several vertex streams with point output need geometryStreams only") {
    const auto words = compile(geometry_with_streams("points"), ShaderStage::Geometry);
    CHECK(unsupported_capability(words, context).has_value() == !context.geometry_streams());
  }
  SECTION("NVIDIA's passthrough geometry shaders need VK_NV_geometry_shader_passthrough") {
    const auto words = compile(R"(#version 450
#extension GL_NV_geometry_shader_passthrough : require
layout(triangles) in;
layout(passthrough) in gl_PerVertex { vec4 gl_Position; } gl_in[];
void main() {}
)",
                               ShaderStage::Geometry);
    const auto why = unsupported_capability(words, context);
    CHECK(why.has_value() == !context.enabled_device_extension("VK_NV_geometry_shader_passthrough"));
    if (why) CHECK(why->find("VK_NV_geometry_shader_passthrough") != std::string::npos);
  }
}
