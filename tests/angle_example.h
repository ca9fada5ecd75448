// The shader of the ANGLE IR README's "Debug Output" section, built by hand
// through the builder, block for block as the README's dump shows it:
//
//   out vec4 color;
//   void main() {
//     vec2 result = vec2(0, 0);
//     for (int i = 0; i < 10; ++i) result.yx += vec2(i, exp(float(i)));
//     color = result.x > result.y ? vec4(0, 1, 0, 1) : vec4(1, 0, 0, 1);
//   }
#pragma once

#include <catch2/catch.hpp>

#include "ir/builder.h"

namespace sluice::testing {

template <class T>
T must(Result<T> r) {
  INFO((r.ok() ? std::string() : r.error()));
  REQUIRE(r.ok());
  return *r;
}

inline ir::Module build_angle_example() {
  using namespace ir;
  using namespace ir::predefined;
  Module m(ShaderStage::Fragment);
  m.shader().early_fragment_tests = true;
  Builder b(m);
  const Precision mp = Precision::Medium;

  Decorations at_location0;
  at_location0.location = 0;
  VariableId color =
      b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, mp, at_location0);
  const ConstantId zero2[] = {kFloatZero, kFloatZero};
  const ConstantId c_result_init = m.composite_constant(kVec2, zero2);
  const ConstantId c_ten = m.int_constant(10);
  const ConstantId green[] = {kFloatZero, kFloatOne, kFloatZero, kFloatOne};
  const ConstantId red[] = {kFloatOne, kFloatZero, kFloatZero, kFloatOne};
  const ConstantId c_green = m.composite_constant(kVec4, green);
  const ConstantId c_red = m.composite_constant(kVec4, red);

  b.begin_function({"main", NameSource::Internal}, kVoid);
  VariableId result = b.declare_local({"result", NameSource::Temporary}, kVec2, mp, c_result_init);
  VariableId i = b.declare_local({"i", NameSource::Temporary}, kInt, mp, kIntZero);
  LoopBlocks loop = must(b.branch_loop(false, true));

  b.set_block(loop.condition);
  RegisterId r0 = must(b.load(i));
  RegisterId r1 = must(b.emit(Opcode::LessThan, {r0, c_ten}));
  must(b.terminate(Opcode::LoopIf, r1));

  b.set_block(loop.continue_block);
  must(b.emit(Opcode::PrefixIncrement, {i}));
  must(b.terminate(Opcode::Continue));

  b.set_block(loop.body);
  RegisterId r3 = must(b.emit(Opcode::AccessVectorComponentMulti, {result, Operand::literal(1), Operand::literal(0)}));
  RegisterId r4 = must(b.load(i));
  RegisterId r5 = must(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {r4}));
  RegisterId r6 = must(b.emit(Opcode::Exp, {r5}));
  RegisterId r7 = must(b.load(i));
  // The README passes the int r7 straight to the constructor; a typed IR
  // converts it first.
  RegisterId r7f = must(b.construct(Opcode::ConstructScalarFromScalar, kFloat, {r7}));
  RegisterId r8 = must(b.construct(Opcode::ConstructVectorFromMultiple, kVec2, {r7f, r6}));
  RegisterId r9 = must(b.load(r3));
  RegisterId r10 = must(b.emit(Opcode::Add, {r9, r8}));
  must(b.store(r3, r10));
  must(b.terminate(Opcode::Continue));

  b.set_block(loop.merge);
  RegisterId r11 = must(b.emit(Opcode::AccessVectorComponent, {result, Operand::literal(0)}));
  RegisterId r12 = must(b.emit(Opcode::AccessVectorComponent, {result, Operand::literal(1)}));
  RegisterId r13 = must(b.load(r12));
  RegisterId r14 = must(b.load(r11));
  RegisterId r15 = must(b.emit(Opcode::GreaterThan, {r14, r13}));
  IfBlocks sel = must(b.branch_if(r15, true, kVec4, mp));
  b.set_block(sel.true_block);
  must(b.terminate(Opcode::Merge, c_green));
  b.set_block(sel.false_block);
  must(b.terminate(Opcode::Merge, c_red));
  b.set_block(sel.merge);
  must(b.store(color, b.merge_input(sel.merge)));
  must(b.terminate(Opcode::Return));
  return m;
}

}  // namespace sluice::testing
