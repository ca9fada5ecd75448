// Large modules for the linearity checks: tests/transform/scale_test.cpp
// runs every pass on them at 10^5 and 10^6 instructions (checking only
// that they complete and leave valid IR), bench/transform_bench.cpp times
// them. No Catch2 here, so the benchmark can include it too.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/builder.h"

namespace sluice::testing::scale {

struct Shader {
  ir::Module m{ir::ShaderStage::Fragment};
  ir::Builder b{m};
  ir::VariableId color, input;

  Shader() {
    using namespace ir;
    Decorations loc0;
    loc0.location = 0;
    color = b.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output, Precision::High,
                         loc0);
    input = b.add_global({"v", NameSource::Interface}, predefined::kFloat, StorageClass::Input, Precision::High, loc0);
  }
  ir::RegisterId emit(ir::Opcode op, std::initializer_list<ir::Operand> ops) { return b.emit(op, ops).value(); }
};

// One block: per step, a foldable constant, a value and its commuted
// duplicate, a dead Sin, and the running sum (6 instructions a step).
inline ir::Module straight_line(std::size_t instructions) {
  using namespace ir;
  Shader s;
  s.m.reserve_registers(instructions + 16);
  s.b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const RegisterId x = s.b.load(s.input).value();
  RegisterId prev = x;
  RegisterId constant_chain = s.emit(Opcode::Add, {predefined::kFloatOne, predefined::kFloatOne});
  for (std::size_t i = 0; i + 6 <= instructions; i += 6) {
    constant_chain = s.emit(Opcode::Mul, {constant_chain, predefined::kFloatOne});
    const RegisterId t1 = s.emit(Opcode::Add, {prev, x});
    const RegisterId t2 = s.emit(Opcode::Add, {x, prev});
    const RegisterId t3 = s.emit(Opcode::Mul, {t1, t2});
    s.emit(Opcode::Sin, {t3});
    prev = s.emit(Opcode::Add, {t3, constant_chain});
  }
  s.b.store(s.color, prev).value();
  s.b.terminate(Opcode::Return).value();
  return std::move(s.m);
}

// Ifs nested instructions/6 deep. Every other one tests a constant; each
// level computes a value, merges it through a merge input and adds it up.
inline ir::Module nested_ifs(std::size_t instructions) {
  using namespace ir;
  Shader s;
  s.b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const RegisterId x = s.b.load(s.input).value();
  const RegisterId data = s.emit(Opcode::GreaterThan, {x, predefined::kFloatZero});
  const std::size_t depth = instructions / 6;
  std::vector<IfBlocks> levels;
  levels.reserve(depth);
  RegisterId value = x;
  for (std::size_t i = 0; i < depth; ++i) {
    const Operand cond = i % 2 ? Operand(data) : Operand(predefined::kTrue);
    IfBlocks blocks = s.b.branch_if(cond, true, predefined::kFloat, Precision::High).value();
    levels.push_back(blocks);
    s.b.set_block(blocks.false_block);
    s.b.terminate(Opcode::Merge, value).value();
    s.b.set_block(blocks.true_block);
    value = s.emit(Opcode::Add, {value, x});
  }
  for (std::size_t i = depth; i-- > 0;) {
    s.b.terminate(Opcode::Merge, value).value();
    s.b.set_block(levels[i].merge);
    value = s.emit(Opcode::Mul, {s.b.merge_input(levels[i].merge), predefined::kFloatOne});
  }
  s.b.store(s.color, value).value();
  s.b.terminate(Opcode::Return).value();
  return std::move(s.m);
}

// instructions/8 small functions with in and inout parameters, each called
// once from main, for the inliner.
inline ir::Module many_calls(std::size_t instructions) {
  using namespace ir;
  Shader s;
  const std::size_t count = instructions / 8;
  std::vector<FunctionId> callees;
  for (std::size_t i = 0; i < count; ++i) {
    const FunctionId f = s.b.begin_function({"f", NameSource::Internal}, predefined::kFloat, Precision::High);
    const VariableId a = s.b.add_parameter(f, {"a", NameSource::Internal}, predefined::kFloat, ParamDirection::In);
    const VariableId io = s.b.add_parameter(f, {"io", NameSource::Internal}, predefined::kFloat, ParamDirection::InOut);
    const RegisterId av = s.b.load(a).value();
    const RegisterId sum = s.emit(Opcode::Add, {av, s.b.load(io).value()});
    s.b.store(io, sum).value();
    s.b.terminate(Opcode::Return, sum).value();
    callees.push_back(f);
  }
  s.b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const VariableId acc = s.b.declare_local({"acc", NameSource::Temporary}, predefined::kFloat, Precision::High,
                                           predefined::kFloatZero);
  const RegisterId x = s.b.load(s.input).value();
  RegisterId last = x;
  for (FunctionId f : callees) last = s.emit(Opcode::Call, {f, x, acc});
  s.b.store(s.color, last).value();
  s.b.terminate(Opcode::Return).value();
  return std::move(s.m);
}

