// The λV front end: compiles a λV program (docs/lambdav.md) to a Sluice IR
// fragment shader. Errors come back as diagnostics, never as exceptions or
// aborts, whatever the input.
//
//   auto r = sluice::lambdav::compile(text, {.file_name = "yellow.lv"});
//   if (!r.ok()) std::cerr << sluice::render(r.diagnostics, text);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "frontend/lambdav/ast.h"
#include "ir/diagnostic.h"
#include "ir/module.h"

namespace sluice::lambdav {

// How many lowering steps (expression evaluations, counting every inlined
// function body again) a program may take: kBaseSteps plus kStepsPerNode per
// syntax node. Past it the program is rejected as too large.
inline constexpr std::uint64_t kBaseSteps = 1'000'000;
inline constexpr std::uint64_t kStepsPerNode = 16;
// How deeply expression evaluations may nest, counting the bodies of
// inlined functions (docs/lambdav.md, "Limits").
inline constexpr std::uint32_t kDefaultMaxDepth = 2'000;

struct CompileOptions {
  std::string file_name = "<input>";  // the name diagnostics give the source
  std::uint32_t max_nesting = kDefaultMaxNesting;
  std::uint32_t max_depth = kDefaultMaxDepth;
  std::uint64_t max_steps = 0;  // 0: kBaseSteps + kStepsPerNode * nodes
  // First-order applications of functions that capture no run-time values
  // become IR functions and calls (one per function and argument types)
  // instead of being inlined; see docs/lambdav.md, "Functions".
  bool ir_functions = true;
  // Lower rec-funcs whose body is (if c E (rec ..)) through lets with the
  // exit test as the loop's condition (docs/lambdav.md, "Lowering to IR");
  // false keeps every rec-func in the general form (exits in the body).
  bool loop_exit_in_header = true;
  // Record source positions on instructions (for debug info in outputs).
  bool source_locations = true;
};

struct CompileStats {
  std::size_t nodes = 0;         // syntax nodes of the program
  std::uint64_t steps = 0;       // lowering steps taken
  std::size_t ir_functions = 0;  // IR functions besides main
};

struct CompileResult {
  std::optional<ir::Module> module;  // set exactly when there are no errors
  Diagnostics diagnostics;
  CompileStats stats;
  bool ok() const { return module.has_value(); }
};

CompileResult compile(std::string_view source, const CompileOptions& options = {});

}  // namespace sluice::lambdav
