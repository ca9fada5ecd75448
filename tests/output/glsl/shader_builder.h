// A small frame for the control-flow and inlining tests: a fragment shader
// with inputs `x` (float) and `n` (flat int), an output `color` and a
// `main` under construction; helpers keep the test bodies about the shape
// of the code they build.
#pragma once

#include "angle_example.h"
#include "ir/builder.h"

namespace sluice::testing {

struct ShaderBuilder {
  ir::Module m{ir::ShaderStage::Fragment};
  ir::Builder b{m};
  ir::VariableId color, x, n;
  ir::FunctionId main;

  ShaderBuilder() {
    using namespace ir;
    using namespace ir::predefined;
    Decorations d0, d1, d2;
    d0.location = 0;
    d1.location = 0;
    d2.location = 1;
    d2.interpolation = Interpolation::Flat;
    color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::None, d0);
    x = b.add_global({"x", NameSource::Interface}, kFloat, StorageClass::Input, Precision::None, d1);
    n = b.add_global({"n", NameSource::Interface}, kInt, StorageClass::Input, Precision::None, d2);
  }

  void begin_main() { main = b.begin_function({"main", ir::NameSource::Internal}, ir::predefined::kVoid); }

  ir::RegisterId op(ir::Opcode o, std::initializer_list<ir::Operand> operands) { return must(b.emit(o, operands)); }
  ir::RegisterId load(ir::Operand p) { return must(b.load(p)); }
  void store(ir::Operand p, ir::Operand v) { must(b.store(p, v)); }
  void end(ir::Opcode o, std::optional<ir::Operand> v = std::nullopt) { must(b.terminate(o, v)); }
  ir::ConstantId f(float v) { return m.float_constant(v); }
  ir::ConstantId i(std::int32_t v) { return m.int_constant(v); }
  ir::RegisterId splat(ir::Operand scalar) {
    return must(b.construct(ir::Opcode::ConstructVectorFromScalar, ir::predefined::kVec4, {scalar}));
  }
  // `v += *p` as a GLSL front end lowers it: *p is read before v.
  void add_to(ir::VariableId v, ir::Operand p) {
    const ir::RegisterId value = load(p);
    store(v, op(ir::Opcode::Add, {load(v), value}));
  }
  // color = vec4(value)
  void write_color(ir::Operand scalar) { store(color, splat(scalar)); }
};

}  // namespace sluice::testing