// Memory traffic for the -O1 memory passes (forward-stores, eliminate-dead-stores,
// replace-uninitialized-loads, lower-increments, convert-ifs): Ifs nested
// instructions/12 deep; each level stores to and loads from a local float,
// increments a local int, loads a component of a local vec4, reads a
// never-written Private global and opens an If on the input whose true
// block holds the next level and whose false block only merges. After the
// innermost level, each merge block stores the local float to the output.
inline ir::Module memory_traffic(std::size_t instructions) {
  using namespace ir;
  Shader s;
  const VariableId g = s.b.add_global({"g", NameSource::Internal}, predefined::kFloat, StorageClass::Private);
  s.b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const VariableId a = s.b.declare_local({"a", NameSource::Temporary}, predefined::kFloat, Precision::High);
  const VariableId i = s.b.declare_local({"i", NameSource::Temporary}, predefined::kInt, Precision::High,
                                         predefined::kIntZero);
  const VariableId v = s.b.declare_local({"v", NameSource::Temporary}, predefined::kVec4, Precision::High);
  const RegisterId x = s.b.load(s.input).value();
  const RegisterId positive = s.emit(Opcode::GreaterThan, {x, predefined::kFloatZero});
  const std::size_t depth = instructions / 12;
  std::vector<IfBlocks> levels;
  levels.reserve(depth);
  RegisterId value = x;
  for (std::size_t k = 0; k < depth; ++k) {
    s.b.store(a, value).value();
    const RegisterId loaded = s.b.load(a).value();
    s.emit(Opcode::PostfixIncrement, {i});
    const RegisterId splat = s.b.construct(Opcode::ConstructVectorFromScalar, predefined::kVec4, {loaded}).value();
    s.b.store(v, splat).value();
    const RegisterId component = s.b.load(s.emit(Opcode::AccessVectorComponent, {v, Operand::literal(1)})).value();
    const RegisterId undefined = s.b.load(g).value();
    value = s.emit(Opcode::Add, {component, undefined});
    IfBlocks blocks = s.b.branch_if(positive, true).value();
    levels.push_back(blocks);
    s.b.set_block(blocks.false_block);
    s.b.terminate(Opcode::Merge).value();
    s.b.set_block(blocks.true_block);
  }
  for (std::size_t k = depth; k-- > 0;) {
    s.b.terminate(Opcode::Merge).value();
    s.b.set_block(levels[k].merge);
    s.b.store(s.color, s.b.load(a).value()).value();
  }
  s.b.terminate(Opcode::Return).value();
  return std::move(s.m);
}

// Aggregates and swizzles for scalar-replace-aggregates and forward-stores'
// vector lanes: one block; per step (14 instructions) a fresh local
// struct { float; vec4 } and a fresh float[2], written and read through
// constant indices, the vec4 member updated through a swizzle with a
// constant, and the running sum.
inline ir::Module aggregates(std::size_t instructions) {
  using namespace ir;
  Shader s;
  StructMember a, b;
  a.name = "a";
  a.type = predefined::kFloat;
  b.name = "b";
  b.type = predefined::kVec4;
  const TypeId pair = s.m.intern(Type::make_struct("P", {a, b}));
  const TypeId floats = s.m.intern(Type::make_array(predefined::kFloat, 2));
  const TypeId vec2 = s.m.vector_type(ScalarKind::Float, 2);
  const ConstantId half = s.m.float_constant(0.5f);
  const ConstantId halves[] = {half, half};
  const ConstantId swizzled = s.m.composite_constant(vec2, halves);
  const ConstantId one = predefined::kFloatOne;
  const ConstantId four_ones[] = {one, one, one, one};
  const ConstantId ones = s.m.composite_constant(predefined::kVec4, four_ones);
  s.b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  const RegisterId x = s.b.load(s.input).value();
  RegisterId sum = x;
  for (std::size_t i = 0; i + 14 <= instructions; i += 14) {
    const VariableId p = s.b.declare_local({"p", NameSource::Temporary}, pair, Precision::High);
    const VariableId f = s.b.declare_local({"f", NameSource::Temporary}, floats, Precision::High);
    const RegisterId pa = s.emit(Opcode::AccessStructField, {p, Operand::literal(0)});
    s.b.store(pa, sum).value();
    const RegisterId pb = s.emit(Opcode::AccessStructField, {p, Operand::literal(1)});
    s.b.store(pb, ones).value();
    const RegisterId zx = s.emit(Opcode::AccessVectorComponentMulti, {pb, Operand::literal(2), Operand::literal(0)});
    s.b.store(zx, swizzled).value();
    const RegisterId f1 = s.emit(Opcode::AccessArrayElement, {f, predefined::kIntOne});
    s.b.store(f1, s.b.load(pa).value()).value();
    const RegisterId z = s.b.load(s.emit(Opcode::AccessVectorComponent, {pb, Operand::literal(2)})).value();
    sum = s.emit(Opcode::Add, {s.b.load(f1).value(), z});
  }
  s.b.store(s.color, sum).value();
  s.b.terminate(Opcode::Return).value();
  return std::move(s.m);
}

}  // namespace sluice::testing::scale
