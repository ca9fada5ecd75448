// Shared by the transform tests: the validator as the pass manager's
// callback, running a pass with validation after it, and small module
// builders.
#pragma once

#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "angle_example.h"
#include "ir/builder.h"
#include "ir/dump.h"
#include "ir/traversal.h"
#include "transform/pass_manager.h"
#include "validator/validator.h"

namespace sluice::testing {

inline std::vector<std::string> validation_problems(const ir::Module& m) {
  std::vector<std::string> out;
  for (const auto& p : validator::validate(m)) out.push_back(validator::describe(m, p));
  return out;
}

inline void require_valid(const ir::Module& m) {
  const auto problems = validation_problems(m);
  std::string text;
  for (const auto& p : problems) text += p + "\n";
  if (!problems.empty()) text += ir::dump(m);  // only then: a dump of 10^6 instructions is slow
  INFO(text);
  REQUIRE(problems.empty());
}

// Runs the named passes through the pass manager with the validator after
// each (and on the input); returns whether any pass changed the module.
inline bool run_passes(ir::Module& m, const std::string& passes) {
  transform::PassManager pm;
  auto pipeline = pm.parse_pass_list(passes);
  REQUIRE(pipeline.ok());
  transform::RunOptions options;
  options.validate = validation_problems;
  auto runs = pm.run(m, *pipeline, options);
  INFO((runs.ok() ? std::string() : runs.error()));
  REQUIRE(runs.ok());
  bool changed = false;
  for (const auto& r : *runs) changed = changed || r.changed;
  return changed;
}

inline std::size_t count_instructions(const ir::Module& m, ir::Opcode op) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const ir::Function& f = m.function(ir::FunctionId(i));
    if (!f.entry.valid()) continue;
    ir::visit(f, [&](const ir::BlockVisit&, const ir::Block& b) {
      for (const auto& inst : b.instructions) n += inst.opcode == op;
      return ir::VisitAction::VisitSubBlocks;
    });
  }
  return n;
}

inline std::size_t count_all_instructions(const ir::Module& m) {
  std::size_t n = 0;
  for (std::uint32_t i = 0; i < m.function_count(); ++i) {
    const ir::Function& f = m.function(ir::FunctionId(i));
    if (!f.entry.valid()) continue;
    ir::visit(f, [&](const ir::BlockVisit&, const ir::Block& b) {
      n += b.instructions.size();
      return ir::VisitAction::VisitSubBlocks;
    });
  }
  return n;
}

// A fragment shader `out vec4 color; void main() { ... }` whose body the
// caller builds; `finish` stores `value` to color and returns.
struct ShaderUnderTest {
  ir::Module m{ir::ShaderStage::Fragment};
  ir::Builder b{m};
  ir::VariableId color;
  ir::VariableId input;  // `in vec4 v` (location 0): a value no pass can fold
  ir::FunctionId main;

  ShaderUnderTest() {
    using namespace ir;
    Decorations loc0;
    loc0.location = 0;
    color = b.add_global({"color", NameSource::Interface}, predefined::kVec4, StorageClass::Output,
                         Precision::High, loc0);
    input = b.add_global({"v", NameSource::Interface}, predefined::kVec4, StorageClass::Input, Precision::High,
                         loc0);
    main = b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  }
  // A float that depends on the input: v.x
  ir::RegisterId input_x() {
    auto p = must(b.emit(ir::Opcode::AccessVectorComponent, {input, ir::Operand::literal(0)}));
    return must(b.load(p));
  }
  void finish(ir::Operand value) {
    must(b.store(color, value));
    must(b.terminate(ir::Opcode::Return));
  }
  void finish_scalar(ir::Operand value) {
    finish(must(b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {value})));
  }
};

}  // namespace sluice::testing
