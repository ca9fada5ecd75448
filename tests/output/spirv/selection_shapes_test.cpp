// Two shapes the CFG builder (src/output/spirv/cfg.cpp) gives as spirv-opt
// leaves them: a DoLoop nothing continues is a selection construct
// (`OpSelectionMerge; OpSwitch %int_0 %body`), unless it holds a loop that
// only a Return or Discard leaves (NVIDIA's driver hung on that); and an
// empty case that falls through shares the next case's target in the
// OpSwitch. Each module is validated (emit_checked) and run in the SPIR-V
// interpreter.
#include <bit>
#include <regex>
#include <string>

#include <catch2/catch.hpp>

#include "glsl_fragment.h"
#include "spirv_interpreter.h"

using namespace sluice;

namespace {

// A fragment shader reading `flat in int n` and writing `out vec4 o`.
ir::Module fragment(const std::string& main_body) {
  return testing::glsl_fragment_module(R"(#version 450
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;
void main() {
)" + main_body + "}\n");
}

float run_o(const testing::Emitted& e, int n) {
  const auto run = testing::run_spirv(e.words, {{"n", {static_cast<std::uint32_t>(n)}}});
  INFO(run.error);
  REQUIRE(run.ok);
  return std::bit_cast<float>(run.outputs.at("o").at(0));
}

}  // namespace

TEST_CASE("a do-while nothing continues is a selection construct: OpSwitch on 0 to its body") {
  const ir::Module m = fragment(R"(
  float w = 0.0;
  do { if (n > 2) { w = 1.0; break; } w = 2.0; break; } while (true);
  o = vec4(w);
)");
  for (const bool ssa : {true, false}) {
    spirv::Options options;
    options.promote_to_ssa = ssa;
    const testing::Emitted e = testing::emit_checked(m, options);
    INFO(e.text);
    CHECK(testing::count_of(e.text, "OpSwitch %int_0 ") == 1);
    CHECK(testing::count_of(e.text, "OpLoopMerge") == 0);
    CHECK(run_o(e, 5) == 1.0f);
    CHECK(run_o(e, 1) == 2.0f);
  }
}

TEST_CASE("a do-while holding a loop that only a return leaves stays a loop") {
  const ir::Module m = fragment(R"(
  float w = 0.0;
  do {
    if (n > 2) { w = 1.0; break; }
    while (true) { w += 1.0; if (w > 3.0) { o = vec4(w); return; } }
  } while (true);
  o = vec4(w);
)");
  const testing::Emitted e = testing::emit_checked(m);
  INFO(e.text);
  CHECK(testing::count_of(e.text, "OpSwitch") == 0);
  CHECK(testing::count_of(e.text, "OpLoopMerge") == 2);
  CHECK(run_o(e, 5) == 1.0f);
  CHECK(run_o(e, 1) == 4.0f);
}

TEST_CASE("empty cases that fall through share the next case's target") {
  const ir::Module m = fragment(R"(
  float w = 0.0;
  for (int i = 0; i < 2; ++i) {
    switch (n) {
      case 0:
      case 1: w += 1.0; break;
      case 2:
      case 3: w += 2.0;
      default: w += 4.0;
    }
  }
  o = vec4(w);
)");
  for (const bool ssa : {true, false}) {
    spirv::Options options;
    options.promote_to_ssa = ssa;
    const testing::Emitted e = testing::emit_checked(m, options);
    INFO(e.text);
    // "OpSwitch %sel %default 0 %a 1 %a 2 %b 3 %b"
    const auto switches = testing::lines_with(e.text, "OpSwitch");
    REQUIRE(switches.size() == 1);
    std::smatch s;
    REQUIRE(std::regex_search(switches[0], s, std::regex(R"(OpSwitch %\w+ (%\w+) 0 (%\w+) 1 (%\w+) 2 (%\w+) 3 (%\w+))")));
    CHECK(s[2] == s[3]);
    CHECK(s[4] == s[5]);
    CHECK(s[2] != s[4]);
    CHECK(s[1] != s[4]);
    CHECK(run_o(e, 0) == 2.0f);
    CHECK(run_o(e, 1) == 2.0f);
    CHECK(run_o(e, 2) == 12.0f);
    CHECK(run_o(e, 3) == 12.0f);
    CHECK(run_o(e, 7) == 8.0f);
  }
}
