// Hash-consing of types and constants: asking twice for an equal type or
// constant gives the same id; values that differ in any bit, or in being a
// specialization constant, get different ids.
#include <catch2/catch.hpp>

#include "ir/module.h"

using namespace sluice::ir;
using namespace sluice::ir::predefined;

TEST_CASE("equal types are interned once") {
  Module m;
  const std::size_t before = m.type_count();
  CHECK(m.vector_type(ScalarKind::Float, 4) == kVec4);
  CHECK(m.vector_type(ScalarKind::Float, 4) == m.vector_type(ScalarKind::Float, 4));
  CHECK(m.matrix_type(3, 2) == kMat3x2);
  CHECK(m.type_count() == before);

  const StructMember members[] = {{"position", kVec4, {}, {}, {}}, {"size", kFloat, 16, {}, {}}};
  const Type s = Type::make_struct("Vertex", {members[0], members[1]});
  const TypeId first = m.intern(s);
  CHECK(m.intern(s) == first);
  CHECK(m.type_count() == before + 1);
  CHECK(m.pointer_type(first, StorageClass::Input) == m.pointer_type(first, StorageClass::Input));
  CHECK(m.array_type(first, 3) == m.array_type(first, 3));
}

TEST_CASE("types that differ in any part get different ids") {
  Module m;
  const StructMember a = {"x", kFloat, {}, {}, {}};
  StructMember offset_a = a;
  offset_a.offset = 4;
  // Structs are nominal, and member attributes count.
  const TypeId s = m.intern(Type::make_struct("S", {a}));
  CHECK(m.intern(Type::make_struct("T", {a})) != s);
  CHECK(m.intern(Type::make_struct("S", {offset_a})) != s);
  CHECK(m.intern(Type::make_struct("S", {a}, true)) != s);
  CHECK(m.pointer_type(kVec4, StorageClass::Input) != m.pointer_type(kVec4, StorageClass::Output));
  CHECK(m.array_type(kFloat, 2) != m.array_type(kFloat, 3));
  ImageDescriptor depth;
  depth.depth = true;
  CHECK(m.intern(Type::make_image(ImageDescriptor{})) != m.intern(Type::make_image(depth)));
}

TEST_CASE("equal constants are interned once") {
  Module m;
  CHECK(m.float_constant(1.0f) == kFloatOne);
  CHECK(m.float_constant(1.0f) == m.float_constant(1.0f));
  CHECK(m.int_constant(0) == kIntZero);
  CHECK(m.bool_constant(true) == kTrue);
  const ConstantId parts[] = {kFloatZero, kFloatOne, kFloatZero, kFloatOne};
  const ConstantId green = m.composite_constant(kVec4, parts);
  const std::size_t count = m.constant_count();
  CHECK(m.composite_constant(kVec4, parts) == green);
  CHECK(m.constant_count() == count);
}

TEST_CASE("constants that differ in bits, type or specialization get different ids") {
  Module m;
  // 0.0 and -0.0 compare equal as floats but are different constants.
  CHECK(m.float_constant(-0.0f) != m.float_constant(0.0f));
  CHECK(m.float_constant(-0.0f) == m.float_constant(-0.0f));
  // Same bits, different type.
  CHECK(m.int_constant(1) != m.uint_constant(1));
  CHECK(m.int_constant(1) != m.bool_constant(true));
  // A specialization constant is never the plain constant of its default.
  const ConstantId spec = m.intern(Constant{kInt, 1, {}, 0u});
  CHECK(spec != kIntOne);
  CHECK(m.intern(Constant{kInt, 1, {}, 0u}) == spec);
  CHECK(m.intern(Constant{kInt, 1, {}, 1u}) != spec);
  // Composites differ by component order.
  const ConstantId xy[] = {kFloatZero, kFloatOne};
  const ConstantId yx[] = {kFloatOne, kFloatZero};
  CHECK(m.composite_constant(kVec2, xy) != m.composite_constant(kVec2, yx));
}
