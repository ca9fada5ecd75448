// A fragment shader's GLSL through the GLSL front end, without passes (so
// every access and load of the source is in the IR), emitted on every
// target with promotion to SSA and without (emit_everywhere).
#pragma once

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "spirv_test_util.h"

namespace sluice::testing {

inline ir::Module glsl_fragment_module(const std::string& source) {
  glsl_in::Options o;
  o.stage = ir::ShaderStage::Fragment;
  glsl_in::Result r = glsl_in::compile(source, "shader.frag", o);
  REQUIRE(r.module.has_value());
  return std::move(*r.module);
}

inline std::vector<Emitted> emit_glsl_fragment(const std::string& source) {
  return emit_everywhere(glsl_fragment_module(source));
}

}  // namespace sluice::testing
