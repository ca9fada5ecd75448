// `NotEqual` (GLSL's whole-value `!=`) on scalars and vectors is the negated
// comparison itself — OpFUnordNotEqual (true when either side is NaN, the
// negation of OpFOrdEqual), OpINotEqual, OpLogicalNotEqual, under OpAny for
// vectors — not OpLogicalNot of the equality; composites keep the negated
// member-wise equality. Validated on every target.
#include <catch2/catch.hpp>

#include "spirv_test_util.h"

using namespace sluice;
using namespace sluice::ir;
using namespace sluice::ir::predefined;
using testing::ok;

TEST_CASE("!= on scalars and vectors is one negated comparison, on a struct not(all members equal)") {
  Module m(ShaderStage::Fragment);
  Builder b(m);
  Decorations loc0, loc1, out0;
  loc0.location = 0;
  loc1.location = 1;
  loc1.interpolation = Interpolation::Flat;
  out0.location = 0;
  VariableId f3 = b.add_global({"f3", NameSource::Interface}, kVec3, StorageClass::Input, Precision::High, loc0);
  VariableId i2 = b.add_global({"i2", NameSource::Interface}, kIVec2, StorageClass::Input, Precision::High, loc1);
  VariableId color = b.add_global({"color", NameSource::Interface}, kVec4, StorageClass::Output, Precision::High, out0);
  const TypeId pair = m.intern(Type::make_struct("Pair", {testing::member("a", kFloat), testing::member("b", kInt)}));
  b.begin_function({"main", NameSource::Internal}, kVoid);
  RegisterId v = ok(b.load(f3));
  RegisterId iv = ok(b.load(i2));
  RegisterId x = ok(b.emit(Opcode::ExtractVectorComponent, {v, Operand::literal(0)}));
  RegisterId i = ok(b.emit(Opcode::ExtractVectorComponent, {iv, Operand::literal(0)}));
  RegisterId scalar = ok(b.emit(Opcode::NotEqual, {x, m.float_constant(1.0f)}));
  RegisterId vector = ok(b.emit(Opcode::NotEqual, {v, v}));
  RegisterId ints = ok(b.emit(Opcode::NotEqual, {iv, iv}));
  RegisterId bools = ok(b.emit(Opcode::NotEqual, {scalar, vector}));
  RegisterId p = ok(b.construct(Opcode::ConstructStruct, pair, {x, i}));
  RegisterId structs = ok(b.emit(Opcode::NotEqual, {p, p}));
  RegisterId any = ok(b.emit(Opcode::LogicalOr, {ok(b.emit(Opcode::LogicalOr, {bools, ints})), structs}));
  ok(b.store(color, ok(b.emit(Opcode::Select, {any, ok(b.construct(Opcode::ConstructVectorFromScalar, kVec4, {x})),
                                                ok(b.construct(Opcode::ConstructVectorFromScalar, kVec4,
                                                               {m.float_constant(0.0f)}))}))));
  ok(b.terminate(Opcode::Return));
  for (const auto& e : testing::emit_everywhere(m)) {
    CHECK(testing::count_of(e.text, "OpFUnordNotEqual %bool") == 1);
    CHECK(testing::count_of(e.text, "OpFUnordNotEqual %v3bool") == 1);
    CHECK(testing::count_of(e.text, "OpINotEqual %v2bool") == 1);
    CHECK(testing::count_of(e.text, "OpLogicalNotEqual %bool") == 1);
    CHECK(testing::count_of(e.text, "OpAny %bool") == 2);
    // Only the struct comparison negates an equality.
    CHECK(testing::count_of(e.text, "OpLogicalNot %bool") == 1);
    CHECK(testing::count_of(e.text, "OpFOrdEqual %bool") == 1);
    CHECK(testing::count_of(e.text, "OpIEqual %bool") == 1);
  }
}
