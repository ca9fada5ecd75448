// eliminate-dead-code and its parts: dead registers and merge inputs, code after
// terminators, unused variables, unused functions.
#include <catch2/catch.hpp>

#include "transform/passes.h"
#include "transform_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using sluice::testing::must;

TEST_CASE("dead-registers removes unused pure instructions, transitively, and keeps side effects") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto a = must(s.b.emit(Opcode::Mul, {x, x}));
  must(s.b.emit(Opcode::Sin, {a}));  // unused, and so is a after it goes
  const VariableId counter = s.b.add_global({"counter", NameSource::Internal}, predefined::kInt, StorageClass::Private);
  must(s.b.emit(Opcode::PrefixIncrement, {counter}));  // result unused, but it writes
  s.finish_scalar(x);
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "eliminate-dead-registers"));
  CHECK(testing::count_instructions(s.m, Opcode::Sin) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Mul) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::PrefixIncrement) == 1);
  CHECK_FALSE(testing::run_passes(s.m, "eliminate-dead-registers"));
}

TEST_CASE("a merge input nobody reads goes, and so do the values only it used") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  auto blocks = must(s.b.branch_if(c, true, predefined::kFloat, Precision::High));
  s.b.set_block(blocks.true_block);
  auto t = must(s.b.emit(Opcode::Exp, {x}));
  must(s.b.terminate(Opcode::Merge, t));
  s.b.set_block(blocks.false_block);
  must(s.b.terminate(Opcode::Merge, predefined::kFloatOne));
  s.b.set_block(blocks.merge);
  s.finish_scalar(x);
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "eliminate-dead-registers"));
  const Function& f = s.m.function(s.main);
  CHECK_FALSE(f.block(f.block(f.entry).merge).merge_input.valid());
  CHECK(testing::count_instructions(s.m, Opcode::Exp) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Merge) == 2);
}

TEST_CASE("unreachable-code: an If whose branches both return loses what followed it") {
  testing::ShaderUnderTest s;
  auto x = s.input_x();
  auto c = must(s.b.emit(Opcode::GreaterThan, {x, predefined::kFloatZero}));
  const VariableId count = s.b.add_global({"count", NameSource::Internal}, predefined::kInt, StorageClass::Private);
  // A loop whose only exit is a Break after the If: it goes too, and then
  // the loop's merge is unreachable.
  auto loop = must(s.b.branch_loop());
  s.b.set_block(loop.condition);
  must(s.b.terminate(Opcode::LoopIf, predefined::kTrue));
  s.b.set_block(loop.body);
  auto blocks = must(s.b.branch_if(c, true));
  s.b.set_block(blocks.true_block);
  must(s.b.terminate(Opcode::Return));
  s.b.set_block(blocks.false_block);
  must(s.b.terminate(Opcode::Discard));
  s.b.set_block(blocks.merge);
  must(s.b.emit(Opcode::PrefixIncrement, {count}));
  must(s.b.terminate(Opcode::Break));
  s.b.set_block(loop.merge);
  s.finish_scalar(x);
  testing::require_valid(s.m);

  CHECK(testing::run_passes(s.m, "eliminate-unreachable-code"));
  CHECK(testing::count_instructions(s.m, Opcode::PrefixIncrement) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Break) == 0);
  CHECK(testing::count_instructions(s.m, Opcode::Store) == 0);  // after the loop: unreachable too
  CHECK(testing::count_instructions(s.m, Opcode::Unreachable) == 2);
  CHECK_FALSE(testing::run_passes(s.m, "eliminate-unreachable-code"));
}

TEST_CASE("unused-variables removes locals nobody reads, with their stores") {
  testing::ShaderUnderTest s;
  const VariableId written = s.b.declare_local({"written", NameSource::Temporary}, predefined::kVec4);
  const VariableId read = s.b.declare_local({"read", NameSource::Temporary}, predefined::kVec4);
  const VariableId idle = s.b.declare_local({"idle", NameSource::Temporary}, predefined::kFloat);
  const VariableId priv = s.b.add_global({"scratch", NameSource::Internal}, predefined::kVec4, StorageClass::Private);
  (void)idle;
  auto v = must(s.b.load(s.input));
  must(s.b.store(written, v));
  auto lane = must(s.b.emit(Opcode::AccessVectorComponent, {written, Operand::literal(2)}));
  must(s.b.store(lane, predefined::kFloatOne));
  must(s.b.store(priv, v));
  must(s.b.store(read, v));
  s.finish(must(s.b.load(read)));
  testing::require_valid(s.m);
  const std::size_t variables = s.m.variable_count();

  CHECK(testing::run_passes(s.m, "remove-unused-variables"));
  CHECK(s.m.variable_count() == variables - 3);  // written, idle, scratch
  CHECK(testing::count_instructions(s.m, Opcode::Store) == 2);  // read, color
  CHECK(testing::count_instructions(s.m, Opcode::AccessVectorComponent) == 0);  // went with its store
  bool kept_read = false;
  for (std::uint32_t i = 0; i < s.m.variable_count(); ++i) kept_read |= s.m.variable(VariableId(i)).name.text == "read";
  CHECK(kept_read);
  CHECK_FALSE(testing::run_passes(s.m, "remove-unused-variables"));
}

