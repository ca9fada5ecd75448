// What the front end refuses and how: glslang's own errors and this front
// end's "is not supported" come back as diagnostics with positions, never
// as crashes; the stage comes from the file name; deep trees are refused
// before they are walked.
#include <thread>

#include <fmt/format.h>

#include "glsl_test_util.h"

using namespace sluice;
using namespace sluice::ir;

TEST_CASE("the stage comes from the file extension, as glslangValidator picks it") {
  CHECK(glsl_in::stage_from_path("a/b/shader.vert") == ShaderStage::Vertex);
  CHECK(glsl_in::stage_from_path("shader.frag") == ShaderStage::Fragment);
  CHECK(glsl_in::stage_from_path("x.y.comp") == ShaderStage::Compute);
  CHECK(glsl_in::stage_from_path("x.geom") == ShaderStage::Geometry);
  CHECK(glsl_in::stage_from_path("x.tesc") == ShaderStage::TessControl);
  CHECK(glsl_in::stage_from_path("x.tese") == ShaderStage::TessEvaluation);
  CHECK_FALSE(glsl_in::stage_from_path("shader.glsl").has_value());
  CHECK_FALSE(glsl_in::stage_from_path("frag").has_value());

  const glsl_in::Result r = glsl_in::compile("#version 450\nvoid main() {}\n", "shader.glsl");
  CHECK_FALSE(r.module.has_value());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].message.find("stage") != std::string::npos);

  glsl_in::Options o;
  o.stage = ShaderStage::Compute;
  const glsl_in::Result c = glsl_in::compile("#version 450\nlayout(local_size_x = 4) in;\nvoid main() {}\n", "x.glsl", o);
  REQUIRE(c.module.has_value());
  CHECK(c.module->shader().stage == ShaderStage::Compute);
  CHECK(c.module->shader().local_size[0] == 4);
}

TEST_CASE("glslang's errors pass through as file:line:col diagnostics") {
  const std::string source = "#version 450\nlayout(location = 0) out vec4 c;\nvoid main() {\n  c = vec4(1.0) + missing;\n}\n";
  const glsl_in::Result r = glsl_in::compile(source, "broken.frag");
  CHECK_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics[0];
  CHECK(d.severity == Severity::Error);
  CHECK(d.file == "broken.frag");
  CHECK(d.line == 4);
  // glslang reports no column; the quoted token's place on the line is used.
  CHECK(d.column == source.substr(source.find("  c = vec4")).find("missing") + 1);
  CHECK(d.message.find("undeclared identifier") != std::string::npos);
  const std::string text = render(r.diagnostics, source);
  CHECK(text.starts_with(fmt::format("broken.frag:4:{}: error: ", d.column)));
  CHECK(text.find("  c = vec4(1.0) + missing;\n") != std::string::npos);
}

TEST_CASE("Vulkan rules apply unless auto-mapping is asked for") {
  const std::string source = "#version 450\nin vec4 v;\nout vec4 c;\nuniform sampler2D s;\n"
                             "void main() { c = texture(s, v.xy); }\n";
  const glsl_in::Result plain = glsl_in::compile(source, "a.frag");
  CHECK_FALSE(plain.module.has_value());
  CHECK(has_errors(plain.diagnostics));
  const Module m = testing::compile_valid(source, "a.frag", testing::automap());
  std::size_t with_location = 0, with_binding = 0;
  for (VariableId v : m.globals()) {
    with_location += m.variable(v).decorations.location ? 1 : 0;
    with_binding += m.variable(v).decorations.binding ? 1 : 0;
  }
  CHECK(with_location == 2);
  CHECK(with_binding == 1);
}

TEST_CASE("unsupported features are diagnostics naming the feature and its position") {
  // Doubles are supported now; interpolateAt* is not (docs/glsl.md).
  const Diagnostic d = testing::compile_unsupported(
      "#version 450\nlayout(location = 0) in vec4 v;\nlayout(location = 0) out vec4 c;\nvoid main() {\n"
      "  c = interpolateAtCentroid(v);\n}\n",
      "interpolateAtCentroid");
  CHECK(d.line == 5);
  // local_size_x_id, arrays sized by specialization constants and transform
  // feedback are supported (spec_constants_test.cpp); % in a length is not.
  const Diagnostic mod = testing::compile_unsupported(
      "#version 450\nlayout(constant_id = 1) const int N = 4;\nlayout(location = 0) out vec4 c;\n"
      "void main() { float a[N % 3]; a[0] = 1.0; c = vec4(a[0]); }\n",
      "specialization-constant expression");
  CHECK(mod.line == 4);
}

TEST_CASE("precise is said to be dropped, nonuniformEXT is refused") {
  const std::string source = "#version 450\nlayout(location = 0) in vec4 a;\nlayout(location = 0) out vec4 c;\n"
                             "void main() {\n  precise vec4 x = a * a + a;\n  c = x;\n}\n";
  const glsl_in::Result r = glsl_in::compile(source, "p.frag");
  REQUIRE(r.module.has_value());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Warning);
  CHECK(r.diagnostics[0].line == 5);
  CHECK(r.diagnostics[0].message.find("precise") != std::string::npos);
  testing::compile_unsupported(
      "#version 450\n#extension GL_EXT_nonuniform_qualifier : require\n"
      "layout(binding = 0) uniform sampler2D s[4];\nlayout(location = 0) flat in int i;\n"
      "layout(location = 0) out vec4 c;\nvoid main() { c = texture(s[nonuniformEXT(i)], vec2(0.5)); }\n",
      "nonuniformEXT");
}

