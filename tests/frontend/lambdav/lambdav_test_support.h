// Helpers for the λV front-end tests: compile and require success with IR
// the validator accepts (every lowering test goes through lv_compile), or
// require failure and get the rendered diagnostics; run a program through
// the reference evaluator; count what the IR contains.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "frontend/lambdav/lambdav.h"
#include "ir/diagnostic.h"
#include "ir/dump.h"
#include "fragment_eval.h"
#include "validator/validator.h"

namespace sluice::testing {

inline lambdav::CompileOptions lv_options(std::string file = "test.lv") {
  lambdav::CompileOptions o;
  o.file_name = std::move(file);
  return o;
}

// Compiles `source`; requires success and a module the validator accepts.
inline ir::Module lv_compile(std::string_view source, const lambdav::CompileOptions& options = lv_options()) {
  auto r = lambdav::compile(source, options);
  INFO("source: " << source);
  INFO("diagnostics:\n" << render(r.diagnostics, source));
  REQUIRE(r.ok());
  REQUIRE(r.diagnostics.empty());
  const auto problems = validator::validate(*r.module);
  INFO("IR:\n" << ir::dump(*r.module));
  INFO("validator:\n" << validator::describe(*r.module, problems));
  REQUIRE(problems.empty());
  return std::move(*r.module);
}

// Compiles `source`; requires failure with at least one diagnostic and
// returns them rendered (file:line:col: error: message, line, caret).
inline std::string lv_error(std::string_view source, const lambdav::CompileOptions& options = lv_options()) {
  auto r = lambdav::compile(source, options);
  INFO("source: " << source);
  REQUIRE_FALSE(r.ok());
  REQUIRE_FALSE(r.diagnostics.empty());
  for (const Diagnostic& d : r.diagnostics) {
    CHECK(d.severity == Severity::Error);
    CHECK(d.line > 0);
    CHECK(d.column > 0);
  }
  return render(r.diagnostics, source);
}

// With SLUICE_LV_PROGRAMS_DIR set, every program a test evaluates at a
// pixel centre with a vec4 output 0 is also written there, with the
// evaluator's colour as its `; expect X Y:` line, so the same programs can
// be drawn on a GPU: `sluice xcheck --device gpu DIR` (docs/testing.md).
inline void save_evaluated_program(std::string_view source, const EvalInputs& inputs,
                                   const std::vector<float>& rgba) {
  const char* dir = std::getenv("SLUICE_LV_PROGRAMS_DIR");
  if (!dir || rgba.size() != 4) return;
  const float fx = inputs.frag_coord[0] - 0.5f, fy = inputs.frag_coord[1] - 0.5f;
  if (fx < 0 || fy < 0 || fx >= 64 || fy >= 64 || fx != std::floor(fx) || fy != std::floor(fy)) return;
  const std::string expect = fmt::format("; expect {} {}: {} {} {} {}\n", fx, fy, rgba[0], rgba[1], rgba[2], rgba[3]);
  const std::size_t name = std::hash<std::string>{}(expect + std::string(source));
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream(fmt::format("{}/test-{:016x}.lv", dir, name)) << expect << source << "\n";
}

// What output `location` receives when the program runs (after validation).
inline std::vector<float> lv_output(std::string_view source, const EvalInputs& inputs = {},
                                    std::uint32_t location = 0) {
  const ir::Module m = lv_compile(source);
  const auto outputs = evaluate(m, inputs);
  INFO("source: " << source);
  REQUIRE(outputs.count(location) == 1);
  if (location == 0) save_evaluated_program(source, inputs, outputs.at(location));
  return outputs.at(location);
}

// The first component of output 0.
inline float lv_value(std::string_view source, const EvalInputs& inputs = {}) {
  return lv_output(source, inputs).at(0);
}

// The λV type of an expression, as the compiler names it: applying a value
// to no arguments is an error that names its type.
inline std::string lv_type(std::string_view expression) {
  const std::string source = "(" + std::string(expression) + ")";
  auto r = lambdav::compile(source, lv_options());
  INFO("expression: " << expression << "\n" << render(r.diagnostics, source));
  REQUIRE_FALSE(r.ok());
  REQUIRE(r.diagnostics.size() == 1);
  static const std::regex kTypeIs("a value of type (.+) is not a function");
  std::smatch match;
  const std::string& message = r.diagnostics[0].message;
  REQUIRE(std::regex_search(message, match, kTypeIs));
  return match[1].str();
}

inline std::size_t count_opcode(const ir::Module& m, ir::Opcode op) {
  std::size_t n = 0;
  for (std::uint32_t f = 0; f < m.function_count(); ++f)
    for (const ir::Block& b : m.function(ir::FunctionId(f)).blocks)
      for (const ir::Instruction& i : b.instructions) n += i.opcode == op;
  return n;
}

inline std::size_t instruction_count(const ir::Module& m) {
  std::size_t n = 0;
  for (std::uint32_t f = 0; f < m.function_count(); ++f)
    for (const ir::Block& b : m.function(ir::FunctionId(f)).blocks) n += b.instructions.size();
  return n;
}

inline const ir::Function& main_function(const ir::Module& m) {
  const ir::FunctionId id = m.entry_point();
  REQUIRE(id.valid());
  return m.function(id);
}

}  // namespace sluice::testing
