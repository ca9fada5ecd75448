// Helpers for the validator tests: a small valid fragment shader to start
// from, and assertions on validate()'s problems that print every problem
// (as describe() words it) when they fail.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "angle_example.h"
#include "ir/builder.h"
#include "validator/validator.h"

namespace sluice::testing {

// The IR text form's types t0–t25 (void, the scalars, their vectors and
// float matrices) and constants c0–c7 that every module starts with, as
// the Types: and Constants: lines of a text module list them.
inline constexpr const char* kStandardTypesText =
    "  t0: void\n  t1: float\n  t2: int\n  t3: uint\n  t4: bool\n"
    "  t5: Vector of t1[2]\n  t6: Vector of t1[3]\n  t7: Vector of t1[4]\n"
    "  t8: Vector of t2[2]\n  t9: Vector of t2[3]\n  t10: Vector of t2[4]\n"
    "  t11: Vector of t3[2]\n  t12: Vector of t3[3]\n  t13: Vector of t3[4]\n"
    "  t14: Vector of t4[2]\n  t15: Vector of t4[3]\n  t16: Vector of t4[4]\n"
    "  t17: Matrix of t5[2]\n  t18: Matrix of t6[2]\n  t19: Matrix of t7[2]\n"
    "  t20: Matrix of t5[3]\n  t21: Matrix of t6[3]\n  t22: Matrix of t7[3]\n"
    "  t23: Matrix of t5[4]\n  t24: Matrix of t6[4]\n  t25: Matrix of t7[4]\n";
inline constexpr const char* kStandardConstantsText =
    "\nConstants:\n  c0 (t4): false\n  c1 (t4): true\n  c2 (t1): 0.0\n  c3 (t1): 1.0\n"
    "  c4 (t2): 0\n  c5 (t2): 1\n  c6 (t3): 0\n  c7 (t3): 1\n";

inline std::string all_problems(const ir::Module& m, const std::vector<validator::Problem>& problems) {
  return validator::describe(m, std::span<const validator::Problem>(problems));
}

inline void require_valid(const ir::Module& m) {
  const auto problems = validator::validate(m);
  INFO(all_problems(m, problems));
  REQUIRE(problems.empty());
}

// Some problem has exactly this message; returns it.
inline validator::Problem require_problem(const ir::Module& m, const std::string& message) {
  const auto problems = validator::validate(m);
  INFO("expected: " << message << "\nfound:\n" << all_problems(m, problems));
  for (const auto& p : problems)
    if (p.message == message) return p;
  FAIL("no problem with that message");
  return {};
}

// The module has this one problem and no other.
inline validator::Problem require_only_problem(const ir::Module& m, const std::string& message) {
  const auto problems = validator::validate(m);
  INFO("expected only: " << message << "\nfound:\n" << all_problems(m, problems));
  REQUIRE(problems.size() == 1);
  REQUIRE(problems[0].message == message);
  return problems[0];
}

// A fragment shader with an Output vec4 `color`, a uniform float `scale`
// and an empty main(); tests add blocks and instructions to main through
// the builder, check that the result validates, then break one rule.
struct ShaderFixture {
  ir::Module m{ir::ShaderStage::Fragment};
  ir::Builder b{m};
  ir::VariableId color;
  ir::VariableId scale;
  ir::FunctionId main;

  ShaderFixture() {
    using namespace ir;
    color = b.add_global({"color", NameSource::Interface}, predefined::kVec4, StorageClass::Output, Precision::Medium);
    scale = b.add_global({"scale", NameSource::Interface}, predefined::kFloat, StorageClass::Uniform, Precision::High);
    main = b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  }

  ir::Function& fn() { return m.function(main); }
  ir::Block& block(ir::BlockId id) { return fn().block(id); }
  ir::Block& entry() { return block(fn().entry); }
  ir::RegisterId load_scale() { return must(b.load(scale)); }
  ir::RegisterId compare(ir::RegisterId a) {
    return must(b.emit(ir::Opcode::LessThan, {a, ir::predefined::kFloatOne}));
  }
  void store_color(ir::RegisterId f) {
    ir::RegisterId v = must(b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {f}));
    must(b.store(color, v));
  }
  void end(ir::Opcode op) { must(b.terminate(op)); }
  void end(ir::Opcode op, ir::Operand value) { must(b.terminate(op, value)); }
};

// Index of the last instruction of a block.
inline std::int32_t last(const ir::Block& b) { return static_cast<std::int32_t>(b.instructions.size()) - 1; }

}  // namespace sluice::testing
