// Access chains combined from the root (src/output/spirv/access_chains.cpp):
// an access whose pointer only further accesses use is not emitted, and the
// accesses built on it name the root and every index in one OpAccessChain;
// an access something else reads (a Load other than of Uniform or
// PushConstant memory, ArrayLength's block) is emitted where the IR defines it. Every module is validated on every target, with
// and without promotion to SSA.
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "spirv_test_util.h"
#include "validator/validator.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

namespace {

using testing::emit_everywhere;

// The words of an OpAccessChain line after the opcode: result type, base,
// indices; and the result id in front.
struct ChainLine {
  std::string result;
  std::vector<std::string> operands;
};
ChainLine parse_chain(const std::string& line) {
  std::istringstream in(line);
  ChainLine c;
  std::string word;
  in >> c.result >> word >> word;  // "=", "OpAccessChain"
  while (in >> word) c.operands.push_back(word);
  return c;
}

struct UniformArrayShader {
  Module m{ShaderStage::Fragment};
  Builder b{m};
  VariableId params, input, color;
  RegisterId values;  // params.values: AccessStructField, an intermediate level

  UniformArrayShader() {
    const TypeId block = m.intern(Type::make_struct(
        "Params", {testing::member("scale", kFloat), testing::member("values", m.array_type(kVec4, 4))}, true,
        BlockLayout::Std140));
    Decorations binding;
    binding.binding = 0;
    binding.set = 0;
    params = b.add_global({"params", NameSource::Interface}, block, StorageClass::Uniform, Precision::High, binding);
    Decorations loc0;
    loc0.location = 0;
    loc0.interpolation = Interpolation::Flat;
    input = b.add_global({"index", NameSource::Interface}, kInt, StorageClass::Input, Precision::High, loc0);
    Decorations out0;
    out0.location = 0;
    color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::High, out0);
    b.begin_function({"main", NameSource::Internal}, kVoid);
    values = ok(b.emit(Opcode::AccessStructField, {params, Operand::literal(1)}));
  }
  RegisterId element(Operand index) { return ok(b.emit(Opcode::AccessArrayElement, {values, index})); }
};

}  // namespace

TEST_CASE("accesses through a level only accesses use become one OpAccessChain from the root each") {
  UniformArrayShader s;
  RegisterId first = ok(s.b.load(s.element(kIntOne)));
  RegisterId dynamic = ok(s.b.load(s.element(ok(s.b.load(s.input)))));
  // Three levels: params.values[index].y
  RegisterId y = ok(s.b.load(ok(s.b.emit(Opcode::AccessVectorComponent, {s.element(ok(s.b.load(s.input))),
                                                                         Operand::literal(1)}))));
  RegisterId sum = ok(s.b.emit(Opcode::Add, {first, dynamic}));
  ok(s.b.store(s.color, ok(s.b.emit(Opcode::VectorTimesScalar, {sum, y}))));
  ok(s.b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(s.m)) {
    const auto chains = testing::lines_with(e.text, "OpAccessChain");
    INFO(e.text);
    REQUIRE(chains.size() == 3);
    const ChainLine constant = parse_chain(chains[0]), indexed = parse_chain(chains[1]), component = parse_chain(chains[2]);
    // Every chain starts at the block variable: the level params.values is in each.
    CHECK(constant.operands == std::vector<std::string>{"%_ptr_Uniform_v4float", "%params", "%int_1", "%int_1"});
    REQUIRE(indexed.operands.size() == 4);
    CHECK(indexed.operands[1] == "%params");
    CHECK(indexed.operands[2] == "%int_1");
    REQUIRE(component.operands.size() == 5);
    CHECK(component.operands[0] == "%_ptr_Uniform_float");
    CHECK(component.operands[1] == "%params");
    CHECK(component.operands[4] == "%int_1");
    // No pointer to the array member: the intermediate level is never a value.
    CHECK(testing::count_of(e.text, "OpTypePointer Uniform %_arr") == 0);
  }
}

TEST_CASE("a Uniform level that a Load reads is materialized at the load, and the accesses on it start from the root") {
  UniformArrayShader s;
  RegisterId whole = ok(s.b.load(s.values));  // the whole array: values must exist as a pointer
  RegisterId from_whole = ok(s.b.emit(Opcode::ExtractArrayElement, {whole, kIntZero}));
  RegisterId second = ok(s.b.load(s.element(kIntOne)));
  ok(s.b.store(s.color, ok(s.b.emit(Opcode::Add, {from_whole, second}))));
  ok(s.b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(s.m)) {
    const auto chains = testing::lines_with(e.text, "OpAccessChain");
    REQUIRE(chains.size() == 2);
    const ChainLine level = parse_chain(chains[0]), element = parse_chain(chains[1]);
    CHECK(level.operands == std::vector<std::string>{"%_ptr_Uniform__arr_v4float_uint_4", "%params", "%int_1"});
    // A Load of Uniform memory does not make its pointer a value of its own
    // (readonly_loads.cpp may reuse the load instead), so the element's chain
    // starts from the root too.
    CHECK(element.operands == std::vector<std::string>{"%_ptr_Uniform_v4float", "%params", "%int_1", "%int_1"});
  }
}

TEST_CASE("ArrayLength of a block reached through a deferred array-of-blocks element") {
  Module m(ShaderStage::Compute);
  m.shader().local_size = {1, 1, 1};
  Builder b(m);
  const TypeId block = m.intern(Type::make_struct(
      "Data", {testing::member("count", kUint), testing::member("values", m.intern(Type::make_unsized_array(kFloat)))},
      true, BlockLayout::Std430));
  Decorations binding;
  binding.binding = 0;
  binding.set = 0;
  VariableId data = b.add_global({"data", NameSource::Interface}, m.array_type(block, 2), StorageClass::StorageBuffer,
                                 Precision::None, binding);
  b.begin_function({"main", NameSource::Internal}, kVoid);
  RegisterId second = ok(b.emit(Opcode::AccessArrayElement, {data, kIntOne}));  // only accesses use it
  RegisterId values = ok(b.emit(Opcode::AccessStructField, {second, Operand::literal(1)}));
  RegisterId length = ok(b.emit(Opcode::ArrayLength, {values}));
  RegisterId count = ok(b.emit(Opcode::AccessStructField, {second, Operand::literal(0)}));
  ok(b.store(count, ok(b.construct(Opcode::Bitcast, kUint, {length}))));
  ok(b.terminate(Opcode::Return));
  for (const auto& e : emit_everywhere(m)) {
    CHECK(testing::count_of(e.text, "OpArrayLength") == 1);
    // data[1] is made for OpArrayLength where it is needed; count is data[1].count from the root.
    CHECK(testing::count_of(e.text, "%data %int_1 %int_0") == 1);
  }
}