TEST_CASE("unused-functions removes what main never calls, renumbering calls") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations loc0;
  loc0.location = 0;
  const VariableId color = b.add_global({"color", NameSource::Interface}, predefined::kFloat, StorageClass::Output,
                                        Precision::High, loc0);
  const FunctionId dead = b.begin_function({"dead", NameSource::Internal}, predefined::kFloat);
  b.add_parameter(dead, {"p", NameSource::Internal}, predefined::kFloat, ParamDirection::In);
  must(b.terminate(Opcode::Return, predefined::kFloatOne));
  const FunctionId used = b.begin_function({"used", NameSource::Internal}, predefined::kFloat);
  must(b.terminate(Opcode::Return, predefined::kFloatZero));
  b.begin_function({"main", NameSource::Internal}, predefined::kVoid);
  auto r = must(b.emit(Opcode::Call, {used}));
  must(b.store(color, r));
  must(b.terminate(Opcode::Return));
  testing::require_valid(m);
  (void)dead;

  CHECK(testing::run_passes(m, "remove-unused-functions"));
  CHECK(m.function_count() == 2);
  CHECK(m.variable_count() == 1);  // dead's parameter went with it
  const Function& main = m.function(m.entry_point());
  const Instruction& call = main.block(main.entry).instructions[0];
  REQUIRE(call.opcode == Opcode::Call);
  CHECK(m.function(call.operands[0].as_function()).name.text == "used");
}

TEST_CASE("remove-unused-interface drops resources and inputs no instruction uses, keeps outputs and sample shading") {
  testing::ShaderUnderTest s;
  Decorations binding0;
  binding0.binding = 0;
  const TypeId block = s.m.intern(Type::make_struct("Params", {StructMember{"scale", predefined::kFloat, 0u, {}, {}}},
                                                    true, BlockLayout::Std140));
  const VariableId used = s.b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform,
                                         Precision::High, binding0);
  s.b.add_global({"idle", NameSource::Interface}, block, StorageClass::Uniform, Precision::High, binding0);
  s.b.add_global({"shared_data", NameSource::Internal}, predefined::kFloat, StorageClass::Private);
  auto interface = [&](const char* name, TypeId type, StorageClass storage, Decorations d) {
    s.b.add_global({name, NameSource::Interface}, type, storage, Precision::High, d);
  };
  Decorations sample_id, per_sample, frag_coord, location1;
  sample_id.built_in = "SampleId";
  per_sample.location = 1;
  per_sample.sample = true;
  frag_coord.built_in = "FragCoord";
  location1.location = 1;
  interface("gl_SampleID", predefined::kInt, StorageClass::Input, sample_id);
  interface("per_sample", predefined::kFloat, StorageClass::Input, per_sample);
  interface("gl_FragCoord", predefined::kVec4, StorageClass::Input, frag_coord);
  interface("unwritten", predefined::kVec4, StorageClass::Output, location1);
  auto scale = must(s.b.load(must(s.b.emit(Opcode::AccessStructField, {used, Operand::literal(0)}))));
  s.finish_scalar(scale);
  testing::require_valid(s.m);
  const std::size_t variables = s.m.variable_count();
  CHECK(testing::run_passes(s.m, "remove-unused-interface"));
  CHECK(s.m.variable_count() == variables - 3);  // idle, v, gl_FragCoord
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < s.m.variable_count(); ++i) names.push_back(s.m.variable(VariableId(i)).name.text);
  auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
  CHECK_FALSE(has("idle"));
  CHECK_FALSE(has("v"));  // an input nobody reads
  CHECK_FALSE(has("gl_FragCoord"));
  CHECK(has("params"));
  CHECK(has("shared_data"));  // Private: remove-unused-variables' business
  CHECK(has("gl_SampleID"));  // declared, it turns on sample shading
  CHECK(has("per_sample"));
  CHECK(has("unwritten"));  // outputs stay
  CHECK(has("color"));
  testing::require_valid(s.m);
  CHECK_FALSE(testing::run_passes(s.m, "remove-unused-interface"));
  // The name it had before it also dropped inputs is still accepted.
  CHECK_FALSE(testing::run_passes(s.m, "remove-unused-resources"));
}

TEST_CASE("dce runs the four parts together") {
  Module m = testing::build_angle_example();
  const std::size_t before = testing::count_all_instructions(m);
  testing::run_passes(m, "eliminate-dead-code");
  CHECK(testing::count_all_instructions(m) <= before);
  CHECK_FALSE(testing::run_passes(m, "eliminate-dead-code"));
}
