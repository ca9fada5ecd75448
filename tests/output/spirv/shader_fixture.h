// A fragment shader under construction for the SPIR-V output tests:
// `flat in int x` (location 0), `out int o` (location 0) and an empty
// `main`, with a builder positioned in main's entry block. Each test writes
// its control flow with the builder and checks the emitted module.
#pragma once

#include "ir/builder.h"
#include "spirv_test_util.h"
#include "validator/validator.h"

namespace sluice::testing {

struct ShaderFixture {
  ir::Module m{ir::ShaderStage::Fragment};
  ir::Builder b{m};
  ir::VariableId x, o;
  ir::FunctionId main;

  ShaderFixture() {
    ir::Decorations loc0;
    loc0.location = 0;
    loc0.interpolation = ir::Interpolation::Flat;
    x = b.add_global({"x", ir::NameSource::Interface}, ir::predefined::kInt, ir::StorageClass::Input,
                     ir::Precision::None, loc0);
    ir::Decorations out0;
    out0.location = 0;
    o = b.add_global({"o", ir::NameSource::Interface}, ir::predefined::kInt, ir::StorageClass::Output,
                     ir::Precision::None, out0);
    main = b.begin_function({"main", ir::NameSource::Internal}, ir::predefined::kVoid);
  }

  ir::ConstantId i(std::int32_t v) { return m.int_constant(v); }
  ir::RegisterId load(ir::Operand p) { return ok(b.load(p)); }
  void store(ir::Operand p, ir::Operand v) { ok(b.store(p, v)); }
  ir::RegisterId emit(ir::Opcode op, std::initializer_list<ir::Operand> operands) { return ok(b.emit(op, operands)); }
  void terminate(ir::Opcode op, std::optional<ir::Operand> operand = std::nullopt) { ok(b.terminate(op, operand)); }
  ir::VariableId local(const char* name, ir::ConstantId init = {}) {
    return b.declare_local({name, ir::NameSource::Temporary}, ir::predefined::kInt, ir::Precision::None, init);
  }

  // The module must be valid IR before the output sees it.
  void require_valid_ir() const {
    const auto problems = validator::validate(m);
    INFO(validator::describe(m, problems));
    REQUIRE(problems.empty());
  }
};

}  // namespace sluice::testing
