// Helpers for the GLSL front end's tests: compile and require a module the
// validator accepts, require an "is not supported" refusal, and look at a
// function's block tree (shape, instructions by opcode) without recursion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "frontend/glsl/glsl_frontend.h"
#include "ir/dump.h"
#include "ir/traversal.h"
#include "validator/validator.h"

namespace sluice::testing {

inline glsl_in::Options automap() {
  glsl_in::Options o;
  o.auto_map_locations = true;
  o.auto_map_bindings = true;
  return o;
}

inline std::string problems_text(const ir::Module& m, const std::vector<validator::Problem>& ps) {
  std::string s;
  for (const auto& p : ps) s += validator::describe(m, p) + "\n";
  return s;
}

// The one diagnostic of a compile that must fail with a single error.
inline const Diagnostic& only_error(const glsl_in::Result& r) {
  REQUIRE_FALSE(r.module.has_value());
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].severity == Severity::Error);
  return r.diagnostics[0];
}

// Compiles `source`; requires a module that validates with no problems.
inline ir::Module compile_valid(std::string_view source, std::string_view file = "test.frag",
                                const glsl_in::Options& options = automap()) {
  glsl_in::Result r = glsl_in::compile(source, file, options);
  INFO(render(r.diagnostics, source));
  REQUIRE(r.module.has_value());
  const auto problems = validator::validate(*r.module);
  INFO(problems_text(*r.module, problems) << ir::dump(*r.module));
  REQUIRE(problems.empty());
  return std::move(*r.module);
}

// Compiles `source`; requires failure with an error naming `feature` as
// not supported.
inline Diagnostic compile_unsupported(std::string_view source, std::string_view feature,
                                      std::string_view file = "test.frag") {
  glsl_in::Result r = glsl_in::compile(source, file, automap());
  INFO(render(r.diagnostics, source));
  REQUIRE_FALSE(r.module.has_value());
  REQUIRE_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics.front();
  CHECK(d.severity == Severity::Error);
  CHECK(d.message.find("is not supported") != std::string::npos);
  CHECK(d.message.find(feature) != std::string::npos);
  CHECK(d.line > 0);
  return d;
}

inline const ir::Variable* variable_named(const ir::Module& m, std::string_view name) {
  for (std::uint32_t i = 0; i < m.variable_count(); ++i)
    if (m.variable(ir::VariableId(i)).name.text == name) return &m.variable(ir::VariableId(i));
  return nullptr;
}

inline const ir::Type& pointee_type(const ir::Module& m, const ir::Variable& v) {
  return m.type(m.type(v.type).element);
}

inline const ir::Function& function_named(const ir::Module& m, std::string_view name) {
  for (std::uint32_t i = 0; i < m.function_count(); ++i)
    if (m.function(ir::FunctionId(i)).name.text == name) return m.function(ir::FunctionId(i));
  FAIL("no function named " << name);
  return m.function(ir::FunctionId(0));
}

struct Found {
  ir::BlockId block;
  ir::BlockKind kind;
  const ir::Instruction* instruction;
};

// Every instruction of `f` with opcode `op`, in pre-order of the block tree.
inline std::vector<Found> find_all(const ir::Function& f, ir::Opcode op) {
  std::vector<Found> out;
  ir::visit(f, [&](const ir::BlockVisit& v, const ir::Block& b) {
    for (const auto& inst : b.instructions)
      if (inst.opcode == op) out.push_back({v.id, v.kind, &inst});
    return ir::VisitAction::VisitSubBlocks;
  });
  return out;
}

inline std::size_t count(const ir::Module& m, ir::Opcode op) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) n += find_all(m.function(ir::FunctionId(i)), op).size();
  return n;
}

// The block tree's shape: one line per block in pre-order, its depth, kind,
// whether it has a merge input, its declarations and its terminator. Two
// functions with the same shape have the same control flow, whatever
// instructions their blocks hold.
inline std::string shape(const ir::Function& f) {
  std::string s;
  ir::visit(f, [&](const ir::BlockVisit& v, const ir::Block& b) {
    s += std::string(2 * v.depth, ' ') + ir::to_string(v.kind);
    if (b.merge_input.valid()) s += " input";
    if (!b.declarations.empty()) s += " declares " + std::to_string(b.declarations.size());
    if (const auto op = b.terminator_opcode()) s += " -> " + std::string(ir::name(*op));
    s += "\n";
    return ir::VisitAction::VisitSubBlocks;
  });
  return s;
}

}  // namespace sluice::testing