TEST_CASE("nesting deeper than the limit is refused before it is walked") {
  // A long chain of additions: glslang's tree is as deep as the chain is long.
  std::string sum = "a";
  for (std::size_t i = 0; i < glsl_in::kMaxAstDepth + 10; ++i) sum += " + a";
  const std::string source =
      "#version 450\nlayout(location = 0) in float a;\nlayout(location = 0) out vec4 c;\nvoid main() {\n  c = vec4(" +
      sum + ");\n}\n";
  const glsl_in::Result r = glsl_in::compile(source, "deep.frag");
  CHECK_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].message.find("is not supported") != std::string::npos);
  CHECK(r.diagnostics[0].line == 5);

  // Well inside the limit, the same shape translates.
  std::string shorter = "a";
  for (int i = 0; i < 200; ++i) shorter += " + a";
  testing::compile_valid("#version 450\nlayout(location = 0) in float a;\nlayout(location = 0) out vec4 c;\n"
                         "void main() {\n  c = vec4(" + shorter + ");\n}\n",
                         "shallow.frag");
}

TEST_CASE("chains far longer than the native stack would take are still only refused") {
  // glslang itself recurses along this chain; the compilation's own large
  // stack keeps that from crashing.
  std::string sum = "a";
  for (int i = 0; i < 60000; ++i) sum += "+a";
  const std::string source =
      "#version 450\nlayout(location = 0) in float a;\nlayout(location = 0) out vec4 c;\nvoid main() {\n  c = vec4(" +
      sum + ");\n}\n";
  const glsl_in::Result r = glsl_in::compile(source, "long.frag");
  CHECK_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  CHECK(r.diagnostics[0].message.find("is not supported") != std::string::npos);
}

TEST_CASE("garbage and empty input are errors, not crashes") {
  const std::string garbage("\x01\x02\xff{{{(((;;;\0\0", 14);
  for (const std::string& s : {std::string(), garbage, std::string("#version 450\n"),
                               std::string("#version 999\nvoid main(){}\n"), std::string("void main() {")}) {
    const glsl_in::Result r = glsl_in::compile(s, "x.frag");
    CHECK_FALSE(r.module.has_value());
    CHECK(has_errors(r.diagnostics));
  }
}

TEST_CASE("compiling on several threads at once gives the same modules") {
  const std::string source = "#version 310 es\nprecision mediump float;\nlayout(location = 0) in vec2 uv;\n"
                             "layout(location = 0) out vec4 c;\nvoid main() { c = vec4(uv, fract(uv.x * 3.0), 1.0); }\n";
  const std::string expected = dump(testing::compile_valid(source, "t.frag"));
  std::vector<std::string> dumps(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < dumps.size(); ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 5; ++k) {
        const glsl_in::Result r = glsl_in::compile(source, "t.frag");
        if (r.module) dumps[i] = dump(*r.module);
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& d : dumps) CHECK(d == expected);
}

TEST_CASE("mesh, task and ray-tracing shaders are refused naming the stage") {
  for (const auto& [file, stage] : {std::pair{"a.mesh", "mesh"}, std::pair{"a.task", "task"},
                                    std::pair{"a.rgen", "ray generation"}, std::pair{"a.rchit", "ray closest-hit"}}) {
    const glsl_in::Result r = glsl_in::compile("#version 460\nvoid main() {}\n", file);
    CHECK_FALSE(r.module.has_value());
    REQUIRE(r.diagnostics.size() == 1);
    CHECK(r.diagnostics[0].message == fmt::format("the {} shader stage is not supported (Sluice translates vertex, "
                                                  "fragment, compute, geometry and tessellation shaders)",
                                                  stage));
  }
}

TEST_CASE("the syntax-tree depth limit, at it and one past it") {
  // `a + a + … + a` with n operators: glslang's tree is about n deep. The
  // largest n that translates is at the limit; n + 1 gets the diagnostic.
  auto shader = [](std::size_t n) {
    std::string sum = "a";
    for (std::size_t i = 0; i < n; ++i) sum += " + a";
    return "#version 450\nlayout(location = 0) in float a;\nlayout(location = 0) out vec4 c;\nvoid main() {\n  c = vec4(" +
           sum + ");\n}\n";
  };
  auto translates = [&](std::size_t n) { return glsl_in::compile(shader(n), "deep.frag").module.has_value(); };
  std::size_t lo = glsl_in::kMaxAstDepth - 20, hi = glsl_in::kMaxAstDepth + 1;  // translates at lo, not at hi
  REQUIRE(translates(lo));
  REQUIRE_FALSE(translates(hi));
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    (translates(mid) ? lo : hi) = mid;
  }
  testing::compile_valid(shader(lo), "at.frag");
  const glsl_in::Result past = glsl_in::compile(shader(lo + 1), "past.frag");
  REQUIRE_FALSE(past.diagnostics.empty());
  CHECK(past.diagnostics[0].message ==
        "nesting deeper than " + std::to_string(glsl_in::kMaxAstDepth) + " syntax tree levels is not supported");
}
