// Transform feedback qualifiers: xfb_buffer/xfb_stride/xfb_offset become
// output decorations (block members keep their own offsets), and the shader
// is marked as capturing (execution mode Xfb).
#include <catch2/catch.hpp>

#include "glsl_test_util.h"
#include "ir/parse.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("transform feedback qualifiers become decorations") {
  const Module m = testing::compile_valid(R"(#version 450
layout(xfb_buffer = 3) out;
layout(xfb_stride = 48) out;
layout(xfb_offset = 12, location = 0) out float out1;
layout(xfb_buffer = 1, location = 3) out Block { layout(xfb_stride = 64, xfb_offset = 60) float out3; };
layout(location = 4, xfb_buffer = 0, xfb_offset = 4) out float out4;
layout(xfb_buffer = 2, xfb_offset = 16) out gl_PerVertex { vec4 gl_Position; };
void main() { out1 = 1.0; out3 = 2.0; out4 = 3.0; gl_Position = vec4(0.0); }
)",
                                          "test.vert");
  CHECK(m.shader().transform_feedback);
  std::size_t seen = 0;
  for (VariableId id : m.globals()) {
    const Variable& v = m.variable(id);
    const Decorations& d = v.decorations;
    if (v.name.text == "out1") {
      ++seen;
      CHECK(d.xfb_buffer == 3u);
      CHECK(d.xfb_stride == 48u);
      CHECK(d.xfb_offset == 12u);
    } else if (v.name.text == "out4") {
      ++seen;
      CHECK(d.xfb_buffer == 0u);
      CHECK(d.xfb_stride == 8u);  // implied by the offset and size
      CHECK(d.xfb_offset == 4u);
    } else if (d.built_in == "Position") {
      ++seen;
      CHECK(d.xfb_buffer == 2u);
      CHECK(d.xfb_offset == 16u);
    } else if (m.type(m.type(v.type).element).is_block) {
      ++seen;
      const Type& block = m.type(m.type(v.type).element);
      CHECK(d.xfb_buffer == 1u);
      CHECK(d.xfb_stride == 64u);
      CHECK_FALSE(d.xfb_offset.has_value());  // the member carries it
      CHECK(block.members[0].xfb_offset == 60u);
    }
  }
  CHECK(seen == 4);
  const std::string text = dump(m);
  ParseResult parsed = parse_module(text, "dump.ir");
  INFO(text << render(parsed.diagnostics, text));
  REQUIRE(parsed.ok());
  CHECK(dump(*parsed.module) == text);
}

TEST_CASE("a shader without xfb qualifiers does not capture") {
  const Module m = testing::compile_valid("#version 450\nlayout(location = 0) out float o;\nvoid main() { o = 1.0; }\n",
                                          "test.vert");
  CHECK_FALSE(m.shader().transform_feedback);
  for (VariableId id : m.globals()) CHECK_FALSE(m.variable(id).decorations.xfb_buffer.has_value());
}
