// Shared steps of the GLSL output tests: validate the IR a test built,
// emit it, and compile the text with glslang + spirv-val.
#pragma once

#include <cstdlib>
#include <iostream>
#include <string>

#include <catch2/catch.hpp>

#include "glslang_check.h"
#include "ir/dump.h"
#include "output/glsl/glsl_output.h"
#include "validator/validator.h"

namespace sluice::testing {

inline glsl_out::Options vulkan_450() { return {}; }
inline glsl_out::Options vulkan_es() { return {glsl_out::GlslVersion::V310es, glsl_out::Flavour::Vulkan}; }
inline glsl_out::Options opengl_450() { return {glsl_out::GlslVersion::V450, glsl_out::Flavour::OpenGL}; }
inline glsl_out::Options opengl_es() { return {glsl_out::GlslVersion::V310es, glsl_out::Flavour::OpenGL}; }

inline std::string options_name(const glsl_out::Options& o) {
  return std::string(o.version == glsl_out::GlslVersion::V450 ? "450" : "310es") +
         (o.flavour == glsl_out::Flavour::Vulkan ? " vulkan" : " opengl");
}

// The IR must be valid, emit must succeed, and glslang must accept the text
// (and spirv-val its SPIR-V). Returns the text.
inline std::string emit_and_compile(const ir::Module& m, const glsl_out::Options& options = {}) {
  const auto problems = validator::validate(m);
  INFO("IR:\n" << ir::dump(m) << "\nvalidator:\n" << validator::describe(m, problems));
  REQUIRE(problems.empty());
  auto text = glsl_out::emit(m, options);
  INFO("options: " << options_name(options));
  if (!text.ok()) FAIL("emit failed: " << text.error());
  if (const char* show = std::getenv("SLUICE_SHOW_GLSL"); show && std::string(show) == "1")
    std::cout << "---- " << Catch::getResultCapture().getCurrentTestName() << " (" << options_name(options) << ")\n"
              << *text;
  const GlslCheck check = compile_glsl_text(*text, m.shader().stage, options);
  INFO("GLSL:\n" << *text << "\n" << check.log);
  CHECK(check.ok);
  return *text;
}

// A struct member set field by field, so that tests keep compiling when
// StructMember gains fields.
inline ir::StructMember struct_member(std::string name, ir::TypeId type, std::optional<std::uint32_t> offset = {},
                                      ir::MatrixLayout layout = ir::MatrixLayout::Default, std::string built_in = {}) {
  ir::StructMember m;
  m.name = std::move(name);
  m.type = type;
  m.offset = offset;
  m.matrix_layout = layout;
  m.built_in = std::move(built_in);
  return m;
}

// Position of `needle` in `text`, failing the test when it is missing.
inline std::size_t position_of(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  INFO("looking for `" << needle << "` in:\n" << text);
  REQUIRE(at != std::string::npos);
  return at;
}

}  // namespace sluice::testing
